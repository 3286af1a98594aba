import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FIXTURES } from "../../../helpers/flow.js";
import { tempDir } from "../../../helpers/temp-dir.js";
import { withoutLogLines } from "../../../helpers/log-lines.js";

// The parallel engine copies every message instead of transferring ArrayBuffers (see src/parallel/protocol.ts):
// one detached buffer deoptimises every typed-array function of its thread. V8 says when that happens.
const BIN = new URL("../../../../dist/cli/main.js", import.meta.url).pathname;
const root = tempDir();

describe("parallel engine: no ArrayBuffer is ever detached", () => {
  it("neither main nor a worker invalidates V8's ArrayBufferDetaching protector", () => {
    const records = readFileSync(`${FIXTURES}records/sft-valid.ndjson`, "utf8");
    // Several units (a unit closes at 7 MiB of input) on two workers, and one line longer than a slot.
    const input = join(root, "in.ndjson");
    writeFileSync(input, `${records.repeat(Math.ceil((12 << 20) / records.length))}${"x".repeat(9 << 20)}\n${records.repeat(Math.ceil((12 << 20) / records.length))}`);
    const out = join(root, "out");
    const r = spawnSync(process.execPath, ["--trace-protector-invalidation", BIN, "convert", input, "--out", out, "--engine", "parallel", "--workers", "2", "--no-filter-participation-gated"], { encoding: "utf8" });
    expect(withoutLogLines(r.stderr)).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/quarantined: .*1/);
    expect(r.stdout).not.toMatch(/Invalidating protector cell ArrayBufferDetaching/);
  });
});
