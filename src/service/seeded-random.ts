/** One part of a hash path: a label or a whole number (negative numbers allowed, e.g. epochs). */
export type HashPart = string | number;

/** 32-bit avalanche mix (the murmur3 finaliser): every input bit flips about half the output bits. */
export function mix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * A 32-bit hash of a seed and a path of parts. Everything the emulator generates is keyed by such a
 * path (e.g. `[seed, "run", n]`), so any piece of the world can be produced alone and on demand.
 */
export function hashOf(seed: number, ...parts: readonly HashPart[]): number {
  let h = mix32((seed >>> 0) ^ 0x9e3779b9);
  for (const part of parts) {
    if (typeof part === "number") {
      // Two halves so that numbers beyond 32 bits (and negatives) hash without collisions.
      h = mix32(h ^ (part >>> 0));
      h = mix32(h + (Math.floor(part / 4294967296) | 0) + 0x6d2b79f5);
    } else {
      for (let i = 0; i < part.length; i++) h = Math.imul(h ^ part.charCodeAt(i), 0x01000193);
      h = mix32(h ^ part.length ^ 0x27d4eb2f);
    }
  }
  return h;
}

/** A 32-bit number as 8 lowercase hex digits: the emulator's ids, account ids and key secrets are made of them. */
export function hex8(n: number): string {
  return n.toString(16).padStart(8, "0");
}

/** A uniform number in [0, 1) from a hash path: for one-off decisions that need no generator. */
export function unitOf(seed: number, ...parts: readonly HashPart[]): number {
  return hashOf(seed, ...parts) / 4294967296;
}

/**
 * A small, fast deterministic generator (sfc32). Cheap to create, so code makes one per concern
 * (`new SeededRandom(seed, "steps", run, seat)`) instead of sharing one whose order would matter.
 */
export class SeededRandom {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number, ...parts: readonly HashPart[]) {
    const h = hashOf(seed, ...parts);
    this.a = mix32(h ^ 0x243f6a88);
    this.b = mix32(h ^ 0x85a308d3);
    this.c = mix32(h ^ 0x13198a2e);
    this.d = 1;
    // Discard the first outputs: sfc32 needs a few rounds to decorrelate close seeds.
    for (let i = 0; i < 12; i++) this.next();
  }

  /** A uniform number in [0, 1). */
  next(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return (t >>> 0) / 4294967296;
  }

  /** A whole number from `lo` to `hi`, both included. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** One element of a non-empty array. */
  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new RangeError("pick() from an empty array");
    return item;
  }

  /** `k` distinct elements, in a random order. */
  sample<T>(items: readonly T[], k: number): T[] {
    const copy = [...items];
    for (let i = copy.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
    }
    return copy.slice(0, k);
  }

  /** An index into `weights`, chosen in proportion to them. */
  weighted(weights: readonly number[]): number {
    const total = weights.reduce((s, w) => s + w, 0);
    let u = this.next() * total;
    for (const [i, w] of weights.entries()) {
      if (u < w) return i;
      u -= w;
    }
    return weights.length - 1;
  }

  /** `n` lowercase hex digits. */
  hex(n: number): string {
    let out = "";
    while (out.length < n) out += hex8(Math.floor(this.next() * 4294967296) >>> 0);
    return out.slice(0, n);
  }
}
