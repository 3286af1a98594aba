import type { Counts } from "../../core/tally.js";
import { splitSection, type SplitManifest } from "../../splits/split-assigner.js";

type Tallies = Readonly<Partial<Record<string, number>>>;

/** The night's counts: every part's, added (each line of the night was counted by exactly one part). */
export function mergeCounts(parts: readonly Counts[]): Counts {
  const add = (of: (c: Counts) => Tallies | undefined): Record<string, number> => {
    const sum: Record<string, number> = {};
    for (const part of parts) for (const [reason, n] of Object.entries(of(part) ?? {})) sum[reason] = (sum[reason] ?? 0) + (n ?? 0);
    return sum;
  };
  const pairs = add((c) => c.dropped_pairs);
  return {
    records_in: parts.reduce((n, c) => n + c.records_in, 0),
    records_out: parts.reduce((n, c) => n + c.records_out, 0),
    dropped: add((c) => c.dropped),
    quarantined: add((c) => c.quarantined),
    stream_errors: parts.reduce((n, c) => n + c.stream_errors, 0),
    ...(Object.keys(pairs).length === 0 ? {} : { dropped_pairs: pairs }),
  };
}

/**
 * The night's splits: rows and groups added, fractions of the sums. Exact with `partition_by: scenario`
 * and splits by scenario (a group is in one part); with parts by run, a scenario whose runs fell in k parts
 * counts k times among `groups`, while rows stay exact.
 */
export function mergeSplits(parts: readonly (SplitManifest | undefined)[]): SplitManifest | undefined {
  const first = parts[0];
  if (first === undefined) return undefined;
  const names = Object.keys(first.fractions);
  const added = (count: "rows" | "groups") => names.map((name) => parts.reduce((n, p) => n + (p?.splits[name]?.[count] ?? 0), 0));
  return splitSection(first, added("rows"), added("groups"));
}
