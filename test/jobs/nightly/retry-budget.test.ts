import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { RetryBudgetError } from "../../../src/http/index.js";
import { runNightly } from "../../../src/jobs/nightly/run-nightly.js";
import { parsePipeline } from "../../../src/pipeline-file/load-pipeline.js";
import { spawnCli } from "../../helpers/spawn-cli.js";
import { tempDir } from "../../helpers/temp-dir.js";
import { datasetOf, emulator, envFor, fastClock, PIPELINES } from "./support.js";

// One retry budget per night (`retry_budget`, `--retry-budget`): when the service keeps failing, the
// night stops once that much time went to waiting, fails naming the budget, and publishes nothing.

/** The shipped SFT pipeline with a retry budget of `seconds`, one night on a clock whose sleeps return at once. */
function nightWithBudget(env: Record<string, string>, seconds: number) {
  const text = readFileSync(join(PIPELINES, "nightly-sft.yaml"), "utf8").replace("concurrency: 4", `concurrency: 4\n  retry_budget: ${seconds}`).replace("to: parquet", "to: jsonl");
  return runNightly(parsePipeline(text, "nightly-sft.yaml", env), { env, clock: fastClock(), retry: { maxAttempts: 1000 } });
}

describe("a night's retry budget", () => {
  it("a service answering 503 (Retry-After: 2) to every request: the night fails once 10 s went to waiting, the dataset untouched", async () => {
    const emu = await emulator({ seed: 51, runs: 60, timing: { gatewayTimeoutMs: 5, retryAfterSeconds: 2, slowDelayMs: 0 } });
    const dir = tempDir("evalshard-budget-");
    await nightWithBudget(envFor(emu, dir), 10);
    const before = datasetOf(join(dir, "nightly-sft"));
    const manifest = readFileSync(join(dir, "nightly-sft/manifest.json"), "utf8");

    emu.aimFault({ kind: "503", path: /^\/api\//, times: 100_000 });
    const seen = emu.faultLog.length;
    const error = await nightWithBudget(envFor(emu, dir), 10).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RetryBudgetError);
    expect((error as Error).message).toMatch(/503.*not retried: the retry budget \(10 s of waiting on failures\) is spent/s);
    // Waits cost the budget only while no request is in flight; 1000 attempts of each request were allowed.
    expect(emu.faultLog.length - seen).toBeLessThan(300);
    expect(datasetOf(join(dir, "nightly-sft"))).toEqual(before);
    expect(readFileSync(join(dir, "nightly-sft/manifest.json"), "utf8")).toBe(manifest);
  });

  it("a pipeline's retry_budget is checked: a whole number of seconds from 1 up", async () => {
    const emu = await emulator({ seed: 52, runs: 5 });
    expect(() => nightWithBudget(envFor(emu, tempDir("evalshard-budget-bad-")), 0)).toThrow(/source\.retry_budget: expected a whole number from 1 and up, got 0/);
  });

  it("through the CLI: `pull --retry-budget 2` against a service answering 503 (Retry-After: 1) fails in seconds, exit 1, naming the budget", async () => {
    const emu = await emulator({ seed: 53, runs: 20, timing: { gatewayTimeoutMs: 5, retryAfterSeconds: 1, slowDelayMs: 0 } });
    emu.aimFault({ kind: "503", path: /^\/api\//, times: 100_000 });
    const out = join(tempDir("evalshard-budget-cli-"), "out");
    const started = performance.now();
    const r = await spawnCli(["pull", "sft", "--base-url", emu.url, "--out", out, "--retry-budget", "2"], envFor(emu, out));
    expect(r.status, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/not retried: the retry budget \(2 s of waiting on failures\) is spent/);
    // Without the budget: 8 attempts of each request, with waits of a second and more.
    expect(performance.now() - started).toBeLessThan(30_000);
  });
});
