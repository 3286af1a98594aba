import type { FormatName } from "../../../formats/format.js";
import { SplitAssigner } from "../../../splits/split-assigner.js";
import type { SplitRequest } from "../../../splits/split-assigner.js";
import type { BatchSplits } from "./protocol.js";

/**
 * A worker's side of a split run (`--split`): each kept record's group, read from its skeleton (the group's
 * paths are among the rules' reads), and its split, hashed once per group (src/splits,
 * `SplitAssigner`'s rule). Main gets a batch's groups and their splits (it counts them, rotates each split's shards, and
 * sends its decisions on a unit's rows split by split); the worker keeps each split's rows in a row group of
 * their own.
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
  /**
   * The split most rows go to (the largest fraction): where the fast parser writes a row whose group it
   * cannot tell before writing (see SplitRoute); only the other splits' rows then move.
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

  /** The name of split `index`. */
  nameOf(index: number): string {
    return this.#assigner.names[index] as string;
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

  /** A LINE_ROW record of group `key` (its rows are in its split's row group). */
  add(key: string): void {
    let group = this.#groups.get(key);
    if (group === undefined) this.#groups.set(key, (group = this.#groups.size));
    this.#rowGroups.push(group);
  }

  /** The batch's groups for main; the next batch starts afresh. */
  batchDone(): BatchSplits {
    const groups = [...this.#groups.keys()];
    const splitOf = Uint32Array.from(groups, (key) => this.#splitOf.get(key) as number);
    const done = { groups, splitOf, rowGroups: Uint32Array.from(this.#rowGroups) };
    this.#groups = new Map();
    this.#rowGroups = [];
    return done;
  }
}
