import type { ColumnBuffer } from "../../../parquet/column-buffer.js";
import type { ColumnPlan } from "../../../parquet/column-plan.js";
import type { RowGroupBuilder } from "../../../parquet/row-group-builder.js";
import { parsePath } from "../../../schema/field-path.js";
import { sanitizeText } from "../../../views/sanitize-text.js";
import { INJECTION_PATTERNS, scanInjection } from "../../../views/scan-injection.js";
import type { InjectionPattern } from "../../../views/scan-injection.js";
import type { PathAudit } from "../../../views/text-audit.js";
import { utf8MayMatter } from "../../../views/text-prefilter.js";
import { WasmAudit } from "../fast/wasm-audit.js";
import { AuditedRows } from "./audited-rows.js";

const PATTERNS = Object.keys(INJECTION_PATTERNS) as InjectionPattern[];
/** Per path: texts, changed, injected, then one count per pattern. */
const WIDTH = 3 + PATTERNS.length;

/** A text or JSON leaf at or below a scanned path. */
interface ScannedLeaf {
  readonly leaf: number;
  readonly path: number;
  readonly json: boolean;
}

/**
 * A worker's side of a plain run's text scan (issue 18; its paths: src/views/text-audit-paths.ts): the
 * same texts, sanitizer and patterns, read from the unit's shredded rows once main has decided which stay,
 * so a record that lost to another copy counts for nothing. The rows hold each kept text as UTF-8 (a JSON
 * value as its text): the text-audit prefilter over those bytes (the wasm module's, `fast/wasm-audit.ts`)
 * clears most texts without making a string; only the rest are decoded and scanned by the regexes. What the
 * policy dropped has no column; what it redacted holds the redaction, as the stripped record does.
 */
export class UnitTextAudit {
  readonly #paths: readonly string[];
  readonly #leaves: readonly ScannedLeaf[];
  readonly #sums: Float64Array;
  readonly #wasm = new WasmAudit();
  /** The JSON leaves whose values the walk audits, by slot (see {@link fold}). */
  #folded: readonly number[] = [];

