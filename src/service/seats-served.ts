import type { RequestContext } from "./router.js";

/** A run's records as a per-run export answers them: without the last seat under a `seats` fault (well formed, one seat short). */
export function seatsServed<T>(ctx: RequestContext, records: T[]): T[] {
  return ctx.faults.dropSeat === true ? records.slice(0, -1) : records;
}
