import { describe, expect, it } from "vitest";
import { createProgress } from "../../src/cli/progress.js";
import { convertProgress } from "../../src/cli/convert-progress.js";

function stream(isTTY: boolean) {
  const chunks: string[] = [];
  return { chunks, s: { isTTY, write: (c: string) => chunks.push(c) > 0 } as unknown as NodeJS.WriteStream };
}

describe("nightly progress", () => {
  it("off a terminal: one JSON line per phase, no per-run noise", () => {
    const { chunks, s } = stream(false);
    const p = createProgress("nightly-sft", s);
    p.pullEvent({ type: "listed", runs: 10, inPartition: 10, scored: 8 });
    p.pullEvent({ type: "run_fetched", runId: "r1", records: 2 });
    p.phase({ phase: "converted", records_in: 16, records_out: 12 });
    const lines = chunks.join("").trim().split("\n").map((l) => JSON.parse(l));
    expect(lines.map((l) => l.phase)).toEqual(["listed", "converted"]);
    expect(lines[0]).toMatchObject({ pipeline: "nightly-sft", runs: 10, scored: 8 });
    expect(Date.parse(lines[1].ts)).not.toBeNaN();
  });

  it("on a terminal: a redrawn bar with runs fetched, records/s and an ETA", () => {
    const { chunks, s } = stream(true);
    const p = createProgress("nightly-rl", s);
    p.pullEvent({ type: "listed", runs: 10, inPartition: 10, scored: 4 });
    p.phase({ phase: "fetched", keys: 0, format: "rl" });
    p.pullEvent({ type: "run_fetched", runId: "r1", records: 3 });
    p.phase({ phase: "converted", records_in: 3, records_out: 3 });
    const last = chunks.at(-1) ?? "";
    expect(last.startsWith("\r\x1b[2K")).toBe(true);
    expect(last).toMatch(/nightly-rl \[#+-+\] 1\/4 runs {2}3 records {2}\d+ rec\/s ETA \d+s {2}converted/);
    p.end();
    expect(chunks.at(-1)).toBe("\r\x1b[2K");
  });
});

describe("convert progress", () => {
  it("off a terminal: one JSON line per phase with its counts", () => {
    const { chunks, s } = stream(false);
    const p = convertProgress(s);
    p.onPhase({ phase: "opened", inputs: 2 });
    p.onPhase({ phase: "converted", engine: "parallel", records_in: 9, records_out: 6, quarantined: 1, stream_errors: 0 });
    p.onPhase({ phase: "published", published: true, shards: 1, records_out: 6, written_to: "ds" });
    const lines = chunks.join("").trim().split("\n").map((l) => JSON.parse(l));
    expect(lines.map((l) => l.phase)).toEqual(["opened", "converted", "published"]);
    expect(lines[1]).toMatchObject({ command: "convert", engine: "parallel", records_in: 9, records_out: 6, quarantined: 1 });
    expect(Date.parse(lines[2].ts)).not.toBeNaN();
  });

  it("on a terminal: a redrawn status line naming the phase under way, cleared before the summary", () => {
    const { chunks, s } = stream(true);
    const p = convertProgress(s);
    expect(chunks.at(-1)).toBe("\r\x1b[2Kconvert  opening inputs");
    p.onPhase({ phase: "opened", inputs: 3 });
    expect(chunks.at(-1)).toMatch(/^\r\x1b\[2Kconvert {2}\d+\.\ds {2}converting 3 input\(s\)$/);
    p.onPhase({ phase: "converted", engine: "parallel", records_in: 9, records_out: 6, quarantined: 0, stream_errors: 0 });
    expect(chunks.at(-1)).toMatch(/9 records in, 6 out \(parallel engine\); publishing$/);
    p.onPhase({ phase: "published", published: true, shards: 1, records_out: 6, written_to: "ds" });
    expect(chunks.at(-1)).toBe("\r\x1b[2K");
    expect(chunks.join("")).not.toContain("\n"); // nothing but the one redrawn line
  });
});
