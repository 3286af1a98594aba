import { GateBook } from "../../../formats/gate-book.js";
import { ScoreBook } from "../../../formats/scorecard-book.js";
import { SuiteBook } from "../../../formats/suite-book.js";
import type { SelectionPlan } from "../../../plan/run-plan.js";
import { filterRule } from "../../../stages/filter.js";
import { scoreOf, selectRule } from "../../../stages/select.js";
import { OWN_SCORE_READS, RECORD_READS } from "../fast/record-reads.js";
import type { WorkerConfig } from "./protocol.js";

/**
 * The record rules a unit's thread runs, built from its config (the converter's and the ranking read's): the
 * filter, the selection and the score it reads; `suites` counts nothing (main counts the records that win dedup).
 */
export function workerRules(config: WorkerConfig, selection: SelectionPlan = config.selection) {
  const scores = config.scores === null ? undefined : ScoreBook.of(config.scores);
  const suites = config.suites === null ? null : SuiteBook.of(config.suites, false);
  return {
    suites,
    filter: filterRule({ rules: config.filters, gateBy: config.gateBy, ...(config.gates === null ? {} : { gates: new GateBook(config.gates) }), ...(suites === null ? {} : { suites }) }),
    select: selectRule(selection, { format: config.format, scores, ...(config.topKeys === null ? {} : { topKeys: new Set(config.topKeys) }) }),
    score: scoreOf(config.format, scores),
  };
}

/**
 * The paths the walk builds into each skeleton for the rules (`ownScores`: an SFT record's own scores too, the
 * costliest part to build); decontamination reads an SFT record's own scenario hash (RL and DPO records carry none).
 */
export function ruleReads(config: WorkerConfig, ownScores: boolean): string[] {
  const reads = ownScores ? [...RECORD_READS[config.format], ...OWN_SCORE_READS[config.format]] : [...RECORD_READS[config.format]];
  return config.suites === null || config.format !== "sft" ? reads : [...reads, "manifest.scenario_version_hash"];
}
