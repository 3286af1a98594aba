import { shardsIntact } from "../../dataset/shard-intact.js";
import type { DatasetSink } from "../../dataset/dataset-sink.js";
import { publishedManifest } from "../../output/published-manifest.js";
import { readText } from "../../output/write-text.js";
import type { PullReport } from "../../pull/index.js";
import type { NightlyManifest } from "./nightly-manifest.js";
import { NIGHT_INPUT_FILE, parseNightInput } from "./night-input.js";
import type { NightInput } from "./night-input.js";

/**
 * The manifest of a night with nothing new, without converting: when the published dataset was made
 * from input of the same digest ({@link NightInput}) and every shard it names is intact (sha256, as a
 * converting night checks before keeping a shard), converting again would find every record unchanged
 * and every shard kept. The manifest is then the published one (the same engine counts, inputs,
 * quarantine, audit, view and split) with tonight's times, pull report and an empty `night`.
 * Null when anything differs: the night converts as usual.
 */
export async function unchangedNight(
  sink: DatasetSink,
  digest: string,
  o: { readonly startedAt: string; readonly pull: PullReport },
): Promise<{ manifest: NightlyManifest; stored: NightInput } | null> {
  const state = sink.current;
  if (state === null) return null;
  const stored = parseNightInput(await readText(sink.storage, NIGHT_INPUT_FILE));
  if (stored === null || stored.input_sha256 !== digest || stored.ledger_sha256 !== state.ledger_sha256) return null;
  const published = await publishedManifest<NightlyManifest>(sink.storage);
  if (typeof published?.records_in !== "number" || typeof published.night !== "object") return null;
  if (!(await shardsIntact(sink.storage, state))) return null;
  const manifest: NightlyManifest = {
    ...published,
    snapshot: null,
    started_at: o.startedAt,
    finished_at: new Date().toISOString(),
    night: { added: 0, replaced: 0, removed: 0, unchanged: state.rows, buckets_rewritten: [] },
    pull: o.pull,
  };
  return { manifest, stored };
}
