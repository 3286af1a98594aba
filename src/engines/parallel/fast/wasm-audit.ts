import { WASM_SCAN } from "./wasm-scan.js";

/**
 * The most bytes of values copied at once: the scratch area holds a whole batch, but pages a run touches stay
 * in a worker's RSS, and 1 MiB runs cost no more time (a unit's column is a few calls).
 */
const RUN_BYTES = 1 << 20;
/** Bytes the module reads past a copied run (a 16-byte step's look two bytes on, a lead byte's two next bytes): kept 0. */
const SLACK = 32;

/**
 * The text-audit prefilter (src/engines/parallel/wasm/audit.ts) in this thread's wasm scan module, over a
 * column's values (each a u32 length then its bytes, as a row group builder holds them): a run of them at a
 * time, copied into the walk's scratch area, which no walk uses between batches.
 */
export class WasmAudit {
  /** Where a run's values were copied from, minus where they lie in the module: add it to an address the module answers. */
  shift = 0;
  /** Where the values the last call took end, in the caller's bytes: as far as whole values fitted the module. */
  stop = 0;

  /** Whether this thread has scan memory (else the caller tests each value alone). */
  ready(): boolean {
    return WASM_SCAN.walk.scratchBytes > SLACK;
  }

  /**
   * Per text value from `values[from]` on (before `to`, as many whole ones as fit a run; {@link stop} says
   * how many bytes): 1 when its text may matter. Valid until the next call.
   */
  texts(values: Uint8Array, from: number, to: number): Uint8Array {
    const { scratch, tape } = WASM_SCAN.walk;
    const count = WASM_SCAN.exports.auditTexts(scratch, scratch + this.#copy(values, from, to), tape);
    this.stop = WASM_SCAN.exports.auditStop() + this.shift;
    return new Uint8Array(WASM_SCAN.buffer, tape, count);
  }

  /**
   * Whether the text of UTF-8 bytes `[start, end)` of `bytes` may matter; undefined when the bytes do not lie in this thread's module memory (a walk's string does)
   * or the module cannot take them. No copy: the module reads them where they are.
   */
  inMemory(bytes: Uint8Array, start: number, end: number): boolean | undefined {
    if (bytes.buffer !== WASM_SCAN.buffer || !this.ready()) return undefined;
    const at = bytes.byteOffset + start;
    // The module's 16-byte steps read up to 3 bytes past a text (deciding nothing by them): they must be memory.
    if (at + (end - start) + 3 > WASM_SCAN.buffer.byteLength) return undefined;
    return WASM_SCAN.exports.auditText(at, at + (end - start)) === 1;
  }

  /**
   * Per JSON value from `values[from]` on (as {@link texts} takes them): its count of strings that are not keys
   * (-1: read it with JSON.parse), of those that may matter, its address, then those literals' [start, end)
   * addresses (plus {@link shift}: offsets into `values`). Valid until the next call.
   */
  json(values: Uint8Array, from: number, to: number): Int32Array {
    const { scratch, tape, tapeBytes } = WASM_SCAN.walk;
    const end = WASM_SCAN.exports.auditJson(scratch, scratch + this.#copy(values, from, to), tape, tape + tapeBytes);
    this.stop = WASM_SCAN.exports.auditStop() + this.shift;
    return new Int32Array(WASM_SCAN.buffer, tape, (end - tape) >> 2);
  }

  /** Copies as much of `values[from, to)` as fits the scratch area; the bytes copied. */
  #copy(values: Uint8Array, from: number, to: number): number {
    if (!this.ready()) throw new Error("Internal error: the wasm audit pass ran on a thread without scan memory");
    const { scratch, scratchBytes } = WASM_SCAN.walk;
    const bytes = Math.min(to - from, scratchBytes - SLACK, RUN_BYTES);
    const memory = new Uint8Array(WASM_SCAN.buffer, scratch, bytes + SLACK);
    memory.set(values.subarray(from, from + bytes));
    memory.fill(0, bytes);
    this.shift = from - scratch;
    return bytes;
  }
}
