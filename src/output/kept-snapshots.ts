import { wholeOption } from "../core/whole-option.js";

/** How many published snapshots a storage keeps, the current one included, unless told: a week of nights. */
export const KEPT_SNAPSHOTS = 7;

export function keptSnapshots(keep: number | undefined): number {
  return wholeOption("keepSnapshots", keep ?? KEPT_SNAPSHOTS, 1);
}
