/**
 * A fixed-bin histogram with its count, min, max and sum: partials made anywhere (a worker's unit, a nightly
 * bucket) merge exactly, which quantiles or adaptive bins would not. A value's bin is `floor(value / width)`
 * on the value rounded to 1e-6 first, so a score of 3.0 lands in [3.0, 3.1) however it was summed. The sum
 * is kept in whole millionths, so partials add up to the same mean in any order (floats would not).
 */
export class Histogram {
  count = 0;
  min = Infinity;
  max = -Infinity;
  /** Σ value × rows, in millionths. */
  sum = 0;
  readonly bins = new Map<number, number>();

  constructor(readonly width: BinWidth) {}

  add(value: number, n = 1): void {
    this.count += n;
    if (value < this.min) this.min = value;
    if (value > this.max) this.max = value;
    this.sum += Math.round(value * 1e6) * n;
    const bin = binOf(value, this.width);
    this.bins.set(bin, (this.bins.get(bin) ?? 0) + n);
  }

  merge(other: HistogramPartial): void {
    if (other.count === 0) return;
    this.count += other.count;
    this.min = Math.min(this.min, other.min as number);
    this.max = Math.max(this.max, other.max as number);
    this.sum += other.sum;
    for (const [bin, n] of other.bins) this.bins.set(bin, (this.bins.get(bin) ?? 0) + n);
  }

  toJSON(): HistogramPartial {
    const empty = this.count === 0;
    return { count: this.count, min: empty ? null : this.min, max: empty ? null : this.max, sum: this.sum, bins: [...this.bins].sort(([a], [b]) => a - b) };
  }
}

/** A histogram as it is stored (a partial) and shown: bins as `[index, count]`, ascending. */
export interface HistogramPartial {
  readonly count: number;
  readonly min: number | null;
  readonly max: number | null;
  /** Σ value × rows, in whole millionths. */
  readonly sum: number;
  readonly bins: readonly (readonly [number, number])[];
}

/** A histogram's bins: a fixed width (scores), or "log2" (token lengths), as the manifest's `bin_width` names them. */
export type BinWidth = number | "log2";

/** A bin's lower edge as the manifest shows it: a multiple of the width (to 1e-6), or 2^k (the zero bin: 0). */
export function binLower(bin: number, width: BinWidth): number {
  return width === "log2" ? (bin < 0 ? 0 : 2 ** bin) : Math.round(bin * width * 1e6) / 1e6;
}

/**
 * A value's bin. A fixed width's: on the value rounded to 1e-6 (integers scaled, so no float edge splits a
 * bin). Log2's: bin k holds [2^k, 2^(k+1)) tokens, bin -1 zero tokens.
 */
export function binOf(value: number, width: BinWidth): number {
  return width === "log2" ? (value < 1 ? -1 : 31 - Math.clz32(value)) : Math.floor(Math.round(value * 1e6) / Math.round(width * 1e6));
}
