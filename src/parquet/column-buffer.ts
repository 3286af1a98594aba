import { ConfigError } from "../core/errors.js";
import { INT64_MAX, INT64_MIN } from "../core/exact-json.js";
import type { Leaf, LeafType } from "./column-plan.js";
import type { LeafWriter } from "./leaf-writer.js";

/** `Buffer#utf8Write`: undocumented but stable since Node 0.x, and the fastest way to put a string at an offset. */
type Utf8Buffer = Buffer & { utf8Write(text: string, offset: number, length?: number): number };

const TWO_32 = 4294967296;
/** Strings up to this many UTF-16 units are copied by a JS loop when ASCII: cheaper than a native call. */
const SHORT_TEXT = 24;
/**
 * Byte ranges up to this length are copied by a loop rather than through a view and a native `set` (whose
 * allocation and call cost more than the copy below this).
 */
const SHORT_BYTES = 128;

/** Bytes a present value takes in the buffer (booleans one byte, bit-packed only when encoded); 0 for BYTE_ARRAY. */
export function valueWidth(type: LeafType): number {
  return type === "int64" || type === "float64" ? 8 : type === "bool" ? 1 : 0;
}

/** How much of a column's buffers (or its first rows) is in use: levels, present values, and value bytes. */
export interface ColumnLengths {
  readonly entries: number;
  readonly valueCount: number;
  readonly valueBytes: number;
}

/**
 * One leaf column of a row group being built: its definition and repetition levels, and its present
 * values already in Parquet's PLAIN encoding (BYTE_ARRAY: 4-byte LE length then UTF-8; INT64 and DOUBLE:
 * 8 bytes LE; BOOLEAN: one 0/1 byte each, bit-packed when the page is encoded). A level array whose
 * maximum is 0 is not stored. This is the shredder's hot path: no allocation per call, growth by doubling.
 */
export class ColumnBuffer implements LeafWriter {
  readonly leaf: Leaf;
  readonly maxDef: number;
  readonly maxRep: number;
  /** Bytes per present value, 0 for variable-length values. */
  readonly width: number;
  /** Definition level per entry (empty when `maxDef` is 0). */
  defs: Uint8Array;
  /** Repetition level per entry (empty when `maxRep` is 0). */
  reps: Uint8Array;
  values: Utf8Buffer;
  view: DataView;
  /** Levels written: one per call. */
  entries = 0;
  /** Present values written. */
  valueCount = 0;
  /** Bytes of `values` in use. */
  valueBytes = 0;
  #levelCapacity: number;
  readonly #storeDefs: boolean;
  readonly #storeReps: boolean;
  #markEntries = 0;
  #markValueCount = 0;
  #markValueBytes = 0;

