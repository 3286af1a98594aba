import { isUtf8 } from "node:buffer";
import { formatByName } from "../formats/index.js";
import type { Format } from "../formats/format.js";
import { compileLineParser } from "../fast/compile-line-parser.js";
import type { LineParser } from "../fast/compile-line-parser.js";
import type { ColumnPlan } from "../parquet/column-plan.js";
import { columnPlan } from "../parquet/column-plan.js";
import { encodeRowGroup } from "../parquet/encode-row-group.js";
import { RowGroupBuilder } from "../parquet/row-group-builder.js";
import { shredRecord } from "../parquet/shred-record.js";
import type { Provenance } from "../provenance.js";
import type { FilterRule } from "../reasons.js";
import type { Decision } from "../flow.js";
import type { RecordFacts } from "../formats/format.js";
import { filterRule } from "../stages/filter.js";
import { recordStripper } from "../stages/strip.js";
import { outputColumns, resolveUntrustedPolicy } from "../stages/untrusted-policy.js";
import { lineValidator, quarantine } from "../stages/validate.js";
import type { EncodedRowGroup } from "../parquet/encode-row-group.js";
import { splitBatch } from "./split-batch.js";
import type { LineAt, OutcomesMessage, QuarantineOutcome, WorkerConfig } from "./protocol.js";
import { LINE_FILTERED, LINE_QUARANTINED, LINE_ROW, LINE_STREAM_ERROR } from "./protocol.js";

/** Where a unit's row came from, to shred it again when the unit is cut across shards. */
interface RowSource {
  readonly bytes: Buffer;
  readonly start: number;
  readonly end: number;
}

interface Unit {
  readonly builder: RowGroupBuilder;
  readonly rows: RowSource[];
}

const NO_PROVENANCE: Provenance = { source: "", line: 0, offset: 0 };

/**
 * A worker's half of the parallel engine, without the thread: turns batches of lines into rows of a
 * unit's row group (fast parser first, the stages' own validate/strip rules for whatever it gives up
 * on), reports each line's outcome, and encodes a unit once main has decided which rows stay.
 */
export class UnitConverter {
  readonly plan: ColumnPlan;
  readonly #format: Format;
  readonly #parser: LineParser | null;
  readonly #validate: ReturnType<typeof lineValidator>;
  readonly #filter: (facts: RecordFacts) => Decision;
  readonly #strip: (record: Record<string, unknown>) => void;
  readonly #codec: WorkerConfig["codec"];
  readonly #maxLineBytes: number;
  readonly #units = new Map<number, Unit>();
  readonly #spare: RowGroupBuilder[] = [];

