import { describe, expect, it } from "vitest";
import { DatasetStats } from "../../src/stats/dataset-stats.js";
import type { StatsRow } from "../../src/stats/stats-row.js";
import { seededRandom } from "../helpers/seeded-random.js";

// The accumulator's promise: partials (a parallel unit's, a partitioned night's part) merged in any grouping
// and order give exactly the figures of one pass over every row, the means too.
function rowsOf(seed: number, n: number): [StatsRow, number, number][] {
  const random = seededRandom(seed);
  const pick = (k: number) => Math.floor(random() * k);
  return Array.from({ length: n }, () => {
    const scored = random() < 0.9;
    const row: StatsRow = {
      scenario: `scen-${pick(60)}`,
      split: ["train", "test"][pick(2)] as string,
      score: scored ? { composite: random() < 0.95 ? Math.round(random() * 5000) / 1000 : null, objectiveRate: pick(41) / 40 } : null,
      traits: scored ? Object.fromEntries(["honesty", "clarity"].map((t) => [t, { mean: Math.round(random() * 10000) / 1000 }])) : null,
    };
    return [row, 1 + pick(3), pick(3000)];
  });
}

describe("DatasetStats", () => {
  it("partials merged in any grouping and order equal one pass over every row", () => {
    const rows = rowsOf(36, 2000);
    const whole = new DatasetStats();
    for (const [row, n, tokens] of rows) {
      whole.add(row, n);
      whole.addTokens(tokens, n);
    }
    for (const parts of [2, 7, 31]) {
      const partials = Array.from({ length: parts }, () => new DatasetStats());
      rows.forEach(([row, n, tokens], i) => {
        partials[(i * 7919) % parts]?.add(row, n);
        partials[(i * 7919) % parts]?.addTokens(tokens, n);
      });
      const merged = new DatasetStats();
      // Through JSON, as a worker's message or a part's file carries them; in reverse, another order.
      for (const p of partials.reverse()) merged.merge(JSON.parse(JSON.stringify(p.toPartial())));
      expect(merged.toManifest()).toEqual(whole.toManifest());
    }
    const m = whole.toManifest();
    expect(m.rows).toBe(rows.reduce((s, [, n]) => s + n, 0));
    expect(m.scenarios.top).toHaveLength(20);
    expect(m.scenarios.tail.scenarios).toBe(m.scenarios.count - 20);
  });

  it("bins a value on a bin's edge into the bin it starts, however the value was summed", () => {
    const stats = new DatasetStats();
    // 0.1 + 0.2 is 0.30000000000000004 and 2.9999999999999996 is 3 in any reading of a score.
    stats.add({ scenario: "s", split: "train", score: { composite: 0.1 + 0.2, objectiveRate: 0.7 * 0.5 }, traits: { t: { mean: 2.9999999999999996 } } });
    const m = stats.toManifest();
    expect(m.composite.bins).toEqual([[0.3, 1]]);
    expect(m.objective_rate.bins).toEqual([[0.35, 1]]);
    expect(m.traits.t?.bins).toEqual([[3, 1]]);
  });
});
