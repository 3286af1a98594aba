import type { SplitManifest } from "./split-assigner.js";

/** How far, in points of the rows, a split may land from its asked fraction before the manifest says so. */
export const SPLIT_SKEW_POINTS = 5;

/**
 * A split lands where its groups hash: with few groups (24 scenarios, say) a whole group moves a split by
 * several points. The rows' fractions are what a trainer sees, so those are compared with the asked ones;
 * the warning gives the group counts, since more groups (or `--split-by run`) is the remedy.
 */
export function splitSkewWarnings(split: SplitManifest | undefined): string[] {
  if (split === undefined) return [];
  const entries = Object.entries(split.splits);
  const rows = entries.reduce((n, [, c]) => n + c.rows, 0);
  if (rows === 0) return [];
  const far = entries.filter(([name, c]) => Math.abs(c.row_fraction - (split.fractions[name] ?? 0)) * 100 > SPLIT_SKEW_POINTS);
  if (far.length === 0) return [];
  const groups = entries.reduce((n, [, c]) => n + c.groups, 0);
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  const each = entries.map(([name, c]) => `${name} ${pct(c.row_fraction)} of rows (asked ${pct(split.fractions[name] ?? 0)}; ${c.groups} of ${groups} groups)`);
  return [
    `split: ${far.map(([name]) => name).join(", ")} landed more than ${SPLIT_SKEW_POINTS} points from the asked fraction: ${each.join(", ")}; groups (--split-by ${split.by}) are kept whole, so with few groups the realised fractions are coarse`,
  ];
}