  /** `paths`: `textAuditPaths(format)`; `plan`: the dataset's columns. */
  constructor(paths: readonly string[], plan: ColumnPlan) {
    this.#paths = paths;
    const prefixes = paths.map(parquetPrefix);
    this.#leaves = plan.leaves.flatMap((leaf) => {
      if (leaf.type !== "string" && leaf.type !== "json") return [];
      const path = prefixes.findIndex((p) => p.length <= leaf.path.length && p.every((step, i) => leaf.path[i] === step));
      return path === -1 ? [] : [{ leaf: leaf.index, path, json: leaf.type === "json" }];
    });
    this.#sums = new Float64Array(paths.length * WIDTH);
  }

  /** The text and JSON leaves it reads: those the walk may audit as it walks them (fast/walk-audit.ts). */
  get scannedLeaves(): number[] {
    return this.#leaves.map((l) => l.leaf);
  }

  /** The leaves (of {@link scannedLeaves}) the walk audits, by slot: their counts come with an {@link AuditedRows}' rows. */
  fold(leaves: readonly number[]): void {
    this.#folded = leaves;
  }

  /** The counts over every row of `builders` (the unit's kept rows, one row group per split). */
  scan(builders: readonly RowGroupBuilder[]): Record<string, PathAudit> {
    const sums = this.#sums;
    sums.fill(0);
    for (const builder of builders) this.#scanOne(builder);
    return this.#summary();
  }

  /**
   * A column's values go to the wasm pass as many at a time as fit its memory; a value that does not (or every
   * value, on a thread without scan memory) one at a time: a text to the scratch instance's, a JSON value to
   * `JSON.parse`.
   */
  #scanOne(builder: RowGroupBuilder): void {
    for (const { leaf, path, json } of this.#leaves) {
      const column = builder.columns[leaf];
      if (column === undefined) continue;
      const base = path * WIDTH;
      const slot = builder instanceof AuditedRows ? this.#folded.indexOf(leaf) : -1;
      if (slot >= 0) this.#walked(builder as AuditedRows, column, slot, base, json);
      else this.#values(column, 0, column.valueBytes, base, json);
    }
  }

  /** The values of bytes `[from, to)` of a column (whole values). */
  #values(column: ColumnBuffer, from: number, to: number, base: number, json: boolean): void {
    const wasm = this.#wasm.ready();
    const { values, view } = column;
    for (let at = from; at < to; ) {
      const taken = !wasm ? at : json ? this.#wasmJson(values, at, to, base) : this.#wasmTexts(values, view, at, to, base);
      if (taken > at) {
        at = taken;
        continue;
      }
      const end = at + 4 + view.getUint32(at, true);
      if (json) this.#parsed(JSON.parse(values.toString("utf8", at + 4, end)), base);
      else this.#text(values, at + 4, end, base);
      at = end;
    }
  }

  /**
   * A leaf the walk audited (`slot` among the rows' answers): each row's count and flagged texts as the walk
   * found them; the values of a row it did not answer for from the column.
   */
  #walked(rows: AuditedRows, column: ColumnBuffer, slot: number, base: number, json: boolean): void {
    const counts = rows.answers();
    const slots = rows.slots;
    const sums = this.#sums;
    let unanswered = false;
    for (let r = 0, at = slot; r < rows.rows; r++, at += slots) {
      const n = counts[at] as number;
      if (n >= 0) sums[base] = (sums[base] as number) + n;
      else unanswered = true;
    }
    for (let k = 0; k < rows.texts.length; k++) {
      if (rows.textSlots[k] === slot && (counts[(rows.textRows[k] as number) * slots + slot] as number) >= 0) this.#exact(rows.texts[k] as string, base);
    }
    if (!unanswered) return;
    // A row starts at each repetition level 0 (every entry without repetition); a present value is a length and its bytes.
    const { defs, reps, view, maxDef, maxRep, entries } = column;
    let row = -1;
    let at = 0;
    let from = 0;
    let reading = false;
    for (let e = 0; e < entries; e++) {
      if (maxRep === 0 || reps[e] === 0) {
        if (reading && at > from) this.#values(column, from, at, base, json);
        row++;
        reading = (counts[row * slots + slot] as number) < 0;
        from = at;
      }
      if (maxDef === 0 || defs[e] === maxDef) at += 4 + view.getUint32(at, true);
    }
    if (reading && at > from) this.#values(column, from, at, base, json);
  }

  /** Text values from `from` on, flagged by the wasm pass; where those it took end. */
  #wasmTexts(values: Buffer, view: DataView, from: number, to: number, base: number): number {
    const flags = this.#wasm.texts(values, from, to);
    this.#sums[base] = (this.#sums[base] as number) + flags.length;
    if (flags.includes(1)) {
      for (let k = 0, at = from; k < flags.length; k++) {
        const end = at + 4 + view.getUint32(at, true);
        if (flags[k] === 1) this.#exact(values.toString("utf8", at + 4, end), base);
        at = end;
      }
    }
    return this.#wasm.stop;
  }

  /** JSON values from `from` on, their strings counted and flagged by the wasm pass; where those it took end. */
  #wasmJson(values: Buffer, from: number, to: number, base: number): number {
    const words = this.#wasm.json(values, from, to);
    const shift = this.#wasm.shift;
    for (let w = 0; w < words.length; ) {
      const count = words[w] as number;
      const flagged = words[w + 1] as number;
      const start = (words[w + 2] as number) + shift;
      w += 3;
      if (count === -1) this.#parsed(JSON.parse(values.toString("utf8", start, start + values.readUInt32LE(start - 4))), base);
      else {
        this.#sums[base] = (this.#sums[base] as number) + count;
        for (let k = 0; k < flagged; k++, w += 2) this.#exact(JSON.parse(values.toString("utf8", (words[w] as number) + shift, (words[w + 1] as number) + shift)) as string, base);
      }
    }
    return this.#wasm.stop;
  }

  #summary(): Record<string, PathAudit> {
    const sums = this.#sums;
    const summary: Record<string, PathAudit> = {};
    this.#paths.forEach((name, i) => {
      const at = i * WIDTH;
      if (sums[at] === 0) return;
      const patterns: Partial<Record<InjectionPattern, number>> = {};
      PATTERNS.forEach((p, k) => {
        const n = sums[at + 3 + k] as number;
        if (n > 0) patterns[p] = n;
      });
      summary[name] = { values: sums[at] as number, changed: sums[at + 1] as number, injected: sums[at + 2] as number, patterns };
    });
    return summary;
  }

  /** A text value: bytes `[start, end)`. */
  #text(bytes: Buffer, start: number, end: number, base: number): void {
    bump(this.#sums, base);
    if (utf8MayMatter(bytes, start, end)) this.#exact(bytes.toString("utf8", start, end), base);
  }

  /** Every string in a parsed JSON value. */
  #parsed(value: unknown, base: number): void {
    if (typeof value === "string") {
      bump(this.#sums, base);
      this.#exact(value, base);
    } else if (Array.isArray(value)) {
      for (const v of value) this.#parsed(v, base);
    } else if (value !== null && typeof value === "object") {
      for (const v of Object.values(value)) this.#parsed(v, base);
    }
  }

  /** A text the byte pass could not clear: what the sanitizer and the injection patterns answer for it. */
  #exact(text: string, base: number): void {
    const sums = this.#sums;
    if (sanitizeText(text).changed) bump(sums, base + 1);
    const patterns = scanInjection(text);
    if (patterns.length === 0) return;
    bump(sums, base + 2);
    for (const p of patterns) bump(sums, base + 3 + PATTERNS.indexOf(p));
  }
}

/** The Parquet path of a field path's leaves (`column-plan.ts`): a list's items under `list.element`, a map's values under `list.element.value`. */
function parquetPrefix(path: string): string[] {
  return parsePath(path).flatMap((step) => (step.kind === "field" ? [step.name] : step.kind === "items" ? ["list", "element"] : ["list", "element", "value"]));
}

function bump(sums: Float64Array, at: number): void {
  sums[at] = (sums[at] as number) + 1;
}
