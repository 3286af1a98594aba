/**
 * Where shredded values go: one writer per leaf column, in {@link ColumnPlan} leaf order. Every call adds
 * one entry (a definition level, a repetition level and, for a present value, the value).
 */
export interface LeafWriter {
  /** A present string or JSON text, given as UTF-8 bytes `src[start, end)`. */
  bytes(src: Uint8Array, start: number, end: number, rep: number): void;
  /** A present string or JSON text, given as a JS string (written as UTF-8). */
  text(value: string, rep: number): void;
  /** A present integer: a safe integer, or a bigint for an exact integer beyond 2^53 (core/exact-json.ts). */
  int64(value: number | bigint, rep: number): void;
  float64(value: number, rep: number): void;
  bool(value: boolean, rep: number): void;
  /** No value at this leaf: `def` is below the leaf's max (a null, or an absent or empty ancestor). */
  missing(def: number, rep: number): void;
}
