import type { z } from "zod";
import type { Format } from "../../formats/format.js";
import type { RecordOf, StrippedRecordOf } from "../../formats/stripped.js";
import type { Flow } from "../../core/flow.js";
import { FORMAT_NAMES, VERSION_FIELDS } from "../../formats/format.js";
import type { Field } from "../../schema/column-type.js";
import type { LineSource } from "../../sources/line-source.js";
import { concatLines } from "../../sources/concat-lines.js";
import { noFormatError } from "../../sources/no-format-error.js";
import { dedup } from "../../stages/dedup.js";
import { DedupIndex } from "../../stages/dedup-index.js";
import { filter } from "../../stages/filter.js";
import { prune } from "../../stages/prune.js";
import { strip } from "../strip.js";
import { outputColumns, resolveUntrustedPolicy } from "../../stages/untrusted-policy.js";
import type { UntrustedPolicy } from "../../stages/untrusted-policy.js";
import { validate } from "../../stages/validate.js";
import type { ValidRecord } from "../../formats/valid-record.js";
import type { ScoreBook } from "../../formats/scorecard-book.js";
import type { SelectionPlan } from "../../stages/select-plan.js";
import { filterRule } from "../../stages/filter.js";
import { scoreOf, select, selectRule } from "../../stages/select.js";
import { SELECT_DEFAULTS } from "../../stages/select-plan.js";
import { TopKRanking } from "../../stages/select-top-k.js";
import type { PipelineOptions } from "../../plan/pipeline-options.js";

export type { PipelineOptions };

/** What the first read of the inputs settles before any record is written; `F` is the format named, if one was. */
export interface PipelinePlan<F extends Format<z.ZodType, string> = Format> {
  readonly format: F;
  /** The format was forced, not detected. */
  readonly forced: boolean;
  readonly index: DedupIndex;
  readonly policy: UntrustedPolicy;
  /** The dataset's columns once the policy's drops are applied. */
  readonly columns: readonly Field[];
  /** With `--top-k-per-scenario`: each key's winning copy, noted by the first read. */
  readonly ranking: TopKRanking | null;
}


/**
 * First read: settles the format and which copy of each key wins, so the second read can decide
 * `superseded` and `duplicate` whatever order copies arrive in, with memory bounded by the key count.
 */
export async function planPipeline<F extends Format<z.ZodType, string> = Format>(sources: readonly LineSource[], options: PipelineOptions<F> = {}): Promise<PipelinePlan<F>> {
  let format: Format | undefined = options.format;
  const forced = format !== undefined;
  const validated = validate({
    ...(format === undefined ? {} : { format, forced }),
    acceptLaterMinor: options.acceptLaterMinor ?? false,
    onFormat: (f) => (format = f),
  })(concatLines(sources, options.read));
  const ranking = (options.selection?.topKPerScenario ?? null) === null ? null : new TopKRanking();
  const index = await DedupIndex.build(ranking === null ? validated : noted(validated, ranking, options.scores));
  if (format === undefined) {
    throw await noFormatError(sources, FORMAT_NAMES.map((n) => VERSION_FIELDS[n]), FORMAT_NAMES, options.read);
  }
  const policy = resolveUntrustedPolicy(format, options.untrusted);
  // The format is the one named (`F`) or, when none was, the one detected (`F` is then the default `Format`).
  return { format: format as F, forced, index, policy, columns: outputColumns(format, policy), ranking };
}

/** Passes the first read on, noting each valid record in the top-k ranking. */
async function* noted(items: AsyncIterable<Flow<ValidRecord>>, ranking: TopKRanking, scores: ScoreBook | undefined): AsyncIterable<Flow<ValidRecord>> {
  for await (const item of items) {
    if (item.kind === "kept") {
      const { facts, record, format } = item.value;
      ranking.note(facts, () => scoreOf(format.name, scores)(facts, record));
    }
    yield item;
  }
}

/** Between the reads: the top k of each scenario among the seats every other rule keeps. */
function topKeysOf(plan: PipelinePlan, selection: SelectionPlan, filterOptions: Parameters<typeof filterRule>[0], scores: ScoreBook | undefined): { topKeys?: ReadonlySet<string> } {
  if (plan.ranking === null || selection.topKPerScenario === null) return {};
  // The ranking pass decides as the second read does, but only the second counts a suite's drops.
  const suites = filterOptions?.suites;
  const filtered = filterRule({ ...filterOptions, ...(suites === undefined ? {} : { suites: suites.uncounted() }) });
  const others = selectRule({ ...selection, topKPerScenario: null }, { format: plan.format.name, scores });
  return { topKeys: plan.ranking.topKeys(selection.topKPerScenario, (facts, score) => {
    const decision = filtered(facts);
    return decision === "keep" ? others(facts, score) : decision;
  }) };
}

/**
 * Second read: validate, dedup, filter, prune, strip. Every line comes out as exactly one flow item. Kept
 * records are typed by the plan's format: `StrippedSftRecord` for `{format: sft}`, or `SftRecord` whole
 * with `strip: false`.
 */
export function runPipeline<F extends Format<z.ZodType, string>>(
  sources: readonly LineSource[],
  plan: PipelinePlan<F>,
  options: PipelineOptions<F> & { readonly strip: false },
): AsyncIterable<Flow<ValidRecord<RecordOf<F>>>>;
export function runPipeline<F extends Format<z.ZodType, string>>(sources: readonly LineSource[], plan: PipelinePlan<F>, options?: PipelineOptions<F>): AsyncIterable<Flow<ValidRecord<StrippedRecordOf<F>>>>;
export function runPipeline(sources: readonly LineSource[], plan: PipelinePlan, options: PipelineOptions = {}): AsyncIterable<Flow<ValidRecord>> {
  const validated = validate({ format: plan.format, forced: plan.forced, acceptLaterMinor: options.acceptLaterMinor ?? false })(concatLines(sources, options.read));
  const filterOptions = {
    ...(options.filters === undefined ? {} : { rules: options.filters }),
    ...(options.gates === undefined ? {} : { gates: options.gates }),
    ...(options.gateBy === undefined ? {} : { gateBy: options.gateBy }),
    ...(options.suites === undefined ? {} : { suites: options.suites }),
  };
  const selection = { ...SELECT_DEFAULTS, ...options.selection };
  const context = { format: plan.format.name, scores: options.scores, ...topKeysOf(plan, selection, filterOptions, options.scores) };
  const kept = select(selection, context)(filter(filterOptions)(dedup(plan.index)(validated)));
  // A training view judges each pair itself (its own reasons, docs/views.md): the record reaches it whole.
  return options.strip === false ? kept : strip(plan.policy)(prune()(kept));
}