  /**
   * `capacity`: levels (and 16 bytes a level of variable-width values) before the first growth. Small on
   * purpose, so the growth path runs within a worker's first rows (docs/decisions.md "hot code shape", cold
   * paths). `valueBytes`: room for values before the first growth.
   */
  constructor(leaf: Leaf, capacity = 64, valueBytes = capacity * (valueWidth(leaf.type) || 16)) {
    if (leaf.maxDef > 255 || leaf.maxRep > 255) {
      throw new ConfigError(`${leaf.path.join(".")} is nested ${Math.max(leaf.maxDef, leaf.maxRep)} levels deep; at most 255 are supported`);
    }
    this.leaf = leaf;
    this.maxDef = leaf.maxDef;
    this.maxRep = leaf.maxRep;
    this.width = valueWidth(leaf.type);
    this.#storeDefs = leaf.maxDef > 0;
    this.#storeReps = leaf.maxRep > 0;
    this.#levelCapacity = capacity;
    this.defs = new Uint8Array(this.#storeDefs ? capacity : 0);
    this.reps = new Uint8Array(this.#storeReps ? capacity : 0);
    this.values = Buffer.allocUnsafeSlow(valueBytes) as Utf8Buffer;
    this.view = new DataView(this.values.buffer, this.values.byteOffset, this.values.length);
  }

  /** Levels the column holds before it grows. */
  get levelCapacity(): number {
    return this.#levelCapacity;
  }

  /** Entries without a value (nulls, and absent or empty ancestors), as Parquet's `null_count` counts them. */
  get nullCount(): number {
    return this.entries - this.valueCount;
  }

  bytes(src: Uint8Array, start: number, end: number, rep: number): void {
    this.#level(this.maxDef, rep);
    const n = end - start;
    const at = this.#reserve(4 + n);
    const values = this.values;
    this.view.setUint32(at, n, true);
    if (n <= SHORT_BYTES) {
      // Four bytes a step: a byte loop re-checks both arrays at every byte (docs/decisions.md "hot code shape", typed arrays).
      const from = sourceView(src);
      const to = this.view;
      let i = 0;
      for (; i + 4 <= n; i += 4) to.setUint32(at + 4 + i, from.getUint32(start + i, true), true);
      for (; i < n; i++) values[at + 4 + i] = src[start + i] as number;
    } else {
      // A plain view: `subarray` of a Buffer builds a Buffer, whose constructor costs more than the copy.
      values.set(viewOf(src, start, n), at + 4);
    }
    this.valueBytes = at + 4 + n;
    this.valueCount++;
  }

  text(value: string, rep: number): void {
    if (typeof value !== "string") this.#wrongType(value, "a string");
    this.#level(this.maxDef, rep);
    const length = value.length;
    const at = this.#reserve(4 + 3 * length);
    const values = this.values;
    let n = 0;
    if (length <= SHORT_TEXT) {
      for (; n < length; n++) {
        const c = value.charCodeAt(n);
        if (c >= 0x80) break;
        values[at + 4 + n] = c;
      }
    }
    // Not short or not ASCII: the native encoder takes it (lone surrogates become U+FFFD, as in UTF-8 text).
    if (n < length) n = values.utf8Write(value, at + 4);
    this.view.setUint32(at, n, true);
    this.valueBytes = at + 4 + n;
    this.valueCount++;
  }

  int64(value: number | bigint, rep: number): void {
    // A bigint: an exact integer beyond 2^53 (a seed, core/exact-json.ts); rare, so off the number path.
    if (typeof value === "bigint") return this.#bigInt64(value, rep);
    if (!Number.isSafeInteger(value)) this.#wrongType(value, "a safe integer");
    this.#level(this.maxDef, rep);
    const at = this.#reserve(8);
    // Two's complement from a safe integer without BigInt: floor division keeps the low word in [0, 2^32).
    const hi = Math.floor(value / TWO_32);
    this.view.setUint32(at, value - hi * TWO_32, true);
    this.view.setInt32(at + 4, hi, true);
    this.valueBytes = at + 8;
    this.valueCount++;
  }

  #bigInt64(value: bigint, rep: number): void {
    if (value < INT64_MIN || value > INT64_MAX) this.#wrongType(value, "an integer in the int64 range");
    this.#level(this.maxDef, rep);
    const at = this.#reserve(8);
    this.view.setBigInt64(at, value, true);
    this.valueBytes = at + 8;
    this.valueCount++;
  }

  float64(value: number, rep: number): void {
    if (typeof value !== "number") this.#wrongType(value, "a number");
    this.#level(this.maxDef, rep);
    const at = this.#reserve(8);
    this.view.setFloat64(at, value, true);
    this.valueBytes = at + 8;
    this.valueCount++;
  }

  bool(value: boolean, rep: number): void {
    if (typeof value !== "boolean") this.#wrongType(value, "a boolean");
    this.#level(this.maxDef, rep);
    const at = this.#reserve(1);
    this.values[at] = value ? 1 : 0;
    this.valueBytes = at + 1;
    this.valueCount++;
  }

  missing(def: number, rep: number): void {
    this.#level(def, rep);
  }

  /**
   * Writes the entry written last `n` more times, its levels and value copied as they are encoded: for a
   * value that each of a record's rows repeats (a view's per-record columns), written once and then copied,
   * not encoded again. `from`: where the value's bytes began (`valueBytes` before it was written).
   */
  repeatLast(n: number, from: number): void {
    if (n <= 0) return;
    const e = this.entries;
    while (e + n > this.#levelCapacity) this.#growLevels();
    if (this.#storeDefs) repeatByte(this.defs, e, n);
    if (this.#storeReps) repeatByte(this.reps, e, n);
    this.entries = e + n;
    const size = this.valueBytes - from;
    if (size === 0) return;
    const total = size * n;
    const at = this.#reserve(total);
    const values = this.values;
    // Forward over the value just before: each step reads bytes already copied, `size` back.
    if (total <= SHORT_BYTES * 4) {
      let i = 0;
      if (size >= 4) {
        const view = this.view;
        for (; i + 4 <= total; i += 4) view.setUint32(at + i, view.getUint32(from + i, true), true);
      }
      for (; i < total; i++) values[at + i] = values[from + i] as number;
    } else {
      values.copyWithin(at, from, at);
      for (let done = size; done < total; done *= 2) values.copyWithin(at + done, at, at + Math.min(done, total - done));
    }
    this.valueBytes = at + total;
    this.valueCount += n;
  }

  /** Remembers the current lengths: the start of a row {@link rollback} can return to. */
  mark(): void {
    this.#markEntries = this.entries;
    this.#markValueCount = this.valueCount;
    this.#markValueBytes = this.valueBytes;
  }

  /** Drops everything written since the last {@link mark}. */
  rollback(): void {
    this.entries = this.#markEntries;
    this.valueCount = this.#markValueCount;
    this.valueBytes = this.#markValueBytes;
  }

  /**
   * Moves what was written since the last {@link mark} (the row begun last) to the end of `to`, a column of
   * the same leaf, where it is then the row begun last; here it is rolled back. Short runs are copied by a
   * loop (as in {@link bytes}): most of a row's columns hold a few levels and bytes.
   */
  moveRowTo(to: ColumnBuffer): void {
    const e0 = this.#markEntries;
    const n = this.entries - e0;
    const b0 = this.#markValueBytes;
    const bytes = this.valueBytes - b0;
    to.mark();
    while (to.entries + n > to.#levelCapacity) to.#growLevels();
    const at = to.#reserve(bytes);
    const e = to.entries;
    if (this.#storeDefs) copy(this.defs, e0, to.defs, e, n);
    if (this.#storeReps) copy(this.reps, e0, to.reps, e, n);
    copy(this.values, b0, to.values, at, bytes);
    to.entries = e + n;
    to.valueBytes = at + bytes;
    to.valueCount += this.valueCount - this.#markValueCount;
    this.rollback();
  }

  /** Empties the column, keeping its memory. */
  clear(): void {
    this.entries = 0;
    this.valueCount = 0;
    this.valueBytes = 0;
    this.mark();
  }

  /** How much of its buffers the column uses. */
  get lengths(): ColumnLengths {
    return { entries: this.entries, valueCount: this.valueCount, valueBytes: this.valueBytes };
  }

  /** Makes the column's lengths these (a prefix shown, or after the column was compacted in place). */
  truncate({ entries, valueCount, valueBytes }: ColumnLengths): void {
    this.entries = entries;
    this.valueCount = valueCount;
    this.valueBytes = valueBytes;
    this.mark();
  }

  /** Drops the column's first rows, whose lengths are `first` (`rowPrefix`'s): what follows moves to the front. */
  dropFirst(first: ColumnLengths): void {
    if (this.#storeDefs) this.defs.copyWithin(0, first.entries, this.entries);
    if (this.#storeReps) this.reps.copyWithin(0, first.entries, this.entries);
    this.values.copyWithin(0, first.valueBytes, this.valueBytes);
    this.truncate({ entries: this.entries - first.entries, valueCount: this.valueCount - first.valueCount, valueBytes: this.valueBytes - first.valueBytes });
  }

  /**
   * Refuses a value of the wrong kind before anything is written: stored as is it would become silent
   * garbage (a string's length is not a number, NaN is no integer). Kept out of line, off the hot path.
   */
  #wrongType(value: unknown, expected: string): never {
    const shown = typeof value === "string" ? JSON.stringify(value.slice(0, 40)) : typeof value === "object" ? (Array.isArray(value) ? "an array" : "an object") : String(value);
    throw new TypeError(`${this.leaf.path.join(".")} takes ${expected}, got ${shown}`);
  }

  #level(def: number, rep: number): void {
    const e = this.entries;
    if (e === this.#levelCapacity) this.#growLevels();
    if (this.#storeDefs) this.defs[e] = def;
    if (this.#storeReps) this.reps[e] = rep;
    this.entries = e + 1;
  }

  /** Makes room for `n` more value bytes and returns where they go. */
  #reserve(n: number): number {
    const at = this.valueBytes;
    if (at + n > this.values.length) this.#growValues(at + n);
    return at;
  }

  #growLevels(): void {
    const capacity = this.#levelCapacity * 2;
    if (this.#storeDefs) this.defs = grow(this.defs, capacity, this.entries);
    if (this.#storeReps) this.reps = grow(this.reps, capacity, this.entries);
    this.#levelCapacity = capacity;
  }

  #growValues(needed: number): void {
    let capacity = this.values.length * 2;
    while (capacity < needed) capacity *= 2;
    const values = Buffer.allocUnsafeSlow(capacity) as Utf8Buffer;
    values.set(new Uint8Array(this.values.buffer, this.values.byteOffset, this.valueBytes));
    this.values = values;
    this.view = new DataView(values.buffer, values.byteOffset, values.length);
  }
}

/**
 * The source `bytes` saw last (the walk's: the wasm scan memory, line after line), with its ArrayBuffer and
 * offset: `buffer` is a native getter, a call into the runtime per value, which cost as much as the view built on it.
 */
let lastSource: Uint8Array | null = null;
let lastBuffer: ArrayBufferLike = new ArrayBuffer(0);
let lastOffset = 0;
let lastView: DataView<ArrayBufferLike> = new DataView(lastBuffer);

/** A DataView over the whole of `src`. */
function sourceView(src: Uint8Array): DataView<ArrayBufferLike> {
  if (src !== lastSource) remember(src);
  return lastView;
}

function remember(src: Uint8Array): void {
  lastSource = src;
  lastBuffer = src.buffer;
  lastOffset = src.byteOffset;
  lastView = new DataView(lastBuffer, lastOffset, src.byteLength);
}

/** A plain Uint8Array over `n` bytes of `src` at `start`. */
function viewOf(src: Uint8Array, start: number, n: number): Uint8Array {
  if (src !== lastSource) remember(src);
  return new Uint8Array(lastBuffer, lastOffset + start, n);
}

/**
 * Copies `n` bytes of `from` at `start` into `to` at `at`. A plain view, not `subarray`: `values` is a Buffer,
 * whose `subarray` builds a Buffer.
 */
function copy(from: Uint8Array, start: number, to: Uint8Array, at: number, n: number): void {
  if (n <= SHORT_BYTES) for (let i = 0; i < n; i++) to[at + i] = from[start + i] as number;
  else to.set(new Uint8Array(from.buffer, from.byteOffset + start, n), at);
}

/** Sets the `n` bytes of `levels` from `at` to the byte before them. */
function repeatByte(levels: Uint8Array, at: number, n: number): void {
  const level = levels[at - 1] as number;
  for (let i = at; i < at + n; i++) levels[i] = level;
}

function grow(array: Uint8Array, capacity: number, used: number): Uint8Array {
  const next = new Uint8Array(capacity);
  next.set(array.subarray(0, used));
  return next;
}
