import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { SLOWEST_FILES, waitingLast } from "./helpers/slowest-first-sequencer.js";
import { tempDir } from "./helpers/temp-dir.js";

// A renamed or deleted file would silently leave the list, and could then start last on a fresh checkout.
describe("the slowest files vitest starts first", () => {
  it("are test files of this suite, each once", () => {
    const root = fileURLToPath(new URL("../", import.meta.url));
    expect(SLOWEST_FILES.filter((f) => !f.endsWith(".test.ts") || !existsSync(`${root}${f}`))).toEqual([]);
    expect(new Set(SLOWEST_FILES).size).toBe(SLOWEST_FILES.length);
  });
});

// While npm test still fills the venv or installs Chromium, the files that would wait for it start after the rest.
describe("the files that need a set-up phase still running", () => {
  const root = fileURLToPath(new URL("../", import.meta.url));
  // A Python reader through a helper (read-back.ts), the browser test, and a file that needs neither.
  const files = ["test/parquet/round-trip.test.ts", "test/report/report.test.ts", "test/package-lock.test.ts"].map((f) => `${root}${f}`);

  it("start after the others, in the same order otherwise", () => {
    const outer = process.env.EVALSHARD_TEST_SETUP;
    try {
      const dir = tempDir();
      process.env.EVALSHARD_TEST_SETUP = dir;
      expect(waitingLast(files)).toEqual([files[2], files[0], files[1]]);
      writeFileSync(join(dir, "python-venv.ok"), "");
      expect(waitingLast(files)).toEqual([files[0], files[2], files[1]]);
      writeFileSync(join(dir, "chromium.failed"), "");
      expect(waitingLast(files)).toEqual(files);
      delete process.env.EVALSHARD_TEST_SETUP;
      expect(waitingLast(files)).toEqual(files);
    } finally {
      if (outer === undefined) delete process.env.EVALSHARD_TEST_SETUP;
      else process.env.EVALSHARD_TEST_SETUP = outer;
    }
  });
});
