import { readFileSync } from "node:fs";
import { join } from "node:path";
import { runNightly } from "../../../src/jobs/nightly/run-nightly.js";
import type { NightlyOptions, NightlyResult } from "../../../src/jobs/nightly/run-nightly.js";
import { parsePipeline } from "../../../src/pipeline-file/load-pipeline.js";
import type { RunningEmulator } from "../../../src/service/index.js";
import { emulator, fastClock } from "../../pull/support.js";

export { emulator, fastClock };

export const PIPELINES = new URL("../../../pipelines", import.meta.url).pathname;

/** The environment the shipped pipelines read. */
export function envFor(emu: RunningEmulator, out: string, extra: Record<string, string> = {}): Record<string, string> {
  return { EVAL_BASE_URL: emu.url, EVAL_OWNER_TOKEN: emu.ownerToken, EVALSHARD_OUT: out, ...extra };
}

/** One night of a shipped pipeline (as `edit` changes its text) against the emulator, through the library. */
export async function night(name: string, env: Record<string, string>, jsonl = true, edit: (text: string) => string = (text) => text, options: NightlyOptions = {}): Promise<NightlyResult> {
  let text = edit(readFileSync(join(PIPELINES, `${name}.yaml`), "utf8"));
  // JSONL keeps the many nights of these tests fast; one test runs the shipped Parquet settings.
  if (jsonl) text = text.replace("to: parquet", "to: jsonl").replace("compression: zstd", "compression: none");
  const spec = parsePipeline(text, `${name}.yaml`, env);
  return runNightly(spec, { env, clock: fastClock(), retry: { maxAttempts: 12, baseDelayMs: 1 } }, options);
}

/** What a dataset holds, comparable across directories: its ledger and every shard's bytes. */
export function datasetOf(dir: string): { ledger: string; shards: Record<string, string> } {
  const state = JSON.parse(readFileSync(join(dir, "_state/state.json"), "utf8")) as { shards: { path: string; sha256: string }[] };
  return {
    ledger: readFileSync(join(dir, "_state/ledger.ndjson"), "utf8"),
    shards: Object.fromEntries(state.shards.map((s) => [s.path, s.sha256])),
  };
}
