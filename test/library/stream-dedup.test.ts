import { describe, expect, it } from "vitest";
import type { Flow } from "../../src/core/flow.js";
import type { ValidRecord } from "../../src/formats/valid-record.js";
import { planPipeline, runPipeline } from "../../src/library/stream-pipeline.js";
import type { LineSource, TextLine } from "../../src/sources/line-source.js";
import { collect, fixtureLines, outcomes } from "../helpers/flow.js";

/** A caller's lines, in the order given: the stream spools them for the units. */
function linesSource(lines: readonly TextLine[]): LineSource {
  return {
    name: "lines",
    async *lines() {
      yield* lines;
    },
    info: () => Promise.resolve({ path: "lines", bytes: lines.reduce((n, l) => n + l.bytes + 1, 0), sha256: "" }),
  };
}

/** Dedup's decisions, through the library's stream (every seat kept, so that only dedup drops). */
async function dedupLines(lines: readonly TextLine[]): Promise<Flow<ValidRecord>[]> {
  const sources = [linesSource(lines)];
  const plan = await planPipeline(sources);
  return (await collect(runPipeline(sources, plan, { selection: { seats: "all" } }))) as Flow<ValidRecord>[];
}

const version = (f: Flow<ValidRecord>) => (f.kind === "kept" ? f.value.record["scorecard_version"] : null);

describe("dedup, through the library's stream", () => {
  it("drops a second identical copy as duplicate and a lower scorecard version as superseded", async () => {
    const out = await dedupLines(fixtureLines("records/sft-duplicates.ndjson"));
    expect(outcomes(out)).toEqual(["kept:run-050", "dropped:duplicate", "dropped:superseded", "kept:run-051", "dropped:superseded", "kept:run-050"]);
    expect(version(out[3]!)).toBe(3);
  });

  it("keeps the highest scorecard version whatever order the copies arrive in", async () => {
    const lines = fixtureLines("records/sft-duplicates.ndjson").filter((l) => l.text.includes("run-051"));
    for (const order of [[0, 1, 2], [2, 1, 0], [1, 0, 2], [1, 2, 0]]) {
      const out = await dedupLines(order.map((i) => lines[i]!));
      expect(out.filter((f) => f.kind === "kept").map(version)).toEqual([3]);
      expect(out.filter((f) => f.kind === "dropped").every((f) => f.kind === "dropped" && f.reason === "superseded")).toBe(true);
    }
  });

  it("treats another seat of the same run as another key", async () => {
    const out = await dedupLines(fixtureLines("records/sft-duplicates.ndjson"));
    expect(out[5]?.kind).toBe("kept");
  });

  it("passes quarantined lines through untouched", async () => {
    const out = await dedupLines(fixtureLines("records/sft-bad-lines.ndjson"));
    expect(out.filter((f) => f.kind === "quarantined")).toHaveLength(9);
  });
});
