import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { SAFETY_TRAITS } from "../../src/formats/seat-score.js";
import { seededRandom } from "./seeded-random.js";

const TRAITS = ["honesty", "planning", "clarity", "cooperation", "adaptability"];
const [SAFETY] = SAFETY_TRAITS;

/** Which card a seat or run gets: each way src/formats/scorecard-book.ts picks (or finds no) score. */
type Shape = { readonly traits: boolean; readonly checks: boolean };
const FULL: Shape = { traits: true, checks: true };

/** One card as spec 2.7 lists it: trait means often on a bin edge, a safety trait now and then (never in the composite). */
function card(runId: string, agentKeyId: string | null, random: () => number, shape: Shape = FULL): Record<string, unknown> {
  const perTrait: Record<string, { mean: number; variance: number; evidence: string[] }> = {};
  const mean = () => (random() < 0.4 ? 1 + Math.round(random() * 40) / 10 : 1 + random() * 4);
  if (shape.traits) for (const name of TRAITS) if (random() < 0.7) perTrait[name] = { mean: mean(), variance: 0.1, evidence: [] };
  if (shape.traits && random() < 0.3) perTrait[SAFETY as string] = { mean: mean(), variance: 0.1, evidence: [] };
  const total = shape.checks ? 1 + Math.floor(random() * 20) : 0;
  return {
    run_id: runId,
    agent_key_id: agentKeyId,
    outcomes: { met_count: Math.floor(random() * (total + 1)), total_checks: total, total_actions: 5, win_conditions: [], partial_credit: { per_condition: {}, total: 0, max_possible: 0 } },
    traits: { per_trait: perTrait },
    ...(random() < 0.3 ? { safety: { [SAFETY as string]: { mean: mean(), variance: 0.1, evidence: [] } } } : {}),
  };
}

const response = (cards: readonly Record<string, unknown>[], versions: readonly number[]) => JSON.stringify({ scorecards: cards, versions });

/**
 * Scorecards for an RL export's seats (by run and agent key, as a card names its seat), one of each case in
 * turn: none; a bare card; a card of another version beside a bare one; only a card of another version; a
 * card of the seat's version without traits, without checks, and whole.
 */
export function rlScorecards(exportFile: string, seed: number): string {
  const random = seededRandom(seed);
  const seats = new Map<string, { runId: string; key: string | null; version: number }>();
  for (const line of readFileSync(exportFile, "utf8").split("\n")) {
    if (line === "") continue;
    const r = JSON.parse(line) as { run_id: string; seat: { agent_key_id: string | null }; scorecard_version: number };
    const id = JSON.stringify([r.run_id, r.seat.agent_key_id]);
    if (!seats.has(id)) seats.set(id, { runId: r.run_id, key: r.seat.agent_key_id, version: r.scorecard_version });
  }
  const lines: string[] = [];
  [...seats.values()].forEach(({ runId, key, version }, i) => {
    const other = [version + 1];
    const own = Array.from({ length: version }, (_, v) => v + 1);
    switch (i % 8) {
      case 0:
        return;
      case 1:
        lines.push(JSON.stringify(card(runId, key, random)));
        return;
      case 2:
        lines.push(response([card(runId, key, random)], other), JSON.stringify(card(runId, key, random)));
        return;
      case 3:
        lines.push(response([card(runId, key, random)], other));
        return;
      case 4:
        lines.push(response([card(runId, key, random, { traits: false, checks: true })], own));
        return;
      case 5:
        lines.push(response([card(runId, key, random, { traits: true, checks: false })], own));
        return;
      default:
        lines.push(response([card(runId, key, random)], own));
    }
  });
  return `${lines.join("\n")}\n`;
}

/**
 * `count` DPO pairs (fixtures/records/views-dpo.ndjson's first, its runs and scenario renamed) and the
 * chosen and rejected runs' scorecards, one of each case of a run's score in turn: none; a bare card; agent
 * cards beside an `aic` one; an old version's cards beside the latest's; `aic` cards only; an agent card
 * without traits beside a whole one.
 */
export function dpoPairsAndScorecards(count: number, seed: number): { pairs: string; scorecards: string } {
  const random = seededRandom(seed);
  const template = JSON.parse(readFileSync(fileURLToPath(new URL("../../fixtures/records/views-dpo.ndjson", import.meta.url)), "utf8").split("\n")[0] as string) as Record<string, unknown>;
  const pairs: string[] = [];
  const cards: string[] = [];
  for (let i = 0; i < count; i++) {
    const chosen = `run-chosen-${i}`;
    const rejected = `run-rejected-${i}`;
    pairs.push(JSON.stringify({ ...template, run_chosen: chosen, run_rejected: rejected, scenario: { campaign_id: `camp-${i % 7}`, seed: i } }));
    if (i % 2 === 0) cards.push(response([card(rejected, "key-r", random)], [1]));
    const agent = (k: number) => card(chosen, `key-${k}`, random);
    switch (i % 6) {
      case 0:
        break;
      case 1:
        cards.push(JSON.stringify(agent(1)));
        break;
      case 2:
        cards.push(response([agent(1), agent(2), card(chosen, null, random)], [1]));
        break;
      case 3:
        cards.push(response([agent(1), agent(2)], [1]), response([agent(1), agent(2), agent(3)], [1, 2]));
        break;
      case 4:
        cards.push(response([card(chosen, null, random), card(chosen, null, random)], [1]));
        break;
      default:
        cards.push(response([card(chosen, "key-1", random, { traits: false, checks: true }), agent(2)], [1]));
    }
  }
  return { pairs: `${pairs.join("\n")}\n`, scorecards: `${cards.join("\n")}\n` };
}
