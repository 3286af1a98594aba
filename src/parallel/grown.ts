type TypedArray = Uint8Array | Uint32Array | Int32Array | Float64Array;

/** The growth factor for arrays that live the whole run (see {@link grown}). */
export const LONG_LIVED_GROWTH = 8;

/**
 * A copy of `from` at least `need` long, `factor` times as long at each step (appends stay amortised O(1)),
 * of the same type.
 *
 * For arrays that live the whole run, a large factor: the copies it leaves behind are garbage until a full
 * GC, which main rarely runs, so with doubling they held as much memory again as the live array; pages of the
 * new array not yet written cost nothing.
 */
export function grown<T extends TypedArray>(from: T, need: number, factor = 2): T {
  let size = Math.max(1, from.length) * factor;
  while (size < need) size *= factor;
  const to = new (from.constructor as new (length: number) => T)(size);
  to.set(from);
  return to;
}
