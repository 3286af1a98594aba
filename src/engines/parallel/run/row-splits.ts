import type { FormatName } from "../../../formats/format.js";
import { SplitAssigner } from "../../../splits/split-assigner.js";
import type { SplitRequest } from "../../../splits/split-assigner.js";
import type { BatchSplits } from "./protocol.js";

/**
 * A worker's side of a split run (`--split`): each kept record's group, read from its skeleton (the group's
 * paths are among the rules' reads), and its split, hashed once per group (src/splits, the stages engine's
 * rule). Main gets a batch's groups and their splits (it counts them and rotates each split's shards); the
 * worker keeps each row's split for its unit, to encode each split's rows as their own row groups.
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
  /** Each unit's rows' splits, in the order of its row group's rows. */
  readonly #units = new Map<number, number[]>();

  constructor(request: SplitRequest, format: FormatName) {
    this.#assigner = new SplitAssigner(request, format);
    this.#assigner.names.forEach((name, i) => this.#index.set(name, i));
  }

  /** Number of splits. */
  get count(): number {
    return this.#assigner.names.length;
  }

  /** A LINE_ROW record of `unit`, `read` as validated (or its skeleton), which gave `rows` rows. */
  add(unit: number, read: Readonly<Record<string, unknown>>, rows: number): void {
    const key = this.#assigner.keyOf(read);
    let split = this.#splitOf.get(key);
    if (split === undefined) {
      split = this.#index.get(this.#assigner.splitOfGroup(key)) as number;
      this.#splitOf.set(key, split);
    }
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

  /** The splits of the rows of `unit` main kept (`keep`: 1 per row, in order); forgets the unit. */
  keptOf(unit: number, keep: Uint8Array): Uint8Array {
    const splits = this.#units.get(unit) ?? [];
    this.#units.delete(unit);
    if (splits.length !== keep.length) throw new Error(`Internal error: unit ${unit} has ${splits.length} rows with splits, main decided ${keep.length}`);
    const kept: number[] = [];
    for (let r = 0; r < splits.length; r++) if (keep[r] === 1) kept.push(splits[r] as number);
    return Uint8Array.from(kept);
  }
}
