/**
 * A unit (one row group, one worker) closes once it holds this many input bytes: two 4 MiB reads. Units of
 * ~12 MiB held peak RSS at ~265 MB (SFT 200 MiB), ~8 MiB at ~235 MB, with no measurable change in time.
 */
export const UNIT_BYTES = 7 << 20;
/**
 * The smallest unit near the end of an input, and the smallest read: a little over the 1 MiB that makes
 * a batch, so that one read, which ends mid-line, still makes one.
 */
export const MIN_UNIT_BYTES = 5 << 18;
/** A unit closes this close to its size: its batches end at their last newline, a little short of the reads. */
export const UNIT_SLACK_BYTES = 1 << 18;

/**
 * How many input bytes the next unit should hold, with `remaining` bytes of input left (Infinity when the
 * size is unknown). Near the end, units shrink to what is left over twice the workers, so the last
 * ones are small and the workers finish together: a whole last unit on one worker left the other idle
 * for ~100 ms of a ~1.2 s run.
 */
export function unitBytesFor(remaining: number, workers: number): number {
  const size = Math.min(UNIT_BYTES, Math.max(MIN_UNIT_BYTES, Math.floor(remaining / (2 * Math.max(1, workers)))));
  // Too little would be left for a unit of its own (it made row groups of a few rows): take it too.
  return remaining - size < MIN_UNIT_BYTES ? Math.max(size, remaining) : size;
}
