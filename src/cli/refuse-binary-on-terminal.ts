import { ConfigError } from "../core/errors.js";
import type { RunPlan } from "../plan/run-plan.js";

/**
 * Compressed bytes (or Parquet) are never written onto a terminal: they garble it and help no one. A
 * ConfigError (exit 2) says how to get them, before anything is read or written.
 */
export function refuseBinaryOnTerminal(plan: Pick<RunPlan, "out" | "shards">, stdout: { readonly isTTY?: boolean } = process.stdout): void {
  if (plan.out !== "-" || stdout.isTTY !== true) return;
  if (plan.shards.to !== "jsonl" || plan.shards.compression !== "none") {
    const what = plan.shards.to !== "jsonl" ? `${plan.shards.to} bytes` : `${plan.shards.compression}-compressed JSON Lines`;
    throw new ConfigError(`Refusing to write ${what} to a terminal: redirect standard output to a file or a pipe (e.g. > rows.jsonl.zst), or leave --compression out for plain JSON Lines`);
  }
}
