import type { Compression, OutputKind } from "./plan/options.js";

// The options themselves are stated once, in the plan's option table (src/plan/options.ts).
export type { ConvertOptions, Compression, OutputKind, Engine } from "./plan/options.js";
export { ENGINES } from "./plan/options.js";

/** Why the parallel engine cannot write this output, or null when it can (its inputs are checked apart). */
export function parallelOutputRefusal(to: OutputKind, compression: Compression): string | null {
  if (to !== "parquet") return `it writes Parquet only, not ${to}`;
  if (compression === "snappy") return "it does not encode snappy";
  return null;
}
