/**
 * A JSON-typed value's text `[start, end)` of `src`, copied, as a skeleton holds it: the one view that reads
 * one (`rl-steps`' observation) writes the bytes as they are when they are already `JSON.stringify`'s text,
 * which saves a `JSON.parse` here and a `JSON.stringify` there (src/views/is-stringify-form.ts).
 */
export function jsonBytes(src: Uint8Array, start: number, end: number): Uint8Array {
  const copy = new Uint8Array(end - start);
  // A byte loop: `src` is a Buffer, whose `subarray` (for `set`) costs more than copying a short value (~150 bytes).
  if (end - start <= 512) for (let i = start; i < end; i++) copy[i - start] = src[i] as number;
  else copy.set(new Uint8Array(src.buffer, src.byteOffset + start, end - start));
  return copy;
}
