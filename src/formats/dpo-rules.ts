import type { PairDropReason } from "../core/reasons.js";
import type { SemanticFault } from "./format.js";

/** The part of a DPO pair its rules read. */
export interface PairShape {
  readonly chosen: { readonly content: string | null };
  readonly rejected: { readonly content: string | null };
  readonly alignment: string;
}

/** The part of a DPO 1.0 record its rules read (as paths in `RECORD_RULES`, record-rules.ts). */
export interface DpoShape {
  readonly run_chosen: string;
  readonly run_rejected: string;
  readonly scoring_basis: { readonly composite_delta: number; readonly objective_delta: number };
  readonly pairs: readonly PairShape[];
}

/** The alignments whose join rule is known (spec 4.10: "seen as `step_index`"). */
export const KNOWN_ALIGNMENTS: readonly string[] = ["step_index"];

/**
 * Why one pair teaches no preference, or null when it may: the one definition convert, pull and the DPO
 * views share (the views then ask more of a pair: a prompt, text left after sanitizing). `null_content`:
 * a side took no action with text; `chosen_equals_rejected`: the two sides say the same, whatever their
 * `action_type` (a row carries only the text).
 */
export function pairDropReason(pair: PairShape): PairDropReason | null {
  if (!KNOWN_ALIGNMENTS.includes(pair.alignment)) return "unknown_alignment";
  if (pair.chosen.content === null || pair.rejected.content === null) return "null_content";
  if (pair.chosen.content === pair.rejected.content) return "chosen_equals_rejected";
  return null;
}

/**
 * DPO 1.0 (spec 4.10, 7): a record the service cannot send. Both runs differ; a tie (both deltas 0) is
 * answered with 409, never a record; `chosen` must not be worse on every basis (both deltas at most 0, one
 * below: inverted), while deltas of opposite signs are kept (the spec does not say which basis decides).
 * Single pairs that teach nothing are dropped from a kept record ({@link pairDropReason}); a record left with
 * none is the `no_pairs` filter's (the bundled emulator sends `pairs: []` where no steps align).
 */
export function checkDpoRecord(r: DpoShape): SemanticFault | null {
  if (r.run_chosen === r.run_rejected) return { reason: "invalid_pair", detail: `run_chosen and run_rejected are the same run ${JSON.stringify(r.run_chosen)}` };
  const { composite_delta: composite, objective_delta: objective } = r.scoring_basis;
  if (composite === 0 && objective === 0) return { reason: "dpo_tie", detail: "scoring_basis.composite_delta and objective_delta are both 0: a tie, which the service answers with 409" };
  if (composite <= 0 && objective <= 0) {
    return { reason: "dpo_inverted", detail: `scoring_basis.composite_delta ${composite} and objective_delta ${objective}: run_chosen is not better than run_rejected on either` };
  }
  return null;
}

/** Removes the pairs that teach nothing from a valid record, in place; returns how many went, by {@link pairDropReason} (null: none). */
export function prunePairs(r: { pairs: PairShape[] }): Partial<Record<PairDropReason, number>> | null {
  let counts: Partial<Record<PairDropReason, number>> | null = null;
  for (const pair of r.pairs) {
    const reason = pairDropReason(pair);
    if (reason === null) continue;
    counts ??= {};
    counts[reason] = (counts[reason] ?? 0) + 1;
  }
  if (counts !== null) r.pairs = r.pairs.filter((pair) => pairDropReason(pair) === null);
  return counts;
}
