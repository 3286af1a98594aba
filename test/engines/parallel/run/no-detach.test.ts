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
  // Both executors: worker threads, and main's own thread (--workers 0).
  it.each(["2", "0"])("neither main nor a worker invalidates V8's ArrayBufferDetaching protector (--workers %s)", (workers) => {
    const records = readFileSync(`${FIXTURES}records/sft-valid.ndjson`, "utf8");
    // Several units (a unit closes at 7 MiB of input) on two workers, and one line longer than a slot.
    const input = join(root, "in.ndjson");
    writeFileSync(input, `${records.repeat(Math.ceil((12 << 20) / records.length))}${"x".repeat(9 << 20)}\n${records.repeat(Math.ceil((12 << 20) / records.length))}`);
    const out = join(root, `out-${workers}`);
    const r = spawnSync(process.execPath, ["--trace-protector-invalidation", BIN, "convert", input, "--out", out, "--workers", workers, "--no-filter-participation-gated"], { encoding: "utf8" });
    expect(withoutLogLines(r.stderr)).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/quarantined: .*1/);
    expect(r.stdout).not.toMatch(/Invalidating protector cell ArrayBufferDetaching/);
  });
});
