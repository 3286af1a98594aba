import { INT64_MAX, INT64_MIN } from "../core/exact-json.js";
import { isRecord } from "../core/is-record.js";

/**
 * A seed beyond 2^53, parsed exactly as a bigint (`parseExact`), taken out of `object` before zod reads it:
 * the schemas say `seed` is an int, and zod's `.int()` takes safe numbers only. Returns the seed (the object
 * then holds 0 in its place), null when the seed is an ordinary number, or a string saying why it cannot be
 * kept (outside int64, what Parquet's INT64 holds).
 */
export function takeExactSeed(object: Record<string, unknown>): bigint | null | string {
  const scenario = object.scenario;
  if (!isRecord(scenario)) return null;
  const seed = scenario.seed;
  if (typeof seed !== "bigint") return null;
  if (seed < INT64_MIN || seed > INT64_MAX) return `scenario.seed ${seed} is outside the int64 range, which the dataset's INT64 column holds`;
  scenario.seed = 0;
  return seed;
}

/** Puts the exact seed back into the validated record. */
export function putExactSeed(record: Record<string, unknown>, seed: bigint): void {
  (record.scenario as Record<string, unknown>).seed = seed;
}
