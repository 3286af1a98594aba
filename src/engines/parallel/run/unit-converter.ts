import { Buffer, isUtf8 } from "node:buffer";
import { lineParserOf } from "../fast/line-parser-of.js";
import type { LineParser } from "../fast/line-parser.js";
import { VIEW_BYTE_READS, VIEW_READS } from "../fast/view-reads.js";
import { lineDigestOf } from "../fast/wasm-digest.js";
import type { RecordFacts } from "../../../formats/format.js";
import { RECORD_RULES, skeletonReads } from "../../../formats/record-rules.js";
import type { RecordRules } from "../../../formats/record-rules.js";
import type { Decision } from "../../../core/flow.js";
import type { ColumnPlan } from "../../../parquet/column-plan.js";
import { encodeRowGroup } from "../../../parquet/encode-row-group.js";
import type { RowGroupMetadata } from "../../../parquet/encode-row-group.js";
import { columnPlan } from "../../../parquet/column-plan.js";
import { RowGroupBuilder } from "../../../parquet/row-group-builder.js";
import type { LeafWriter } from "../../../parquet/leaf-writer.js";
import { shredRecord } from "../../../parquet/shred-record.js";
import { NO_PROVENANCE } from "../../../core/provenance.js";
import type { DropReason } from "../../../core/reasons.js";
import type { SuiteBook } from "../../../formats/suite-book.js";
import { needsScores } from "../../../stages/select.js";
import type { ScoreOf, SelectRule } from "../../../stages/select.js";
import { workerRules } from "./worker-rules.js";
import { quarantine, tooLongLine } from "../../../stages/quarantine-item.js";
import type { EncodedUnit, LineAt, OutcomesMessage, PrunedRow, QuarantineOutcome, WorkerConfig } from "./protocol.js";
import { LINE_FILTERED, LINE_QUARANTINED, LINE_ROW, LINE_STREAM_ERROR } from "./protocol.js";
import { BatchCopy } from "./batch-copy.js";
import { EncodedBytes } from "./encoded-bytes.js";
import { PackedKeysWriter } from "./packed-keys.js";
import type { SlowPath } from "./slow-path.js";
import { splitBatch } from "../../../sources/split-batch.js";
import type { BatchLine } from "../../../sources/split-batch.js";
import type { UnitView } from "./unit-view.js";
import { RowSplits } from "./row-splits.js";
import { SplitRoute } from "./split-route.js";
import { GROUP_KEY_PATH } from "../../../splits/split-by.js";
import { UnitTextAudit } from "./unit-text-audit.js";
import { AuditedRows } from "./audited-rows.js";
import { encodeLines, LINE_FIELD, withLine } from "./json-lines.js";
import { statsRowOf } from "../../../stats/stats-row.js";
import { UnitStats } from "./unit-stats.js";
import { ShreddedScores } from "./shredded-scores.js";

/** What the statistics read of a record whose scores come from its row group instead. */
const NO_SCORES: Readonly<Record<string, unknown>> = {};
/** What a view run's parser writes into: nothing (its schema has no leaves; the rows are the view's). */
const NO_LEAVES: readonly LeafWriter[] = [];
/**
 * The priming lines are walked before the first line and again after this many (docs/decisions.md
 * "hot code shape", cold paths).
 */
const PRIME_AFTER = 16;

/**
 * A worker's half of the parallel engine, without the thread: turns batches of lines into rows of a
 * unit's row group (fast parser first, the slow path's validate and strip for whatever it declines),
 * reports each line's outcome, and encodes a unit once main has decided which rows stay.
 */
