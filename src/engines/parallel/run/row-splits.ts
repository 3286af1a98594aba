import type { FormatName } from "../../../formats/format.js";
import { SplitAssigner } from "../../../splits/split-assigner.js";
import type { SplitRequest } from "../../../splits/split-assigner.js";
import type { BatchSplits } from "./protocol.js";

/**
 * A worker's side of a split run (`--split`): each kept record's group, read from its skeleton (the group's
 * paths are among the rules' reads), and its split, hashed once per group (src/splits, the stages engine's
 * rule). Main gets a batch's groups and their splits (it counts them and rotates each split's shards); the
 * worker keeps each split's rows in a row group of their own, and each row's split, to share out main's
 * decisions (which run over a unit's rows in read order) among them.
 */
export class RowSplits {
  readonly #assigner: SplitAssigner;
  /** Each split's index in the plan's order, by name. */
  readonly #index = new Map<string, number>();
  /** Split index per group, hashed once per group for the whole run. */
  readonly #splitOf = new Map<string, number>();
  /** The batch's groups, in order of first row, and their place. */
  #groups = new Map<string, number>();
  #rowGroups: number[] = [];
  /** Each unit's rows' splits, in read order. */
  readonly #units = new Map<number, number[]>();
  /**
   * The split most rows go to (the largest fraction): the fast parser writes each row into its row group,
   * before the row's group is known, and only the other splits' rows then move.
   */
  readonly home: number;

  constructor(request: SplitRequest, format: FormatName) {
    this.#assigner = new SplitAssigner(request, format);
    this.#assigner.names.forEach((name, i) => this.#index.set(name, i));
    const fractions = Object.values(request.fractions);
    this.home = fractions.indexOf(Math.max(...fractions));
  }

  /** Number of splits. */
  get count(): number {
    return this.#assigner.names.length;
  }

  /** A record's group, `read` as validated (or its skeleton). */
  keyOf(read: Readonly<Record<string, unknown>>): string {
    return this.#assigner.keyOf(read);
  }

  /** The split (its index) of group `key`. */
  splitOf(key: string): number {
    let split = this.#splitOf.get(key);
    if (split === undefined) {
      split = this.#index.get(this.#assigner.splitOfGroup(key)) as number;
      this.#splitOf.set(key, split);
    }
    return split;
  }

  /** A LINE_ROW record of `unit`, of group `key` in `split`, which gave `rows` rows. */
  add(unit: number, key: string, split: number, rows: number): void {
    let group = this.#groups.get(key);
    if (group === undefined) this.#groups.set(key, (group = this.#groups.size));
    this.#rowGroups.push(group);
    let splits = this.#units.get(unit);
    if (splits === undefined) this.#units.set(unit, (splits = []));
    for (let r = 0; r < rows; r++) splits.push(split);
  }

  /** The batch's groups for main; the next batch starts afresh. */
  batchDone(): BatchSplits {
    const groups = [...this.#groups.keys()];
    const splitOf = Uint8Array.from(groups, (key) => this.#splitOf.get(key) as number);
    const done = { groups, splitOf, rowGroups: Uint32Array.from(this.#rowGroups) };
    this.#groups = new Map();
    this.#rowGroups = [];
    return done;
  }

  /**
   * Main's `keep` (1 per row of `unit`, in read order) shared out among the splits: each split's, for its
   * rows in their order. Forgets the unit.
   */
  keepPerSplit(unit: number, keep: Uint8Array): Uint8Array[] {
    const splits = this.#units.get(unit) ?? [];
    this.#units.delete(unit);
    if (splits.length !== keep.length) throw new Error(`Internal error: unit ${unit} has ${splits.length} rows with splits, main decided ${keep.length}`);
    const counts = new Array<number>(this.count).fill(0);
    for (const split of splits) counts[split] = (counts[split] as number) + 1;
    const per = counts.map((n) => new Uint8Array(n));
    counts.fill(0);
    for (let r = 0; r < splits.length; r++) {
      const split = splits[r] as number;
      (per[split] as Uint8Array)[(counts[split] as number)++] = keep[r] as number;
    }
    return per;
  }
}
