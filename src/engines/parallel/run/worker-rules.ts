import { GateBook } from "../../../formats/gate-book.js";
import { ScoreBook } from "../../../formats/scorecard-book.js";
import { SuiteBook } from "../../../formats/suite-book.js";
import type { SelectionPlan } from "../../../plan/run-plan.js";
import { filterRule } from "../../../stages/filter.js";
import { scoreOf, selectRule } from "../../../stages/select.js";
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