  constructor(config: WorkerConfig) {
    this.#format = formatByName(config.format);
    const policy = resolveUntrustedPolicy(this.#format, config.untrusted);
    // Lines of later minors are the stages' business; the parser vouches only for the exact version.
    this.#parser = compileLineParser(this.#format, policy);
    this.plan = columnPlan(outputColumns(this.#format, policy));
    this.#validate = lineValidator({ format: this.#format, forced: config.forced, acceptLaterMinor: config.acceptLaterMinor });
    this.#filter = filterRule({ rules: config.filters, ...(config.gatedRuns === null ? {} : { gatedRuns: new Set(config.gatedRuns) }) });
    this.#strip = recordStripper(policy);
    this.#codec = config.codec;
    this.#maxLineBytes = config.maxLineBytes;
  }

  /**
   * Converts one batch of whole lines; rows go to the unit's row group, outcomes back to main. Lines are
   * split as `splitLines` does: a `\r` before the `\n` dropped, blank lines skipped but numbered.
   */
  batch(unit: number, batch: number, bytes: Buffer): OutcomesMessage {
    const state = this.#unit(unit);
    const utf8 = isUtf8(bytes);
    const kinds: number[] = [];
    const keys: string[] = [];
    const versions: number[] = [];
    const rowBytes: number[] = [];
    const filtered: FilterRule[] = [];
    const quarantined: QuarantineOutcome[] = [];
    const streamErrors: LineAt[] = [];
    const newlines = splitBatch(bytes, this.#maxLineBytes, (at) => {
      if (at.kind === "too_long") {
        kinds.push(LINE_QUARANTINED);
        quarantined.push({ line: at.line, offset: at.start, ...outcomeOf(quarantine(NO_PROVENANCE, "line_too_long", `line is ${at.bytes} bytes, over the limit`, at.head, at.bytes)) });
        return;
      }
      const { line, start, end } = at;
      const outcome = this.#line(state.builder, bytes, start, end, utf8 || isUtf8(bytes.subarray(start, end)));
      kinds.push(outcome.kind);
      if (outcome.kind === LINE_ROW || outcome.kind === LINE_FILTERED) {
        keys.push(outcome.facts.key);
        versions.push(outcome.facts.scorecardVersion ?? 0);
        if (outcome.kind === LINE_FILTERED) filtered.push(outcome.rule);
        else {
          state.rows.push({ bytes, start, end });
          rowBytes.push(end - start);
        }
      } else if (outcome.kind === LINE_QUARANTINED) {
        quarantined.push({ line, offset: start, ...outcome.quarantine });
      } else {
        streamErrors.push({ line, offset: start });
      }
    });
    return { type: "outcomes", unit, batch, newlines, kinds: Uint8Array.from(kinds), rowBytes, streamErrors, keys, versions, filtered, quarantined };
  }

  /**
   * Encodes a unit's kept rows: one row group per shard segment. Rows main dropped (duplicates found
   * after they were shredded) are removed first; a unit cut across shards is shredded again per segment.
   */
  decide(unit: number, keep: Uint8Array, segments: readonly number[]): EncodedRowGroup[] {
    const state = this.#units.get(unit);
    if (state === undefined) throw new Error(`Internal error: no unit ${unit} to decide`);
    this.#units.delete(unit);
    const { builder } = state;
    try {
      if (segments.length === 0) return [];
      if (segments.length === 1) {
        if (keep.includes(0)) builder.retain((row) => keep[row] === 1);
        return [this.#encode(builder)];
      }
      const kept = state.rows.filter((_, row) => keep[row] === 1);
      const groups: EncodedRowGroup[] = [];
      let at = 0;
      for (const count of segments) {
        builder.clear();
        for (const { bytes, start, end } of kept.slice(at, at + count)) this.#line(builder, bytes, start, end, isUtf8(bytes.subarray(start, end)));
        at += count;
        groups.push(this.#encode(builder));
      }
      return groups;
    } finally {
      builder.clear();
      this.#spare.push(builder);
    }
  }

  #unit(unit: number): Unit {
    let state = this.#units.get(unit);
    if (state === undefined) {
      state = { builder: this.#spare.pop() ?? new RowGroupBuilder(this.plan), rows: [] };
      this.#units.set(unit, state);
    }
    return state;
  }

  #encode(builder: RowGroupBuilder): EncodedRowGroup {
    return encodeRowGroup(builder, { codec: this.#codec });
  }

  /** One line: the fast parser's answer when it has one, else the stages' rules, which also explain failures. */
  #line(builder: RowGroupBuilder, bytes: Buffer, start: number, end: number, utf8: boolean): LineOutcome {
    if (this.#parser !== null && utf8) {
      builder.beginRow();
      const skeleton = this.#parser.parse(bytes, start, end, builder.leaves);
      if (skeleton !== null) {
        const fault = this.#format.check(skeleton as never);
        if (fault !== null) {
          builder.discardRow();
          const text = bytes.toString("utf8", start, end);
          return { kind: LINE_QUARANTINED, quarantine: outcomeOf(quarantine(NO_PROVENANCE, fault.reason, fault.detail, text, end - start)) };
        }
        return this.#decided(builder, this.#format.facts(skeleton as never), null);
      }
      builder.discardRow();
    }
    const text = bytes.toString("utf8", start, end);
    const item = this.#validate({ kind: "line", provenance: NO_PROVENANCE, text, bytes: end - start });
    switch (item.kind) {
      case "quarantined":
        return { kind: LINE_QUARANTINED, quarantine: outcomeOf(item) };
      case "stream_error":
        return { kind: LINE_STREAM_ERROR };
      case "kept":
        return this.#decided(builder, item.value.facts, item.value.record);
      default:
        throw new Error(`Internal error: validate answered ${item.kind}`);
    }
  }

  /** Applies the filters; a record that passes stays shredded (or is shredded now, from the slow path). */
  #decided(builder: RowGroupBuilder, facts: RecordFacts, record: Record<string, unknown> | null): LineOutcome {
    const decision = this.#filter(facts);
    if (decision !== "keep") {
      if (record === null) builder.discardRow();
      return { kind: LINE_FILTERED, facts, rule: decision as FilterRule };
    }
    if (record !== null) {
      this.#strip(record);
      builder.beginRow();
      shredRecord(this.plan, record, builder.leaves);
    }
    return { kind: LINE_ROW, facts };
  }
}

type LineOutcome =
  | { readonly kind: typeof LINE_ROW; readonly facts: RecordFacts }
  | { readonly kind: typeof LINE_FILTERED; readonly facts: RecordFacts; readonly rule: FilterRule }
  | { readonly kind: typeof LINE_QUARANTINED; readonly quarantine: Omit<QuarantineOutcome, keyof LineAt> }
  | { readonly kind: typeof LINE_STREAM_ERROR };

function outcomeOf(item: { reason: QuarantineOutcome["reason"]; detail: string; raw: string; rawLength: number }): Omit<QuarantineOutcome, keyof LineAt> {
  return { reason: item.reason, detail: item.detail, raw: item.raw, rawLength: item.rawLength };
}
