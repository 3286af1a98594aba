import { grown } from "../core/grown.js";

/** A seat's per-trait means: `means[i]` is trait `names[i]`'s, NaN where the seat has no mean for it. */
export interface SeatTraits {
  readonly names: readonly string[];
  readonly means: ArrayLike<number>;
}

type PerTrait = Readonly<Record<string, { readonly mean: number }>>;

/** A `TraitTable` as it crosses to a worker (typed arrays and a few name lists: cheap to clone). */
export interface TraitTableData {
  /** Each distinct list of trait names, in the order its first card gave them. */
  readonly shapes: readonly (readonly string[])[];
  /** Per seat: its names' index in `shapes`. */
  readonly shapeOf: Uint32Array;
  /** Per seat: where its means start in `means` (one more entry: the end). */
  readonly starts: Uint32Array;
  readonly means: Float64Array;
}

/**
 * The per-trait means of a score book's cards, by card index, held for a whole night: one Float64Array of
 * means and each seat's list of names interned (cards of one world share a handful of lists), so a seat
 * costs its means and 8 bytes, not an object (docs/decisions.md, "Per-trait means in the score book").
 */
export class TraitTable {
  readonly #shapes: string[][] = [];
  readonly #shapeIds = new Map<string, number>();
  #shapeOf: Uint32Array = new Uint32Array(64);
  #starts: Uint32Array = new Uint32Array(65);
  #means: Float64Array = new Float64Array(256);
  #size = 0;

  static of(data: TraitTableData): TraitTable {
    const table = new TraitTable();
    for (const [i, names] of data.shapes.entries()) {
      table.#shapes.push([...names]);
      table.#shapeIds.set(shapeKey(names), i);
    }
    table.#shapeOf = data.shapeOf;
    table.#starts = data.starts;
    table.#means = data.means;
    table.#size = data.shapeOf.length;
    return table;
  }

  get size(): number {
    return this.#size;
  }

  /** Appends the next card's means as another table's {@link seat} gives them (a pull's cards, kept across nights). */
  addSeat({ names, means }: SeatTraits): void {
    const key = shapeKey(names);
    let shape = this.#shapeIds.get(key);
    if (shape === undefined) {
      shape = this.#shapes.push([...names]) - 1;
      this.#shapeIds.set(key, shape);
    }
    const at = this.#size;
    if (at >= this.#shapeOf.length) this.#shapeOf = grown(this.#shapeOf, at + 1);
    if (at + 1 >= this.#starts.length) this.#starts = grown(this.#starts, at + 2);
    const start = this.#starts[at] ?? 0;
    if (start + names.length > this.#means.length) this.#means = grown(this.#means, start + names.length);
    for (let i = 0; i < names.length; i++) this.#means[start + i] = means[i] ?? Number.NaN;
    this.#shapeOf[at] = shape;
    this.#starts[at + 1] = start + names.length;
    this.#size = at + 1;
  }

  /** Card `index`'s means (a view on the table, not a copy). */
  seat(index: number): SeatTraits {
    const start = this.#starts[index] ?? 0;
    return { names: this.#shapes[this.#shapeOf[index] ?? 0] ?? [], means: this.#means.subarray(start, this.#starts[index + 1] ?? start) };
  }

  /** Each trait's mean over the cards `indices` that have one (a DPO pair's run: its seats' means averaged, as its composite is). */
  mean(indices: readonly number[]): SeatTraits {
    const sums = new Map<string, [sum: number, n: number]>();
    for (const index of indices) {
      const { names, means } = this.seat(index);
      for (const [i, name] of names.entries()) {
        const m = means[i] as number;
        if (!Number.isFinite(m)) continue;
        const s = sums.get(name);
        if (s === undefined) sums.set(name, [m, 1]);
        else (s[0] += m), s[1]++;
      }
    }
    return { names: [...sums.keys()], means: Float64Array.from(sums.values(), ([sum, n]) => sum / n) };
  }

  /** The table trimmed to its cards, for a worker. */
  toData(): TraitTableData {
    const size = this.#size;
    const end = this.#starts[size] ?? 0;
    return { shapes: this.#shapes, shapeOf: this.#shapeOf.slice(0, size), starts: this.#starts.slice(0, size + 1), means: this.#means.slice(0, end) };
  }
}

/** A card's `per_trait` (spec 2.7: name -> `{mean}`) as a seat's means, every trait as the card has it. */
export function seatTraitsOf(perTrait: PerTrait): SeatTraits {
  const names = Object.keys(perTrait);
  return { names, means: names.map((name) => perTrait[name]?.mean ?? Number.NaN) };
}

function shapeKey(names: readonly string[]): string {
  return JSON.stringify(names);
}
