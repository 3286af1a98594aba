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

const cli = (...args: string[]) => spawnSync(process.execPath, ["--import", WATCH, BIN, ...args], { encoding: "utf8" });

describe("the parallel engine's main thread", () => {
  it("converts without loading zod", () => {
    const r = cli("convert", `${FIXTURES}records/sft-valid.ndjson`, `${FIXTURES}records/sft-duplicates.ndjson`, "--out", join(root, "out"), "--seats", "all");
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/records in 9, out 6/);
    expect(r.stderr).not.toMatch(/zod was loaded/);
  });

  it("(the watch sees zod when a command loads it: schema builds the JSON Schema from it)", () => {
    const r = cli("schema", "--format", "sft");
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(/zod was loaded/);
  });
});
