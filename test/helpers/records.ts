import type { DpoRecord } from "../../src/formats/dpo.js";
import type { RlRecord, RlTuple } from "../../src/formats/rl.js";
import type { SftRecord } from "../../src/formats/sft.js";

/** Overrides for a record; `undefined` removes an optional key. */
export type Overrides<T> = { [K in keyof T]?: T[K] | undefined };

function apply<T extends object>(base: T, overrides: Overrides<T>): T {
  const out: Record<string, unknown> = { ...(base as Record<string, unknown>) };
  for (const [key, value] of Object.entries(overrides)) {
    if (value === undefined) delete out[key];
    else out[key] = value;
  }
  return out as T;
}

/** A realistic SFT `format_version` 1.1 record, with every optional field present. */
export function sftRecord(overrides: Overrides<SftRecord> = {}): SftRecord {
  return apply<SftRecord>(
    {
      format_version: "1.1",
      run_id: "run_01J8ZQ4M7D3K",
      scenario: { campaign_id: "camp_frostfall_pass", seed: 2 ** 40 + 17 },
      seat: { seat_index: 1, role: "negotiator", agent_key_id: "ak_7f3e91" },
      scored: true,
      flagged: false,
      scorecard_version: 3,
      reconstruction: "per_seat_trace",
      scores: {
        per_trait: {
          persuasion: { mean: 0.72, variance: 0.0125, evidence: ["Secured the toll waiver at step 4", "Offered the salt in trade"] },
          honesty: { mean: 0.9, variance: 0, evidence: [] },
          "team play": { mean: -0.25, variance: 1.5e-7, evidence: ["Ignored the scout's warning"] },
        },
        win_conditions: [
          { id: "wc_bridge", description: "Cross the Fenwick bridge before nightfall", met: true },
          { id: "wc_no_blood", description: "Nobody draws a weapon", met: false },
        ],
        outcomes: { met_count: 1, total_checks: 4, total_actions: 12 },
      },
      coaching: { weak_traits: ["patience"], guidance: "Let the ferryman finish his story before you bargain." },
      trace_steps: [
        { step: 0, action: { type: "say", text: "Good evening, ferryman." }, observation: { location: "dock", hp: 10 } },
        { step: 1, action: { type: "give", item: "salt", qty: 2 }, observation: { location: "dock", hp: 10, inventory: ["rope"] } },
        { step: 2, action: null, observation: "blocked: waiting for the tide", flags: [true, false, null] },
      ],
      manifest: {
        judge: { prompt_hash: "sha256:9b1f0c2e", model: "judge-large-2025-06" },
        scenario_version_hash: "sha256:44aa01d7",
      },
      transcript: [
        { role: "dm", content: "The river is high tonight." },
        { role: "agent", content: "Then we wait for the tide." },
      ],
    },
    overrides,
  );
}

/** One RL step; the last action step of a trajectory may carry a terminal reward. */
export function rlTuple(index: number, overrides: Partial<RlTuple> = {}): RlTuple {
  return {
    index,
    kind: "action",
    state: {
      observation: { turn: index, visible: ["gate", "guard"], weather: { rain: index % 2 === 0 } },
      transcript_window: [
        { role: "dm", content: `Turn ${index}: the guard eyes you.` },
        { role: "agent", content: "I show the pass." },
      ],
    },
    action: { action_type: "say", content: "I show the pass." },
    reward: {
      checks_passed: 2,
      checks_failed: 1,
      conditions_met: index === 0 ? [] : ["wc_gate"],
      scalar_reward: 0.25,
      progress_delta: 0.1,
      terminal_reward: null,
    },
    ...overrides,
  };
}

/** A realistic RL `rl_format_version` 1.0 trajectory of three steps. */
export function rlRecord(overrides: Overrides<RlRecord> = {}): RlRecord {
  return apply<RlRecord>(
    {
      rl_format_version: "1.0",
      run_id: "run_01J8ZR0B2WQ5",
      scenario: {
        campaign_id: "camp_gatehouse",
        seed: 7,
        win_conditions: [{ id: "wc_gate", description: "Get through the north gate" }],
      },
      seat: { seat_index: 0, role: "smuggler", agent_key_id: null },
      scored: true,
      flagged: false,
      scorecard_version: 2,
      reconstruction: "per_seat_trace",
      tuples: [
        rlTuple(0),
        rlTuple(1, { kind: "blocked_or_idle", action: null }),
        rlTuple(2, { action: { action_type: "move", content: null } }),
      ].map((t, i, all) => (i === all.length - 1 ? { ...t, reward: { ...t.reward, terminal_reward: 1 } } : t)),
      outcome: { dm_messages: [{ turn: 2, text: "The gate creaks open." }] },
    },
    overrides,
  );
}

/** A realistic DPO `dpo_format_version` 1.0 preference pair. */
export function dpoRecord(overrides: Overrides<DpoRecord> = {}): DpoRecord {
  return apply<DpoRecord>(
    {
      dpo_format_version: "1.0",
      run_chosen: "run_01J8ZS1AA001",
      run_rejected: "run_01J8ZS1AA002",
      scenario: {
        campaign_id: "camp_market_day",
        seed: 3_000_000_000,
        win_conditions: [{ id: "wc_sell", description: "Sell the cart before noon" }],
      },
      scoring_basis: { composite_delta: 0.42, objective_delta: 1 },
      seat_index: 2,
      flagged: false,
      pairs: [
        {
          index: 0,
          chosen: { action_type: "say", content: "Fresh apples, two for a copper!" },
          rejected: { action_type: "say", content: "Buy or leave." },
          alignment: "same_state",
        },
        { index: 1, chosen: { action_type: "wait", content: null }, rejected: { action_type: "leave", content: null }, alignment: "diverged" },
      ],
      outcome: { dm_messages: "The crowd thins out." },
    },
    overrides,
  );
}
