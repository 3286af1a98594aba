type TypedArray = Uint8Array | Uint32Array | Int32Array | Float64Array;

/** A copy of `from` at least `need` long (doubling, so appends stay amortised O(1)), of the same type. */
export function grown<T extends TypedArray>(from: T, need: number): T {
  let size = Math.max(1, from.length) * 2;
  while (size < need) size *= 2;
  const to = new (from.constructor as new (length: number) => T)(size);
  to.set(from);
  return to;
}
