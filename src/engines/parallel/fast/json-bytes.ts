/**
 * A JSON-typed value's text `[start, end)` of `src`, copied, as a skeleton holds it: the one view that reads
 * one (`rl-steps`' observation) writes the bytes as they are when they are already `JSON.stringify`'s text,
 * which saves a `JSON.parse` here and a `JSON.stringify` there (src/views/is-stringify-form.ts).
 */
export function jsonBytes(src: Uint8Array, start: number, end: number): Uint8Array {
  const copy = new Uint8Array(end - start);
  copy.set(src.subarray(start, end));
  return copy;
}
