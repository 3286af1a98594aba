import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { z } from "zod";
import type { Format, FormatName } from "../formats/format.js";
import { formatByName } from "../formats/index.js";
import type { RecordOf, StrippedRecordOf } from "../formats/stripped.js";
import type { Flow } from "../core/flow.js";
import { parseExact } from "../core/exact-json.js";
import type { Field } from "../schema/column-type.js";
import type { LineSource, SourceLine } from "../sources/line-source.js";
import { concatLines } from "../sources/concat-lines.js";
import { withSpooledBytes } from "../sources/spooled-lines.js";
import { outputColumns, resolveUntrustedPolicy } from "../stages/untrusted-policy.js";
import type { UntrustedPolicy } from "../stages/untrusted-policy.js";
import type { ValidRecord } from "../formats/valid-record.js";
import { SELECT_DEFAULTS } from "../stages/select-plan.js";
import type { PipelineOptions } from "../plan/pipeline-options.js";
import { nightlyPlan } from "../plan/resolve-plan.js";
import type { RunPlan } from "../plan/run-plan.js";

export type { PipelineOptions };
import { detectInputFormat, streamUnits } from "../engines/parallel/index.js";

/** The run's format and what it settles: the untrusted policy and the dataset's columns. `F` is the format named, if one was. */
export interface PipelinePlan<F extends Format<z.ZodType, string> = Format> {
  readonly format: F;
  /** The format was forced, not detected. */
  readonly forced: boolean;
  readonly policy: UntrustedPolicy;
  /** The dataset's columns once the policy's drops are applied. */
  readonly columns: readonly Field[];
}

/** Settles the format (the one named, or the first record's: reads only as far as it) and the untrusted policy. */
export async function planPipeline<F extends Format<z.ZodType, string> = Format>(sources: readonly LineSource[], options: PipelineOptions<F> = {}): Promise<PipelinePlan<F>> {
  // The format is the one named (`F`) or, when none was, the one detected (`F` is then the default `Format`).
  const format = (options.format ?? formatByName(await detectInputFormat(sources, options.read))) as F;
  const policy = resolveUntrustedPolicy(format, options.untrusted);
  return { format, forced: options.format !== undefined, policy, columns: outputColumns(format, policy) };
}

/**
 * Runs the inputs through `convert`'s stages (validate, dedup across all of them, filter, select, prune,
 * strip), on the units engine in this thread, and yields every non-blank line as exactly one flow item, in
 * input order, with the decisions and counts of a `convert` of the same inputs. Kept records are typed by the
 * plan's format: `StrippedSftRecord` for `{format: sft}` (the record as the dataset holds it), or `SftRecord`
 * whole with `strip: false` (the input line as it was). The units read the inputs twice (the first read learns
 * which copy of each key wins); the stream reads them once more only for `strip: false`'s whole records, or
 * the provenance of a source with lines only. It runs as fast as it is consumed, and stops when its consumer
 * leaves.
 */
export function runPipeline<F extends Format<z.ZodType, string>>(
  sources: readonly LineSource[],
  plan: PipelinePlan<F>,
  options: PipelineOptions<F> & { readonly strip: false },
): AsyncIterable<Flow<ValidRecord<RecordOf<F>>>>;
export function runPipeline<F extends Format<z.ZodType, string>>(sources: readonly LineSource[], plan: PipelinePlan<F>, options?: PipelineOptions<F>): AsyncIterable<Flow<ValidRecord<StrippedRecordOf<F>>>>;
export async function* runPipeline(sources: readonly LineSource[], plan: PipelinePlan, options: PipelineOptions = {}): AsyncIterable<Flow<ValidRecord>> {
  const read = options.read ?? {};
  const rows = options.strip !== false;
  // The units split bytes: a source with lines only is spooled to a file first.
  const spool = sources.every((s) => s.bytes !== undefined) ? null : await mkdtemp(join(tmpdir(), "evalshard-stream-"));
  // The inputs' own lines beside the units, read only where the units' are not the caller's: with strip: false,
  // each kept line's whole record; from a spooled source, each line's provenance as its source gave it.
  const lines = rows && spool === null ? null : concatLines(sources, read)[Symbol.asyncIterator]();
  try {
    const units = streamUnits(runPlanOf(plan, options), {
      lines: spool === null ? sources : sources.map((s) => withSpooledBytes(s, spool, read)),
      gates: () => options.gates,
      scores: () => options.scores,
      suites: () => options.suites,
    }, rows);
    let ordinal = 0;
    for await (const unit of units) {
      let row = 0;
      for (const item of unit.lines) {
        const line = lines === null ? null : await nextLine(lines);
        const provenance = line?.provenance ?? item.provenance;
        if (item.kind === "quarantined" || item.kind === "stream_error") {
          // A caller's lines may name their source otherwise than the source does: the line numbers must agree.
          if (provenance.line !== item.provenance.line) throw new Error(`Internal error: the units' line ${item.provenance.line} is the stream's ${provenance.line}`);
          yield { ...item, provenance };
          continue;
        }
        const at = ordinal++;
        if (item.kind === "dropped") {
          yield { ...item, provenance };
          continue;
        }
        const record = parseExact(rows ? (unit.rows[row++] as string) : textOf(line as SourceLine)) as Record<string, unknown>;
        yield { kind: "kept", provenance, value: { format: plan.format, record, facts: plan.format.facts(record), ordinal: at, ...item.value } };
      }
    }
    if (lines !== null && (await lines.next()).done !== true) throw new Error("Internal error: the units decided fewer lines than the inputs hold");
  } finally {
    // A consumer that leaves early leaves the line reader open: its input is closed here.
    await lines?.return?.();
    if (spool !== null) await rm(spool, { recursive: true, force: true });
  }
}

/**
 * The stream's run: a nightly's plan (its rows are the records as a keyed sink stores them) with the options'
 * rules, on main's thread; what the options leave out is the option table's default, as for a `convert`.
 */
function runPlanOf(plan: PipelinePlan, options: PipelineOptions): RunPlan {
  const { acceptLaterMinor, filters, gateBy, untrusted } = options;
  const rules = { acceptLaterMinor, filters, gateBy, untrusted, maxLineBytes: options.read?.maxLineBytes };
  const run = nightlyPlan({ ...rules, compression: "none", workers: 0 }, { kind: "files", inputs: [], stdin: undefined, scorecards: undefined });
  return { ...run, format: plan.forced ? { forced: plan.format.name as FormatName } : { detect: true }, selection: { ...SELECT_DEFAULTS, ...options.selection } };
}

async function nextLine(lines: AsyncIterator<SourceLine>): Promise<SourceLine> {
  const next = await lines.next();
  if (next.done === true) throw new Error("Internal error: the units decided more lines than the inputs hold");
  return next.value;
}

function textOf(line: SourceLine): string {
  if (line.kind !== "line") throw new Error(`Internal error: an oversized line (${line.provenance.source}:${line.provenance.line}) was kept`);
  return line.text;
}
