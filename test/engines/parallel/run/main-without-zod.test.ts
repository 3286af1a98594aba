import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FIXTURES } from "../../../helpers/flow.js";
import { tempDir } from "../../../helpers/temp-dir.js";

// The parallel engine's main thread sets a run up from dist/fast/format-info.json, not from the zod
// schemas: loading zod and building the formats cost ~0.1 s of start-up while the workers waited.
const BIN = new URL("../../../../dist/cli/main.js", import.meta.url).pathname;
const WATCH = new URL("../../../helpers/zod-watch.mjs", import.meta.url).pathname;
const root = tempDir();

const convert = (engine: string, out: string) =>
  spawnSync(process.execPath, ["--import", WATCH, BIN, "convert", `${FIXTURES}records/sft-valid.ndjson`, `${FIXTURES}records/sft-duplicates.ndjson`, "--out", join(root, out), "--engine", engine, "--seats", "all"], { encoding: "utf8" });

describe("the parallel engine's main thread", () => {
  it("converts without loading zod", () => {
    const r = convert("parallel", "parallel");
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/records in 9, out 6/);
    expect(r.stderr).not.toMatch(/zod was loaded/);
  });

  it("(the watch sees zod when the stages engine loads it)", () => {
    const r = convert("stages", "stages");
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(/zod was loaded/);
  });
});
