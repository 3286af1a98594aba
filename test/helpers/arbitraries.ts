import fc from "fast-check";

/**
 * Random valid export records of each format, with random undeclared keys sprinkled into their objects.
 * Valid by the semantic rules too (docs/rules.md): a scored record has a scorecard version from 1 (and, SFT,
 * scores); met_count <= total_checks; a DPO record prefers `chosen` and has pairs that teach something.
 */
const text = fc.string({ maxLength: 30 });
const id = fc.string({ minLength: 1, maxLength: 12 });
const int = fc.integer({ min: 0, max: 1_000_000 });
const num = fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 });
const json = fc.jsonValue({ maxDepth: 2 });
const extraKey = fc.string({ minLength: 1, maxLength: 8 }).map((s) => `x_${s}`);

/** Adds up to two undeclared keys to an object. */
const withExtras = <T extends object>(arb: fc.Arbitrary<T>): fc.Arbitrary<T> =>
  fc.tuple(arb, fc.dictionary(extraKey, json, { maxKeys: 2 })).map(([value, extra]) => ({ ...extra, ...value }));

const scenario = withExtras(
  fc.record({ campaign_id: id, seed: int, win_conditions: fc.array(withExtras(fc.record({ id, description: text })), { maxLength: 2 }) }, { requiredKeys: ["campaign_id", "seed"] }),
);
const seat = withExtras(fc.record({ seat_index: fc.integer({ min: 0, max: 3 }), role: text, agent_key_id: fc.option(id, { nil: null }) }));
const reconstruction = fc.constantFrom("per_seat_trace", "per_seat_trace", "attribution_unavailable", "no_session");

/** `scored` with what it implies: a scorecard version from 1 (and the scores `present` gives). */
const scoring = <T>(scores: fc.Arbitrary<T | null>, present: fc.Arbitrary<T>) =>
  fc.boolean().chain((scored) =>
    fc.record({ scored: fc.constant(scored), scorecard_version: fc.integer({ min: scored ? 1 : 0, max: 3 }), scores: scored ? present : scores }),
  );

const outcomes = fc.tuple(int, int, int).map(([a, b, total_actions]) => ({ met_count: Math.min(a, b), total_checks: Math.max(a, b), total_actions }));

const sftScores = withExtras(
  fc.record({
    per_trait: fc.dictionary(text, withExtras(fc.record({ mean: num, variance: num, evidence: fc.array(text, { maxLength: 2 }) })), { maxKeys: 3 }),
    win_conditions: fc.array(withExtras(fc.record({ id, description: text, met: fc.boolean() })), { maxLength: 3 }),
    outcomes: withExtras(outcomes),
  }),
);

export const sftArb = withExtras(
  fc.tuple(scoring(fc.option(sftScores, { nil: null }), sftScores), fc.record({
    format_version: fc.constant("1.1"),
    run_id: id,
    scenario: withExtras(fc.record({ campaign_id: id, seed: int })),
    seat,
    flagged: fc.boolean(),
    reconstruction,
    coaching: fc.option(withExtras(fc.record({ weak_traits: fc.array(text, { maxLength: 2 }), guidance: text })), { nil: null }),
    trace_steps: fc.array(json, { maxLength: 3 }),
  })).map(([{ scored, scorecard_version, scores }, rest]) => {
    // Key order as the service writes it: scored, flagged, scorecard_version, reconstruction, scores, …
    const { format_version, run_id, scenario, seat, flagged, reconstruction: r, ...tail } = rest;
    return { format_version, run_id, scenario, seat, scored, flagged, scorecard_version, reconstruction: r, scores, ...tail };
  }),
);

const tupleArb = (index: number, terminal: boolean) =>
  withExtras(
    fc.record({
      index: fc.constant(index),
      kind: fc.constant(terminal ? "action" : "blocked_or_idle"),
      state: withExtras(fc.record({ observation: fc.dictionary(text, json, { maxKeys: 2 }), transcript_window: fc.array(withExtras(fc.record({ role: text, content: text })), { maxLength: 2 }) })),
      action: terminal ? withExtras(fc.record({ action_type: text, content: fc.option(text, { nil: null }) })) : fc.constant(null),
      reward: withExtras(
        fc.record({
          checks_passed: int,
          checks_failed: int,
          conditions_met: fc.array(id, { maxLength: 2 }),
          scalar_reward: num,
          progress_delta: num,
          terminal_reward: terminal ? num : fc.constant(null),
        }),
      ),
    }),
  );

// Valid trajectories: indexes 0..n-1, the only action step is the last tuple and carries the terminal reward.
const tuples = fc
  .integer({ min: 0, max: 3 })
  .chain((n): fc.Arbitrary<unknown[]> => (n === 0 ? fc.constant([]) : fc.tuple(...Array.from({ length: n }, (_, i) => tupleArb(i, i === n - 1)))));

export const rlArb = withExtras(
  fc.record(
    {
      rl_format_version: fc.constant("1.0"),
      run_id: id,
      scenario,
      seat,
      scored: fc.boolean(),
      flagged: fc.boolean(),
      scorecard_version: fc.integer({ min: 1, max: 3 }),
      reconstruction,
      tuples,
      outcome: withExtras(fc.record({ dm_messages: fc.array(text, { maxLength: 2 }) })),
    },
    { requiredKeys: ["rl_format_version", "run_id", "scenario", "seat", "scored", "flagged", "scorecard_version", "reconstruction", "tuples"] },
  ),
);

// Sides that differ and hold text: a pair with a null side or two equal sides is dropped (docs/rules.md).
const step = (side: string) => withExtras(fc.record({ action_type: text, content: text.map((t) => `${side}${t}`) }));

export const dpoArb = withExtras(
  fc.record(
    {
      dpo_format_version: fc.constant("1.0"),
      run_chosen: id.map((s) => `c-${s}`),
      run_rejected: id.map((s) => `r-${s}`),
      scenario,
      // `chosen` is better on one basis at least (neither a tie nor inverted).
      scoring_basis: withExtras(fc.record({ composite_delta: fc.double({ noNaN: true, min: 1e-6, max: 1e6 }), objective_delta: num })),
      seat_index: fc.integer({ min: 0, max: 3 }),
      flagged: fc.boolean(),
      pairs: fc.array(withExtras(fc.record({ index: int, chosen: step("c:"), rejected: step("r:"), alignment: fc.constant("step_index") })), { minLength: 1, maxLength: 3 }),
      outcome: withExtras(fc.record({ dm_messages: fc.array(text, { maxLength: 2 }) })),
    },
    { requiredKeys: ["dpo_format_version", "run_chosen", "run_rejected", "scenario", "scoring_basis", "seat_index", "flagged", "pairs"] },
  ),
);
