import { countTotal } from "../core/tally.js";
import type { ViewManifest } from "./view-manifest.js";

/** What a view made of the kept records and what it left out, as the CLI prints it and `--json` gives it. */
export interface ViewLosses {
  readonly view: string;
  readonly trainer: string | null;
  readonly records_in: number;
  readonly rows_out: number;
  /** What the view counts its losses in: an RL view's steps, a DPO view's pairs, an episode view's episodes. */
  readonly unit: "steps" | "pairs" | "episodes";
  readonly left_out: Readonly<Record<string, number>>;
  readonly left_out_total: number;
  /** An episode view's steps that gave no turn inside the episodes it kept (none else). */
  readonly steps_without_turn?: Readonly<Record<string, number>>;
}

/** A manifest's `view` section, reduced to its losses (issue 36: shown where they happen, not only in the manifest). */
export function viewLosses(view: ViewManifest): ViewLosses {
  // An episode view's rows are episodes: its losses are the episodes it left out, not their steps.
  const unit = view.episodes_dropped !== undefined ? "episodes" : view.steps_dropped === undefined ? "pairs" : "steps";
  const leftOut: Readonly<Record<string, number>> = view.episodes_dropped ?? view.steps_dropped ?? view.pairs_dropped ?? {};
  const steps = view.episodes_dropped === undefined ? {} : { steps_without_turn: view.steps_dropped ?? {} };
  return { view: view.name, trainer: view.trainer, records_in: view.records_in, rows_out: view.rows_out, unit, left_out: leftOut as Record<string, number>, left_out_total: countTotal(leftOut), ...steps };
}

/** One line: `view trl-preference (DPOTrainer): 120 rows from 200 records; left out 74 pairs (no_pair 50, ...)`. */
export function viewLossesLine(l: ViewLosses): string {
  const trainer = l.trainer === null ? "" : ` (${l.trainer})`;
  const reasons = Object.entries(l.left_out).map(([reason, n]) => `${reason} ${n}`).join(", ");
  const made = l.rows_out + l.left_out_total;
  const share = made === 0 ? "" : `, ${((l.left_out_total / made) * 100).toFixed(1)}%`;
  const lost = l.left_out_total === 0 ? `none left out` : `left out ${l.left_out_total} ${l.unit}${share} (${reasons})`;
  const steps = Object.entries(l.steps_without_turn ?? {});
  const within = steps.length === 0 ? "" : `; steps without a turn ${countTotal(l.steps_without_turn ?? {})} (${steps.map(([reason, n]) => `${reason} ${n}`).join(", ")})`;
  return `view ${l.view}${trainer}: ${l.rows_out} rows from ${l.records_in} records; ${lost}${within}`;
}