export class UnitConverter {
  readonly plan: ColumnPlan;
  readonly #config: WorkerConfig;
  readonly #rules: RecordRules;
  readonly #parser: LineParser;
  readonly #filter: (facts: RecordFacts) => Decision;
  /** `--suites`: the decontamination rule, counting nothing; null otherwise. */
  readonly #suites: SuiteBook | null;
  readonly #select: SelectRule;
  readonly #score: ScoreOf;
  /** A split run's groups and splits (`--split`); null otherwise. */
  readonly #splits: RowSplits | null;
  /** Each unit's rows, until it is encoded: a row group per split (one without splits). */
  readonly #units = new Map<number, RowGroupBuilder[]>();
  /** Row groups encoded and cleared, per split, for the next units. */
  readonly #spare: RowGroupBuilder[][];
  /** The split whose row group the fast parser writes into when it cannot tell the row's split first (see `RowSplits.home`). */
  readonly #home: number;
  /** A split run's (not a view's): where the fast parser writes each row, its split's row group (null otherwise). */
  readonly #route: SplitRoute | null;
  #slow: SlowPath | null = null;
  /** The training view, loaded with the first batch of a view's run; null otherwise. */
  #view: UnitView | null = null;
  /** A plain run's text scan (issue 18), or null. */
  readonly #audit: UnitTextAudit | null;
  /** Each kept record's facts for the dataset's statistics, until main decides its unit. */
  readonly #stats: UnitStats;
  /** A plain SFT run's: each row's own scores, read back from its row group for the statistics; else null. */
  readonly #shredded: ShreddedScores | null;
  /** Values the walk audits per row (see AuditedRows), 0 when it audits none. */
  readonly #slots: number;
  /** Times the priming lines were walked: before the first line, and again after {@link PRIME_AFTER}. */
  #primed = 0;
  /** The priming lines and the row group they are walked into, made on the first walk and kept for the second. */
  #priming: { readonly lines: readonly Buffer[]; readonly builder: RowGroupBuilder } | null = null;
  /**
   * The batch's lines, refilled by each batch through one callback, not a new array and closure per batch
   * (docs/decisions.md "hot code shape", number kinds).
   */
  readonly #lines: BatchLine[] = [];
  readonly #addLine = (line: BatchLine): void => {
    this.#lines.push(line);
  };
  /** Packs each batch's dedup keys; `done` hands them over and starts it over, so one writer serves every batch. */
  readonly #keys = new PackedKeysWriter();
  /** Where a shared batch is copied to be walked (see {@link local}). */
  readonly #copy: BatchCopy;
  /** Every line takes the slow path: a plain JSON Lines run's. */
  readonly #slowLines: boolean;

  /** `copy`: this thread's, when a ranking read made one before (see {@link local}). */
  constructor(config: WorkerConfig, copy = new BatchCopy()) {
    this.#config = config;
    this.#copy = copy;
    this.#rules = RECORD_RULES[config.format];
    // The skeleton carries only what the rules read: every value in it is built into an object per record.
    const reads = skeletonReads(this.#rules, { scores: needsScores(config.selection), suites: config.suites !== null });
    // A view's run builds what the view reads too: the skeleton is then the record the view reads.
    const viewReads = config.view === null ? [] : (VIEW_READS[config.view.name] ?? []);
    // A split run's rows are written straight into their split's row group, by the group key the walk reads.
    const routeBy = config.split === null || config.view !== null ? undefined : GROUP_KEY_PATH[config.split.by];
    this.#parser = lineParserOf(config.schema, config.columns, [...reads, ...viewReads], config.view === null ? [] : VIEW_BYTE_READS[config.view.name], routeBy);
    // JSON Lines: every line takes the slow path, whose record gives the row its line (see json-lines.ts); a
    // view's rows give their lines themselves, built from the walk's record unless the view reads bytes from
    // it (a line is the rows' values as the parsed record gives them; so under quarantine, whose rows
    // are built before they are written). The slow path's records too
    // for a view whose reads the walk does not know (the DPO views).
    this.plan = config.lines ? columnPlan([...config.columns, LINE_FIELD]) : this.#parser.plan;
    const view = config.view;
    this.#slowLines = view === null ? config.lines : ((config.lines || view.quarantine) && VIEW_BYTE_READS[view.name] !== undefined) || VIEW_READS[view.name] === undefined;
    if (this.#slowLines) this.#primed = 2;
    // A plain run's text scan counts the kept rows' texts once main has decided which stay.
    this.#audit = config.textAudit === null ? null : new UnitTextAudit(config.textAudit, this.plan);
    // The texts and JSON values it reads, the wasm walk audits as it walks them; their answers ride with the rows.
    const folded = this.#audit === null || config.lines ? [] : this.#parser.auditWhileWalking(this.#audit.scannedLeaves);
    this.#audit?.fold(folded);
    this.#slots = folded.length;
    // The suites count nothing here: main counts the records that win dedup (see `suiteFacts`).
    ({ suites: this.#suites, filter: this.#filter, select: this.#select, score: this.#score } = workerRules(config));
    this.#splits = config.split === null ? null : new RowSplits(config.split, config.format);
    this.#stats = new UnitStats(this.#splits?.count ?? 1);
    this.#shredded = config.view === null ? ShreddedScores.of(this.plan) : null;
    this.#spare = Array.from({ length: this.#splits?.count ?? 1 }, (): RowGroupBuilder[] => []);
    this.#home = this.#splits?.home ?? 0;
    this.#route = this.#splits === null || routeBy === undefined ? null : new SplitRoute(this.#splits, this.#slots > 0);
  }

  /**
   * Converts one batch of whole lines (split as `splitLines` does), as {@link local} returned it; rows go to
   * the unit's row group, outcomes back to main. One batch at a time (the thread's job queue sees to it).
   */
  async batch(unit: number, batch: number, bytes: Buffer): Promise<OutcomesMessage> {
    if (this.#config.view !== null) this.#view ??= await (await import("./unit-view.js")).UnitView.open(this.#config.view, this.plan, this.#config.lines, this.#config.keyed === true);
    const lines = this.#lines;
    lines.length = 0;
    const newlines = splitBatch(bytes, this.#config.maxLineBytes, this.#addLine);
    const builders = this.#builders(unit);
    this.#route?.use(builders);
    const g: Gathered = {
      bytes,
      lines,
      utf8: isUtf8(bytes),
      unit,
      builders,
      builder: builders[this.#home] as RowGroupBuilder,
      kinds: new Uint8Array(lines.length),
      valid: 0,
      versions: new Float64Array(lines.length),
      digests: new Float64Array(lines.length),
      lineOf: new Float64Array(lines.length),
      startOf: new Float64Array(lines.length),
      rowBytes: [],
      rowCounts: [],
      filtered: [],
      quarantined: [],
      streamErrors: [],
      droppedPairs: [],
      injected: [],
      suiteFacts: [],
    };
    // Only the lines the fast parser declines wait here, for the slow path (loaded on first use); the rest go
    // through a synchronous loop, which compiles without an async function's resume points.
    for (let i = this.#walk(g, 0); i < lines.length; i = this.#walk(g, i + 1)) {
      const { start, end } = lines[i] as WholeLine;
      this.#gather(g, i, await this.#slowLine(g, bytes, start, end));
    }
    const columns = { kinds: g.kinds, rowBytes: Float64Array.from(g.rowBytes), keys: this.#keys.done(), versions: g.versions.slice(0, g.valid), digests: g.digests.slice(0, g.valid), lines: g.lineOf.slice(0, g.valid), starts: g.startOf.slice(0, g.valid) };
    const rowCounts = this.#view === null ? null : Uint32Array.from(g.rowCounts);
    const splits = this.#splits === null ? null : this.#splits.batchDone();
    return { type: "outcomes", unit, batch, newlines, columns, layout: null, rowCounts, streamErrors: g.streamErrors, filtered: g.filtered, quarantined: g.quarantined, droppedPairs: g.droppedPairs, injected: g.injected, suiteFacts: g.suiteFacts, splits };
  }

  /** Converts lines from `from` on with the fast parser; returns the first it declines (or the line count). */
  #walk(g: Gathered, from: number): number {
    const lines = g.lines;
    for (let i = from; i < lines.length; i++) {
      if ((i === 0 || i === PRIME_AFTER) && this.#primed < 2) this.#prime(g.bytes, lines);
      const at = lines[i] as BatchLine;
      if (at.kind === "too_long") {
        g.kinds[i] = LINE_QUARANTINED;
        g.quarantined.push({ line: at.line, offset: at.start, ...outcomeOf(tooLongLine(NO_PROVENANCE, at)) });
        continue;
      }
      const outcome = this.#slowLines ? null : this.#fast(g, g.builder, g.bytes, at.start, at.end, g.utf8);
      if (outcome === null) return i;
      this.#gather(g, i, outcome);
    }
    return lines.length;
  }

  /** Records line `i`'s outcome. */
  #gather(g: Gathered, i: number, outcome: LineOutcome): void {
    const { line, start, end } = g.lines[i] as WholeLine;
    g.kinds[i] = outcome.kind;
    if (outcome.kind === LINE_ROW || outcome.kind === LINE_FILTERED) {
      this.#keys.add(outcome.facts.key);
      if (this.#suites !== null && this.#suites.answer(outcome.facts) !== "clear") g.suiteFacts.push({ valid: g.valid, runIds: outcome.facts.runIds, campaignId: outcome.facts.campaignId, ...(outcome.facts.scenarioVersionHash === undefined ? {} : { scenarioVersionHash: outcome.facts.scenarioVersionHash }) });
      g.versions[g.valid] = outcome.facts.scorecardVersion ?? 0;
      g.lineOf[g.valid] = line;
      g.startOf[g.valid] = start;
      g.digests[g.valid++] = lineDigestOf(g.bytes, start, end);
      if (outcome.kind === LINE_FILTERED) g.filtered.push(outcome.rule);
      else {
        if (outcome.droppedPairs !== undefined) g.droppedPairs.push({ row: g.rowBytes.length, counts: outcome.droppedPairs });
        if (outcome.injected !== undefined) g.injected.push({ row: g.rowBytes.length, line, offset: start, ...outcomeOf(quarantine(NO_PROVENANCE, "injection", outcome.injected.detail, outcome.injected.raw, end - start)) });
        g.rowBytes.push(end - start);
        g.rowCounts.push(outcome.rows);
      }
    } else if (outcome.kind === LINE_QUARANTINED) {
      g.quarantined.push({ line, offset: start, ...outcome.quarantine });
    } else {
      g.streamErrors.push({ line, offset: start, runIndex: outcome.runIndex });
    }
  }

  /**
   * Encodes a unit's kept rows: one row group per shard segment. Rows main dropped (duplicates found
   * after they were shredded) are removed first; a unit cut across shards is encoded a segment at a time
   * from its first rows, which are then dropped (the rest moved to the front), all in place. A split run's
   * unit holds a row group per split; the segments come a split at a time (`segmentSplits` says whose).
   */
  decide(unit: number, keep: Uint8Array, segments: readonly number[], out: Uint8Array | null = null, records: Uint8Array | null = null, segmentSplits: Uint32Array | null = null): EncodedUnit {
    const view = this.#view === null ? null : this.#view.settle(unit, records ?? new Uint8Array(0));
    const builders = this.#units.get(unit);
    if (builders === undefined) {
      // A unit whose batches were all too long never reached this worker: nothing to encode, no view counts.
      if (view !== null) return { groups: [], bytes: new Uint8Array(0), view, audit: null, stats: this.#stats.settle(unit, () => new Uint8Array(0)) };
      throw new Error(`Internal error: no unit ${unit} to decide`);
    }
    this.#units.delete(unit);
    const rows = builders.reduce((n, builder) => n + builder.rows, 0);
    if (rows !== keep.length) throw new Error(`Internal error: unit ${unit} holds ${rows} rows, main decided ${keep.length}`);
    const starts = builders.map((_, split) => builders.slice(0, split).reduce((n, b) => n + b.rows, 0));
    const shredded = this.#shredded;
    const stats = this.#stats.settle(
      unit,
      (split) => keep.subarray(starts[split] ?? 0, (starts[split] ?? 0) + (builders[split]?.rows ?? 0)),
      shredded === null ? null : { scores: shredded, builders },
    );
    const groups: RowGroupMetadata[] = [];
    const encoded = new EncodedBytes(out);
    const encode = (rows: RowGroupBuilder): void => {
      const { bytes, ...metadata } = this.#config.lines ? encodeLines(rows) : encodeRowGroup(rows, { codec: this.#config.codec, scratch: true });
      encoded.add(bytes);
      groups.push(metadata);
    };
    try {
      // Each split's row group holds the rows main kept; their texts are scanned before encoding consumes them.
      // Main's `keep` comes split by split, as the row groups hold the rows.
      const ranges: [RowGroupBuilder, number, number][] = [];
      let i = 0;
      let first = 0;
      for (const [split, builder] of builders.entries()) {
        const own = keep.subarray(first, (first += builder.rows));
        let end = i;
        let segmented = 0;
        while (end < segments.length && (segmentSplits?.[end] ?? 0) === split) segmented += segments[end++] as number;
        // Per split, not only in total: counts that disagree in two splits by the same amount would
        // otherwise move rows between splits unnoticed.
        const kept = own.reduce((n, k) => n + k, 0);
        if (kept !== segmented) throw new Error(`Internal error: unit ${unit} split ${split} keeps ${kept} rows, main's segments hold ${segmented}`);
        if (end === i) continue;
        if (own.includes(0)) builder.retain((row) => own[row] === 1);
        ranges.push([builder, i, end]);
        i = end;
      }
      if (i !== segments.length) throw new Error(`Internal error: segments of unit ${unit} out of split order`);
      if (this.#config.discard === true) return { groups: [], bytes: new Uint8Array(0), view, audit: null, stats };
      // The kept rows' texts (no segment: none kept).
      const audit = this.#audit === null ? null : ranges.length === 0 ? {} : this.#audit.scan(ranges.map(([builder]) => builder));
      for (const [builder, from, end] of ranges) {
        for (let k = from; k < end; k++) {
          if (k < end - 1) builder.takeFirstRows(segments[k] as number, encode);
          else builder.withFirstRows(segments[k] as number, encode);
        }
      }
      return { groups, bytes: encoded.copied(), view, audit, stats };
    } finally {
      for (const [split, builder] of builders.entries()) {
        builder.clear();
        this.#spare[split]?.push(builder);
      }
    }
  }

  /**
   * In the first batch (see {@link PRIME_AFTER}): walks the parser's priming lines, made once from the first
   * line, into a row group of their own, then encodes that, and drops both, so that paths the data reaches
   * rarely have run before the hot code is compiled (docs/decisions.md "hot code shape", cold paths).
   */
  #prime(bytes: Buffer, lines: readonly BatchLine[]): void {
    if (this.#priming === null) {
      const first = lines.find((l) => l.kind === "line");
      if (first?.kind !== "line") return;
      this.#priming = { lines: this.#parser.primingLines(bytes.toString("utf8", first.start, first.end)), builder: this.#newBuilder() };
    }
    this.#primed++;
    const { lines: primers, builder } = this.#priming;
    builder.clear();
    for (const primer of primers) {
      // A view's run primes the walk alone: its rows are the view's, which the priming lines do not make.
      if (this.#config.view !== null) this.#parser.parse(primer, 0, primer.length, NO_LEAVES);
      else this.#fast(null, builder, primer, 0, primer.length, isUtf8(primer));
    }
    if (this.#config.view === null) encodeRowGroup(builder, { codec: this.#config.codec, scratch: true });
    if (this.#primed === 2) this.#priming = null;
  }

  /**
   * The batch in this thread's scan memory, where the walk takes its lines (one copy per batch, reused), for
   * {@link batch}; once this returns, nothing refers to a shared `bytes`, and main may reuse its slot. Strings
   * copied out of shared memory one by one cost far more than one copy of the batch (docs/decisions.md
   * "hot code shape", typed arrays). Not called from `batch`: docs/decisions.md "hot code shape", cold paths.
   */
  local(bytes: Buffer): Buffer {
    return this.#copy.local(bytes);
  }

  /**
   * The unit's row groups, one per split. A new one is sized like a unit's before it (whose batches have all
   * been walked): grown from nothing, it would allocate its size over again in the buffers it outgrows.
   */
  #builders(unit: number): RowGroupBuilder[] {
    let builders = this.#units.get(unit);
    if (builders === undefined) {
      const like = this.#units.values().next().value;
      builders = this.#spare.map((spare, split) => spare.pop() ?? this.#newBuilder(like?.[split]));
      this.#units.set(unit, builders);
    }
    return builders;
  }

  /**
   * A row group for this run: one that carries the walk's audit answers when the walk audits (a plain run
   * of SFT or RL), else a plain one. The priming lines' is one too: one class for every row group
   * (docs/decisions.md "hot code shape", one shape).
   */
  #newBuilder(like?: RowGroupBuilder): RowGroupBuilder {
    return this.#slots === 0 ? new RowGroupBuilder(this.plan, like) : new AuditedRows(this.plan, this.#slots, like);
  }

  /** The fast parser's answer, or null when it declines the line (nothing is left written then). */
  #fast(g: Gathered | null, builder: RowGroupBuilder, bytes: Buffer, start: number, end: number, utf8: boolean): LineOutcome | null {
    if (!utf8 && !isUtf8(bytes.subarray(start, end))) return null;
    // A view's run only validates here: its schema writes no leaves, and its rows are shredded once built.
    const plain = this.#view === null;
    // A split run's batch line: the parser begins the row in its split's row group (the priming lines' stay put).
    const route = g === null ? null : this.#route;
    let skeleton: Record<string, unknown> | null;
    if (route !== null) {
      skeleton = this.#parser.parseRouted(bytes, start, end, route);
      builder = route.builder as RowGroupBuilder;
    } else {
      if (plain) builder.beginRow();
      // With an audit, every row group is an AuditedRows (the priming lines' too: see #newBuilder), where the walk's answers go.
      skeleton = this.#parser.parse(bytes, start, end, plain ? builder.leaves : NO_LEAVES, this.#slots === 0 ? null : (builder as AuditedRows));
    }
    if (skeleton === null) {
      if (plain) builder.discardRow();
      return null;
    }
    const fault = this.#rules.check(skeleton as never);
    if (fault !== null) {
      if (plain) builder.discardRow();
      const text = bytes.toString("utf8", start, end);
      return { kind: LINE_QUARANTINED, quarantine: outcomeOf(quarantine(NO_PROVENANCE, fault.reason, fault.detail, text, end - start)) };
    }
    // A record that loses pairs is written from the slow path's record, pruned (the row shredded here has them all).
    if (this.#rules.prune?.(skeleton as never) != null) {
      if (plain) builder.discardRow();
      return null;
    }
    const facts = this.#rules.facts(skeleton as never);
    // A view reads the skeleton, which holds what it reads as zod would give it (VIEW_READS).
    return this.#decided(g, builder, facts, plain ? null : () => skeleton, skeleton as Record<string, unknown>, true);
  }

  /** The slow path (zod's validate, the policy's strip), which also explains failures; loaded on the first line that needs them. */
  async #slowLine(g: Gathered, bytes: Buffer, start: number, end: number): Promise<LineOutcome> {
    this.#slow ??= (await import("./slow-path.js")).slowPath(this.#config);
    const item = this.#slow.validate(bytes, start, end);
    switch (item.kind) {
      case "quarantined":
        return { kind: LINE_QUARANTINED, quarantine: outcomeOf(item) };
      case "stream_error":
        return { kind: LINE_STREAM_ERROR, runIndex: item.runIndex };
      case "kept": {
        const { record } = item.value;
        return this.#decided(g, g.builder, item.value.facts, () => record, record, false) as LineOutcome;
      }
      default:
        throw new Error(`Internal error: validate answered ${item.kind}`);
    }
  }

  /**
   * Applies the filters and the selection; a record that passes stays shredded (or is shredded now, from the
   * slow path), or, in a view's run, its view rows are. `record`: the whole record, when the fast parser did
   * not shred it; `read`: what the selection's scores are read from (the skeleton or the record).
   */
  #decided(g: Gathered | null, builder: RowGroupBuilder, facts: RecordFacts, record: (() => Record<string, unknown>) | null, read: Record<string, unknown>, walked: boolean): LineOutcome | null {
    const filtered = this.#filter(facts);
    const decision = filtered !== "keep" ? filtered : this.#select(facts, () => this.#score(facts, read));
    if (decision !== "keep") {
      if (record === null) builder.discardRow();
      return { kind: LINE_FILTERED, facts, rule: decision };
    }
    // A split run's rows go to their split's row group (a batch's: the priming lines' stay where they are).
    const splits = g === null ? null : this.#splits;
    const key = splits === null ? null : splits.keyOf(read);
    const split = splits === null || key === null ? this.#home : splits.splitOf(key);
    const into = g === null ? builder : (g.builders[split] as RowGroupBuilder);
    let outcome: RowOutcome;
    if (record === null) {
      // The fast parser wrote the row where its route went: its split's row group, or the home split's when
      // the walk could not tell the group first.
      if (into !== builder) builder.moveLastRowTo(into);
      outcome = { kind: LINE_ROW, facts, rows: 1 };
    } else if (this.#view !== null && g !== null) {
      // A record quarantined whole is the parsed record as JSON: one the walk built goes the slow path for it.
      const written = this.#view.write(g.unit, record(), into, walked, this.#config.keyed === true ? facts : null);
      if (written === null) return null;
      outcome = written.injected === null ? { kind: LINE_ROW, facts, rows: written.rows } : { kind: LINE_ROW, facts, rows: 0, injected: written.injected };
    } else {
      const whole = record();
      const droppedPairs = this.#rules.prune?.(whole as never) ?? null;
      this.#slow?.strip(whole);
      into.beginRow();
      shredRecord(this.plan, this.#config.lines ? withLine(this.#config.columns, whole, this.#config.keyed === true ? facts : null) : whole, into.leaves);
      outcome = droppedPairs === null ? { kind: LINE_ROW, facts, rows: 1 } : { kind: LINE_ROW, facts, rows: 1, droppedPairs };
    }
    if (splits !== null && key !== null) splits.add(key);
    // A plain SFT run's own scores are read back from the row group when the unit is decided (ShreddedScores).
    if (g !== null) this.#stats.note(g.unit, split, this.#shredded === null ? statsRowOf(facts, read, this.#score(facts, read), splits?.nameOf(split)) : statsRowOf(facts, NO_SCORES, null, splits?.nameOf(split)), outcome.rows);
    return outcome;
  }
}

/** A line of the batch, not one too long to read. */
type WholeLine = Extract<BatchLine, { kind: "line" }>;

/** An outcome message's lists, as a batch's lines fill them. */
type Filling<T> = { readonly [K in keyof T]: T[K] extends readonly (infer E)[] ? E[] : never };

/** A batch's lines and what they came to so far. */
interface Gathered extends Filling<Pick<OutcomesMessage, "filtered" | "quarantined" | "streamErrors" | "droppedPairs" | "injected" | "suiteFacts">> {
  readonly bytes: Buffer;
  readonly unit: number;
  readonly lines: readonly BatchLine[];
  /** The whole batch is valid UTF-8 (else each line is checked). */
  readonly utf8: boolean;
  /** The unit's row groups, one per split (one without splits). */
  readonly builders: readonly RowGroupBuilder[];
  /** The one the fast parser writes into: the home split's. */
  readonly builder: RowGroupBuilder;
  readonly kinds: Uint8Array;
  /** Valid lines so far (rows and filtered): how much of `versions` and `digests` is written. */
  valid: number;
  /** Per valid line, sized to the batch's lines: typed stores (docs/decisions.md "hot code shape", number kinds). */
  readonly versions: Float64Array;
  readonly digests: Float64Array;
  /** Per valid line: its line and first byte in the batch. */
  readonly lineOf: Float64Array;
  readonly startOf: Float64Array;
  readonly rowBytes: number[];
  /** The rows each LINE_ROW line gave (a view's run). */
  readonly rowCounts: number[];
}

type RowOutcome = { readonly kind: typeof LINE_ROW; readonly facts: RecordFacts; readonly rows: number; readonly droppedPairs?: PrunedRow["counts"]; readonly injected?: { readonly detail: string; readonly raw: string } };

type LineOutcome =
  | RowOutcome
  | { readonly kind: typeof LINE_FILTERED; readonly facts: RecordFacts; readonly rule: DropReason }
  | { readonly kind: typeof LINE_QUARANTINED; readonly quarantine: Omit<QuarantineOutcome, keyof LineAt> }
  | { readonly kind: typeof LINE_STREAM_ERROR; readonly runIndex: number | null };

function outcomeOf(item: { reason: QuarantineOutcome["reason"]; detail: string; raw: string; rawLength: number }): Omit<QuarantineOutcome, keyof LineAt> {
  return { reason: item.reason, detail: item.detail, raw: item.raw, rawLength: item.rawLength };
}
