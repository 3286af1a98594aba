import type { FormatName } from "../../formats/format.js";
import type { GateBy } from "../../formats/card-gate.js";
import type { GateBook } from "../../formats/gate-book.js";
import type { ScoreBook } from "../../formats/scorecard-book.js";
import type { SuiteBook } from "../../formats/suite-book.js";
import type { FilterRule } from "../../core/reasons.js";
import type { LineSource } from "../../sources/line-source.js";
import type { SelectionPlan } from "../../stages/select-plan.js";
import { checkSelection } from "../../stages/select.js";
import { outputColumns, resolveUntrustedPolicy } from "../../stages/untrusted-policy.js";
import { columnPlan } from "../../parquet/column-plan.js";
import { loadFormatInfo } from "./fast/load-format-info.js";
import { parserSchemaFor } from "./fast/parser-schema-for.js";
import { convertInParallel } from "./run/convert-in-parallel.js";
import { readKeyedLines } from "./run/json-lines.js";
import type { LineOutcome, WrittenUnit } from "./run/written-unit.js";

export type { LineOutcome } from "./run/written-unit.js";

/** What a stream of the units is run with: convert's rule options, settled (every filter and selection field set). */
export interface UnitStreamRequest {
  /** Inputs, each with `bytes()`. */
  readonly sources: readonly LineSource[];
  readonly format: FormatName;
  readonly forced: boolean;
  readonly acceptLaterMinor: boolean;
  readonly maxLineBytes: number;
  readonly filters: Readonly<Record<FilterRule, boolean>>;
  readonly gateBy: GateBy;
  readonly selection: SelectionPlan;
  readonly untrusted: Readonly<Record<string, string>>;
  readonly gates: GateBook | undefined;
  readonly scores: ScoreBook | undefined;
  readonly suites: SuiteBook | undefined;
  /** false: the units encode no rows (a caller that wants whole records reads its own lines). */
  readonly rows: boolean;
}

/** A unit of the stream: its non-blank lines' outcomes in input order, and each kept line's record as JSON (stripped and pruned as a dataset holds it). */
export interface StreamedUnit {
  readonly lines: readonly LineOutcome[];
  readonly rows: readonly string[];
}

/** The run was left by its caller: it stops at its next unit. */
class StreamLeft extends Error {}

/**
 * The units engine on main's thread (`--workers 0`) over the inputs, a unit at a time in input order: the same
 * stages, decisions and counts as a convert, each unit handed over once its caller has taken the one before
 * (a slow caller holds the run back; the run ends when the caller leaves).
 */
export async function* streamUnits(request: UnitStreamRequest): AsyncGenerator<StreamedUnit> {
  const format = await loadFormatInfo(request.format);
  checkSelection(request.selection, { format: format.name, scores: request.scores });
  const policy = resolveUntrustedPolicy(format, request.untrusted);
  const columns = outputColumns(format, policy);
  const suites = request.suites ?? null;
  if (suites !== null && suites.data === null) throw new Error("Internal error: suites the units cannot be given");
  const queue: StreamedUnit[] = [];
  let left = false;
  let finished = false;
  let failure: unknown = null;
  // Set by whoever waits: the caller for a unit, the run for the caller to take one.
  const wake: { reader: (() => void) | null; run: (() => void) | null } = { reader: null, run: null };
  const follow = async (unit: WrittenUnit): Promise<void> => {
    if (left) throw new StreamLeft();
    queue.push({ lines: unit.lines, rows: request.rows ? rowsOf(unit) : [] });
    wake.reader?.();
    while (queue.length > 0 && !left) await new Promise<void>((resolve) => (wake.run = resolve));
    if (left) throw new StreamLeft();
  };
  const discard = { write: () => Promise.resolve(), close: () => Promise.resolve(), path: "", entries: 0 };
  const run = convertInParallel({
    sources: request.sources,
    shards: () => ({ append: () => Promise.resolve(), finish: () => Promise.resolve([]), abort: () => Promise.resolve() }),
    splits: null,
    plan: columnPlan(columns),
    worker: {
      format: format.name,
      forced: request.forced,
      acceptLaterMinor: request.acceptLaterMinor,
      filters: request.filters,
      selection: request.selection,
      gateBy: request.gateBy,
      gates: request.gates?.entries ?? null,
      scores: request.scores?.data ?? null,
      codec: "none",
      // Keyed lines: each row is its record as a dataset's snapshot stores it, not a tabular row.
      lines: request.rows,
      keyed: request.rows,
      maxLineBytes: request.maxLineBytes,
      columns,
      schema: parserSchemaFor(format, policy),
      view: null,
      textAudit: null,
      split: null,
      topKeys: null,
      rankSchema: request.selection.topKPerScenario === null ? null : parserSchemaFor(format, policy, null),
      suites: suites?.data ?? null,
      ...(request.rows ? {} : { discard: true }),
    },
    workers: 0,
    read: { maxLineBytes: request.maxLineBytes },
    shardRows: Infinity,
    shardBytes: Infinity,
    quarantine: discard,
    suites,
    follow,
  }).then(
    () => undefined,
    (error: unknown) => {
      failure = error;
    },
  );
  void run.finally(() => {
    finished = true;
    wake.reader?.();
  });
  try {
    for (;;) {
      const unit = queue.shift();
      if (unit !== undefined) {
        wake.run?.();
        yield unit;
        continue;
      }
      if (finished) break;
      await new Promise<void>((resolve) => (wake.reader = resolve));
    }
    if (failure !== null) throw failure;
  } finally {
    left = true;
    wake.run?.();
    await run;
  }
}

/** The records of a unit's keyed lines (`keyedLine`), in order. */
function rowsOf({ groups }: WrittenUnit): string[] {
  const rows: string[] = [];
  for (const group of groups) for (const { line } of readKeyedLines(group.bytes)) rows.push(line);
  return rows;
}
