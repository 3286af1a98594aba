import { wholeOption } from "../core/whole-option.js";

/** How many published snapshots a storage keeps, the current one included: 7 (a week of nights) unless given. */
export function keptSnapshots(keep: number | undefined): number {
  return wholeOption("keepSnapshots", keep ?? 7, 1);
}
