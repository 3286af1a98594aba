import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { dpoArb, rlArb, sftArb } from "../helpers/arbitraries.js";
import { convertBothCli } from "../helpers/convert-both-cli.js";
import { dpoRecord, rlRecord, rlTuple, sftRecord } from "../helpers/records.js";

// Each semantic rule of docs/rules.md through the CLI, in both executors: the same lines quarantined for the
// same reason, the same pairs dropped, the same rows written.
// Every seat: the RL fixture's seat is an `aic` one, which the default `--seats agent` drops (issue 19).
const both = (lines: readonly (string | Buffer)[], args: readonly string[] = []) => convertBothCli(lines, ["--seats", "all", ...args]);
const line = (r: object) => JSON.stringify(r);

/** One valid line, then `bad`: the bad line is quarantined for `reason` in both executors, the valid one kept. */
async function expectQuarantined(valid: object, bad: object, reason: string, detail: RegExp): Promise<void> {
  const o = await both([line(valid), line(bad)]);
  expect(o.manifest.records_out).toBe(1);
  expect(o.manifest.quarantined).toEqual({ [reason]: 1 });
  expect(o.quarantine).toEqual([{ reason, detail: expect.stringMatching(detail), line: 2 }]);
}

const outcomes = sftRecord().scores?.outcomes as { met_count: number; total_checks: number; total_actions: number };
const withOutcomes = (o: Partial<typeof outcomes>) => sftRecord({ run_id: "bad", scores: { ...(sftRecord().scores as NonNullable<ReturnType<typeof sftRecord>["scores"]>), outcomes: { ...outcomes, ...o } } });
const goodPair = (index: number) => ({ index, chosen: { action_type: "say", content: `yes ${index}` }, rejected: { action_type: "say", content: `no ${index}` }, alignment: "step_index" });
const dpo = (overrides: Parameters<typeof dpoRecord>[0] = {}) => dpoRecord({ pairs: [goodPair(0)], ...overrides });

describe("SFT 1.1 (spec 4.8, 2.7, 9)", { timeout: 60_000 }, () => {
  it("scored_without_scores: scored true with scores null", () => expectQuarantined(sftRecord(), sftRecord({ run_id: "bad", scores: null }), "scored_without_scores", /scores is null/));
  it("scored_without_scorecard: scored true with scorecard_version 0", () => expectQuarantined(sftRecord(), sftRecord({ run_id: "bad", scorecard_version: 0 }), "scored_without_scorecard", /scorecard_version is 0/));
  it("an unscored record may have neither", async () => {
    const o = await both([line(sftRecord({ scored: false, scores: null, scorecard_version: 0 }))], ["--no-filter-unscored"]);
    expect(o.manifest.records_out).toBe(1);
  });
  it("count_out_of_range: met_count over total_checks", () => expectQuarantined(sftRecord(), withOutcomes({ met_count: 5, total_checks: 1 }), "count_out_of_range", /met_count 5 is over total_checks 1/));
  it("count_out_of_range: a negative total_actions", () => expectQuarantined(sftRecord(), withOutcomes({ total_actions: -3 }), "count_out_of_range", /total_actions is -3/));
});

describe("RL 1.0 (spec 4.9)", { timeout: 60_000 }, () => {
  it('action_step_without_action: a step of kind "action" with action null', () =>
    expectQuarantined(rlRecord(), rlRecord({ run_id: "bad", tuples: [rlTuple(0, { action: null, reward: { ...rlTuple(0).reward, terminal_reward: 1 } })] }), "action_step_without_action", /tuples\[0\] is of kind "action"/));
  it("a blocked_or_idle step may have no action", async () => {
    expect((await both([line(rlRecord())])).manifest.records_out).toBe(1);
  });
  it("count_out_of_range: negative checks_failed", () =>
    expectQuarantined(rlRecord(), rlRecord({ run_id: "bad", tuples: [rlTuple(0, { reward: { ...rlTuple(0).reward, checks_failed: -1, terminal_reward: 1 } })] }), "count_out_of_range", /checks_failed is -1/));
  it("scored_without_scorecard", () => expectQuarantined(rlRecord(), rlRecord({ run_id: "bad", scorecard_version: 0 }), "scored_without_scorecard", /scorecard_version is 0/));
});

