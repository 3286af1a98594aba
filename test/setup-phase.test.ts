import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { setupPhasePending, waitForSetupPhase } from "./helpers/setup-phase.js";
import { tempDir } from "./helpers/temp-dir.js";

// npm test (scripts/test.mjs) fills the venv and installs Chromium in the background; the helpers that need them
// wait on the marker the phase writes when it ends.
const outer = process.env.EVALSHARD_TEST_SETUP;
afterEach(() => {
  if (outer === undefined) delete process.env.EVALSHARD_TEST_SETUP;
  else process.env.EVALSHARD_TEST_SETUP = outer;
});

describe("waiting for npm test's background set-up phases", () => {
  it("waits until the phase's .ok marker appears", async () => {
    const dir = tempDir();
    process.env.EVALSHARD_TEST_SETUP = dir;
    expect(setupPhasePending("python-venv")).toBe(true);
    let settled = false;
    const wait = waitForSetupPhase("python-venv", 10_000, 20).then(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(settled).toBe(false);
    writeFileSync(join(dir, "python-venv.ok"), "");
    await wait;
    expect(setupPhasePending("python-venv")).toBe(false);
  });

  it("fails with the end of the phase's log when it failed, or when it outlives the deadline", async () => {
    const dir = tempDir();
    process.env.EVALSHARD_TEST_SETUP = dir;
    writeFileSync(join(dir, "chromium.log"), "E: Unable to locate package chromium\n");
    await expect(waitForSetupPhase("chromium", 200, 20)).rejects.toThrow(/chromium phase did not finish within 0.2 s .*chromium\.log[^]*Unable to locate package chromium/);
    writeFileSync(join(dir, "chromium.failed"), "");
    await expect(waitForSetupPhase("chromium", 10_000, 20)).rejects.toThrow(/chromium phase failed[^]*Unable to locate package chromium/);
  });

  it("is nothing to wait for outside npm test", async () => {
    delete process.env.EVALSHARD_TEST_SETUP;
    expect(setupPhasePending("python-venv")).toBe(false);
    await waitForSetupPhase("python-venv", 0);
  });
});
