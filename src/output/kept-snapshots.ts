import { ConfigError } from "../core/errors.js";

/** How many published snapshots a storage keeps, the current one included: 7 (a week of nights) unless given. */
export function keptSnapshots(keep: number | undefined): number {
  const kept = keep ?? 7;
  if (!Number.isInteger(kept) || kept < 1) throw new ConfigError(`Expected keepSnapshots to be an integer from 1 up, got ${kept}`);
  return kept;
}
