import { describe, expect, it } from "vitest";
import { reconciles } from "../../src/output/manifest.js";
import { Tally } from "../../src/core/tally.js";

const p = { source: "s", line: 1, offset: 0 };

describe("Tally", () => {
  it("counts every outcome once, by reason, and reconciles by construction", () => {
    const tally = new Tally();
    tally.add({ kind: "kept", provenance: p, value: 1 });
    tally.add({ kind: "dropped", provenance: p, reason: "flagged" });
    tally.add({ kind: "dropped", provenance: p, reason: "flagged" });
    tally.add({ kind: "quarantined", provenance: p, reason: "schema", detail: "d", raw: "r", rawLength: 1 });
    tally.add({ kind: "stream_error", provenance: p, runIndex: 4 });
    const counts = tally.counts();
    expect(counts).toEqual({ records_in: 4, records_out: 1, dropped: { flagged: 2 }, quarantined: { schema: 1 }, stream_errors: 1 });
    expect(reconciles(counts)).toBe(true);
    expect(tally.quarantinedShare()).toBe(0.25);
  });

  it("reports a zero share for an empty input", () => {
    expect(new Tally().quarantinedShare()).toBe(0);
  });

  it("spots counts that do not reconcile", () => {
    expect(reconciles({ records_in: 3, records_out: 1, dropped: { flagged: 1 }, quarantined: {}, stream_errors: 0 })).toBe(false);
  });
});
