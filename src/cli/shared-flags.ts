import type { Counts } from "../core/tally.js";
import { ERROR_PREFIX } from "./run-action.js";
import type { ViewManifest } from "../views/view-manifest.js";
import { viewLosses, viewLossesLine } from "../views/view-losses.js";

/** Counts by reason as `flagged 3, no_trace 2`, or `none`. */
export function formatReasons(counts: Readonly<Record<string, number | undefined>>): string {
  return Object.entries(counts).map(([k, v]) => `${k} ${v ?? 0}`).join(", ") || "none";
}

/** A run's warnings (no scorecards to gate with, scorecards quarantined), one line each on stderr. */
export function printWarnings(warnings: readonly string[]): void {
  for (const warning of warnings) process.stderr.write(`${ERROR_PREFIX}warning: ${warning}\n`);
}

/** A few human lines: what went in, what came out, and why the rest did not. */
export function printSummary(counts: Counts & { shards?: readonly { path: string; rows: number }[]; view?: ViewManifest }, outDir?: string): void {
  const lines = [`records in ${counts.records_in}, out ${counts.records_out}, stream errors ${counts.stream_errors}`];
  lines.push(`dropped: ${formatReasons(counts.dropped)}`, `quarantined: ${formatReasons(counts.quarantined)}`);
  if (counts.view !== undefined) lines.push(viewLossesLine(viewLosses(counts.view)));
  if (counts.shards !== undefined && outDir !== undefined) {
    lines.push(`wrote ${counts.shards.length} shard(s) to ${outDir}: ${counts.shards.map((s) => `${s.path} (${s.rows} rows)`).join(", ")}`);
  }
  process.stdout.write(`${lines.join("\n")}\n`);
}
