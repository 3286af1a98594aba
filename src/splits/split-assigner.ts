import type { FormatName } from "../formats/format.js";
import { groupKeyOf } from "./split-by.js";
import type { GroupKeyOf, SplitBy } from "./split-by.js";
import { splitOf } from "./split-of.js";
import type { SplitRule } from "./split-of.js";

/** A split as a run asks for it (the plan's `split`). */
export interface SplitRequest extends SplitRule {
  readonly by: SplitBy;
}

/** What one split of a dataset holds, and its share of the rows and of the groups. */
export interface SplitCount {
  readonly rows: number;
  readonly groups: number;
  readonly row_fraction: number;
  readonly group_fraction: number;
}

/**
 * The manifest's (and the card's) `split` section: what was asked and what came out. With few groups the
 * realised fractions can be far from the asked ones; they are reported, never forced.
 */
export interface SplitManifest {
  readonly by: SplitBy;
  readonly seed: string;
  /** As asked, in order. */
  readonly fractions: Readonly<Record<string, number>>;
  /** Every split, in the asked order, empty ones too. */
  readonly splits: Readonly<Record<string, SplitCount>>;
}

/**
 * Gives each row its split (its record's group's: a view row inherits its record's) and counts rows and
 * groups per split. The engine's workers find a record's group and split ({@link keyOf},
 * {@link splitOfGroup}) and its main thread counts the rows it keeps ({@link countAt}).
 */
export class SplitAssigner {
  readonly names: readonly string[];
  /** A record's group id (scenario.campaign_id or run_id, as `request.by` says). */
  readonly keyOf: GroupKeyOf;
  /** Rows and groups per split, by its index in {@link names}. */
  readonly #rows: Float64Array;
  readonly #groups: Float64Array;
  /** Groups with a row written. */
  readonly #counted = new Set<string>();

  constructor(
    readonly request: SplitRequest,
    format: FormatName,
  ) {
    this.names = Object.keys(request.fractions);
    this.keyOf = groupKeyOf(request.by, format);
    this.#rows = new Float64Array(this.names.length);
    this.#groups = new Float64Array(this.names.length);
  }

  /** The split of group `key` (a worker's `RowSplits` hashes each group once and keeps its answer). */
  splitOfGroup(key: string): string {
    return splitOf(this.request, key);
  }

  /**
   * Counts `rows` rows of group `key` written into the split at index `split` of {@link names} (the engine's
   * main thread: its workers name splits so).
   */
  countAt(key: string, split: number, rows: number): void {
    // A record whose view made no rows puts nothing in its split, and neither does its group on its own.
    if (rows <= 0) return;
    if (!(split >= 0 && split < this.#rows.length)) throw new Error(`Internal error: no split ${split} to count`);
    this.#rows[split] = (this.#rows[split] as number) + rows;
    if (!this.#counted.has(key)) {
      this.#counted.add(key);
      this.#groups[split] = (this.#groups[split] as number) + 1;
    }
  }

  summary(): SplitManifest {
    return splitSection(this.request, [...this.#rows], [...this.#groups]);
  }
}

/**
 * The `split` section of rows and groups counted per split (in the asked order): each split's counts and its
 * share of all rows and of all groups. A run's own counts, or a partitioned night's parts' added.
 */
export function splitSection({ by, seed, fractions }: Pick<SplitManifest, "by" | "seed" | "fractions">, rows: readonly number[], groups: readonly number[]): SplitManifest {
  const allRows = rows.reduce((a, b) => a + b, 0);
  const allGroups = groups.reduce((a, b) => a + b, 0);
  const share = (n: number, of: number) => (of === 0 ? 0 : n / of);
  const splits: Record<string, SplitCount> = {};
  for (const [i, name] of Object.keys(fractions).entries()) {
    const r = rows[i] ?? 0;
    const g = groups[i] ?? 0;
    splits[name] = { rows: r, groups: g, row_fraction: share(r, allRows), group_fraction: share(g, allGroups) };
  }
  return { by, seed, fractions, splits };
}
