import type { InjectionPattern } from "./scan-injection.js";

/** What the texts written at one path carried: for the manifest and the dataset card. */
export interface PathAudit {
  /** Texts written. */
  readonly values: number;
  /** Texts the `sanitize` policy changed. */
  readonly changed: number;
  /** Texts that matched any injection pattern. */
  readonly injected: number;
  /** Texts that matched each pattern (a text can match several). */
  readonly patterns: Readonly<Partial<Record<InjectionPattern, number>>>;
}

interface MutableAudit {
  values: number;
  changed: number;
  injected: number;
  /**
   * Made at the path's first match, not with the counts: most paths of most records match nothing
   * (docs/decisions.md "hot code shape", one shape).
   */
  patterns: Partial<Record<InjectionPattern, number>> | null;
}

/**
 * Counts, per output path (`prompt[].content`, `chosen[].content`, ...), the texts a view wrote, how many
 * sanitizing changed, and how many matched the injection patterns. Paths are those of the rows, so the
 * counts describe what the dataset carries.
 */
export class TextAudit {
  readonly #paths = new Map<string, MutableAudit>();
  // The path added last and its counts: a step view adds a row's texts path after path, mostly the same one.
  #lastPath = "";
  #last: MutableAudit | undefined;

  add(path: string, changed: boolean, patterns: readonly InjectionPattern[]): void {
    const audit = this.#at(path);
    audit.values++;
    if (changed) audit.changed++;
    if (patterns.length === 0) return;
    audit.injected++;
    const counts = (audit.patterns ??= {});
    for (const p of patterns) counts[p] = (counts[p] ?? 0) + 1;
  }

  /** Adds `n` texts at `path` that sanitizing left as they were and that match no pattern (none: nothing added). */
  addUnchanged(path: string, n: number): void {
    if (n !== 0) this.#at(path).values += n;
  }

  #at(path: string): MutableAudit {
    let audit = path === this.#lastPath ? this.#last : this.#paths.get(path);
    if (audit === undefined) {
      audit = { values: 0, changed: 0, injected: 0, patterns: null };
      this.#paths.set(path, audit);
    }
    this.#lastPath = path;
    this.#last = audit;
    return audit;
  }

  /** Adds another audit's counts (a record's, a shard's). */
  merge(other: TextAudit): void {
    // Straight from its map: a worker merges a record's audit at a time, and a summary is a sorted deep copy.
    for (const [path, a] of other.#paths) this.#mergePath(path, a);
  }

  /** Adds counts summarised elsewhere (a parallel engine worker's). */
  mergeSummary(summary: Readonly<Record<string, PathAudit>>): void {
    for (const [path, a] of Object.entries(summary)) this.#mergePath(path, a);
  }

  #mergePath(path: string, a: Readonly<MutableAudit> | PathAudit): void {
    const mine = this.#at(path);
    mine.values += a.values;
    mine.changed += a.changed;
    mine.injected += a.injected;
    if (a.patterns !== null) {
      for (const [p, n] of Object.entries(a.patterns) as [InjectionPattern, number][]) {
        const counts = (mine.patterns ??= {});
        counts[p] = (counts[p] ?? 0) + n;
      }
    }
  }

  /** The counts by path, paths in code-unit order. */
  summary(): Record<string, PathAudit> {
    const paths = [...this.#paths.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    return Object.fromEntries(
      paths.map((p) => {
        const { values, changed, injected, patterns } = this.#paths.get(p) as MutableAudit;
        return [p, { values, changed, injected, patterns: { ...patterns } }];
      }),
    );
  }
}
