type TypedArray = Uint8Array | Uint32Array | Int32Array | Float64Array;

/**
 * A copy of `from` at least `need` long, twice as long at each step (appends stay amortised O(1)), of the
 * same type. For short-lived arrays; what lives the whole run grows by chunks instead (ChunkedColumn).
 */
export function grown<T extends TypedArray>(from: T, need: number): T {
  let size = Math.max(1, from.length) * 2;
  while (size < need) size *= 2;
  const to = new (from.constructor as new (length: number) => T)(size);
  to.set(from);
  return to;
}