describe("DPO 1.0 (spec 4.10, 7: a tie is 409)", { timeout: 60_000 }, () => {
  it("dpo_tie: composite_delta 0 and objective_delta 0", () => expectQuarantined(dpo(), dpo({ run_rejected: "bad", scoring_basis: { composite_delta: 0, objective_delta: 0 } }), "dpo_tie", /409/));
  it("dpo_inverted: run_chosen worse on every basis", () => expectQuarantined(dpo(), dpo({ run_rejected: "bad", scoring_basis: { composite_delta: -0.2, objective_delta: 0 } }), "dpo_inverted", /not better/));
  it("deltas of opposite signs are kept (the spec does not say which basis decides)", async () => {
    expect((await both([line(dpo({ scoring_basis: { composite_delta: -0.2, objective_delta: 1 } }))])).manifest.records_out).toBe(1);
  });
  it("no_pairs (a filter): pairs [], or no pair that teaches anything, is dropped; --no-filter-no-pairs keeps it", async () => {
    const lines = [line(dpo()), line(dpo({ run_rejected: "empty", pairs: [] })), line(dpo({ run_rejected: "useless", pairs: [{ ...goodPair(0), alignment: "turn_index" }] }))];
    const o = await both(lines);
    expect(o.manifest).toMatchObject({ records_out: 1, dropped: { no_pairs: 2 }, quarantined: {} });
    expect(o.manifest.dropped_pairs).toBeUndefined();
    const kept = await both(lines, ["--no-filter-no-pairs"]);
    expect(kept.manifest).toMatchObject({ records_out: 3, dropped: {}, dropped_pairs: { unknown_alignment: 1 } });
    expect(kept.rows.map((r) => (r.pairs as unknown[]).length)).toEqual([1, 0, 0]);
  });

  it("drops single pairs with a null side, equal sides or an unknown alignment from kept records, counted in dropped_pairs", async () => {
    const pairs = [
      goodPair(0),
      { ...goodPair(1), rejected: { action_type: "say", content: null } },
      { ...goodPair(2), rejected: { action_type: "act", content: "yes 2" } },
      { ...goodPair(3), alignment: "turn_index" },
      goodPair(4),
    ];
    const o = await both([line(dpo({ pairs })), line(dpo({ run_chosen: "other", pairs: [goodPair(0), { ...goodPair(1), chosen: { action_type: "wait", content: null } }] }))]);
    expect(o.manifest.records_out).toBe(2);
    expect(o.manifest.dropped_pairs).toEqual({ chosen_equals_rejected: 1, null_content: 2, unknown_alignment: 1 });
    expect(o.rows.map((r) => (r.pairs as { index: bigint }[]).map((p) => Number(p.index)))).toEqual([[0, 4], [0]]);
  });

  it("counts pairs only for records written: a duplicate's pairs are not counted twice", async () => {
    const record = line(dpo({ pairs: [goodPair(0), { ...goodPair(1), alignment: "x" }] }));
    const o = await both([record, record]);
    expect(o.manifest.dropped).toEqual({ duplicate: 1 });
    expect(o.manifest.dropped_pairs).toEqual({ unknown_alignment: 1 });
  });
});

describe("records faulted at random are quarantined alike by both executors (property)", { timeout: 240_000 }, () => {
  it("SFT, RL and DPO", async () => {
    const breakers: [fc.Arbitrary<unknown>, (r: Record<string, unknown>, k: number) => void][] = [
      [
        sftArb,
        (r, k) => {
          const scores = r.scores as { outcomes: { met_count: number; total_checks: number; total_actions: number } } | null;
          if (k === 0) r.scores = null;
          if (k === 1) r.scorecard_version = 0;
          if (k === 2 && scores !== null) scores.outcomes.met_count = scores.outcomes.total_checks + 1;
          if (k === 3 && scores !== null) scores.outcomes.total_actions = -1;
        },
      ],
      [
        rlArb,
        (r, k) => {
          const tuples = r.tuples as { kind: string; action: unknown; reward: Record<string, unknown> }[];
          const last = tuples.at(-1);
          if (k === 0 && last !== undefined) last.action = null;
          if (k === 1) r.scorecard_version = 0;
          if (k === 2 && last !== undefined) last.reward.checks_passed = -2;
        },
      ],
      [
        dpoArb,
        (r, k) => {
          const pairs = r.pairs as { chosen: { content: string | null }; rejected: { content: string | null }; alignment: string }[];
          if (k === 0) r.scoring_basis = { composite_delta: 0, objective_delta: 0 };
          if (k === 1) r.scoring_basis = { composite_delta: -1, objective_delta: -1 };
          if (k === 2) r.pairs = [];
          if (k === 3 && pairs[0] !== undefined) pairs[0].rejected.content = null;
          if (k === 4 && pairs[0] !== undefined) pairs[0].rejected.content = pairs[0].chosen.content;
          if (k === 5 && pairs[0] !== undefined) pairs[0].alignment = "other";
        },
      ],
    ];
    for (const [arb, breakRule] of breakers) {
      const records = fc.sample(fc.tuple(arb, fc.integer({ min: 0, max: 7 })), { numRuns: 150, seed: 20 });
      const lines = records.map(([r, k], i) => {
        const record = structuredClone(r) as Record<string, unknown>;
        breakRule(record, k);
        // Distinct keys: every line is judged by the rules alone, not by dedup.
        if ("run_id" in record) record.run_id = `run-${i}`;
        else record.run_rejected = `run-${i}`;
        return line(record);
      });
      const o = await both(lines, ["--no-filter-unscored", "--no-filter-flagged", "--no-filter-no-trace"]);
      expect(Object.keys(o.manifest.quarantined).length).toBeGreaterThan(0);
    }
  });
});
