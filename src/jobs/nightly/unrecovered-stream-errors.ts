import type { PullReport } from "../../pull/index.js";

/**
 * The `partial_stream` lines a night did not recover, what `max_stream_errors` counts: a pull fetches the run
 * of each such line of its bulk streams on its own, so only the rest (an input file's) remain.
 */
export function unrecoveredStreamErrors(streamErrors: number, pull: Pick<PullReport, "streamErrors"> | null): number {
  return Math.max(0, streamErrors - (pull?.streamErrors ?? 0));
}
