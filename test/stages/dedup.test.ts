import { describe, expect, it } from "vitest";
import type { Flow } from "../../src/core/flow.js";
import { dedup } from "../../src/stages/dedup.js";
import { DedupIndex } from "../../src/stages/dedup-index.js";
import { validate } from "../../src/stages/validate.js";
import type { ValidRecord } from "../../src/formats/valid-record.js";
import { collect, fixtureLines, from, outcomes } from "../helpers/flow.js";
import type { TextLine } from "../../src/sources/line-source.js";

async function dedupLines(lines: TextLine[]) {
  const index = await DedupIndex.build(validate()(from(lines)));
  const out = await collect(dedup(index)(validate()(from(lines))));
  return out as Flow<ValidRecord>[];
}

const version = (f: Flow<ValidRecord>) => (f.kind === "kept" ? f.value.record.scorecard_version : null);

describe("dedup", () => {
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
