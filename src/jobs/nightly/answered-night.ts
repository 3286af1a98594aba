import type { DatasetSink } from "../../dataset/dataset-sink.js";
import { readText } from "../../output/write-text.js";
import type { PipelineSpec } from "../../pipeline-file/pipeline-spec.js";
import { sameAnswers } from "../../pull/same-answers.js";
import { PullTally } from "../../pull/pull-report.js";
import { EXPORT_ANSWERS_FILE, parseExportAnswers, setupDigest } from "./export-answers-file.js";
import type { NightlyManifest } from "./nightly-manifest.js";
import { sha256Hex } from "../../core/sha256-hex.js";
import { NIGHT_INPUT_FILE, parseNightInput } from "./night-input.js";
import type { NightInput } from "./night-input.js";
import { clientOf, type SourceEnvironment } from "./open-source.js";
import { unchangedNight } from "./unchanged-night.js";

/**
 * A night with nothing new, told without pulling: the published state's export answers (its pull's
 * every export request and the sha256 of what it answered) are requested again and each body hashed,
 * never parsed. When the evalshard version, the pipeline and the score cache are the ones those answers
 * were pulled with, and every body is the same, a pull would make the same requests, spool the same
 * lines and take every score from the same cache: its night input is the published one, and
 * {@link unchangedNight} decides as after a pull (ledger, manifest, every shard intact). Null when
 * anything differs or fails: the night pulls as usual.
 */
export async function answeredNight(
  spec: PipelineSpec,
  sink: DatasetSink,
  environment: SourceEnvironment,
  scoreCacheText: string,
  startedAt: string,
  suitesSha: string | null = null,
): Promise<{ manifest: NightlyManifest; stored: NightInput } | null> {
  const source = spec.source;
  const state = sink.current;
  if (source.kind !== "http" || source.format === "dpo" || state === null) return null;
  const answers = parseExportAnswers(await readText(sink.storage, EXPORT_ANSWERS_FILE));
  if (answers === null) return null;
  const { header } = answers;
  const stored = parseNightInput(await readText(sink.storage, NIGHT_INPUT_FILE));
  if (stored === null || stored.input_sha256 !== header.input_sha256 || stored.ledger_sha256 !== state.ledger_sha256) return null;
  if (header.setup_sha256 !== setupDigest(spec, suitesSha) || header.score_cache_sha256 !== sha256Hex(scoreCacheText)) return null;

  const tally = new PullTally(header.report, undefined);
  const client = clientOf(source, environment, (event) => tally.clientEvent(event));
  const { same, requests } = await sameAnswers(client, answers.entries, source.concurrency);
  if (!same || requests !== header.requests) return null;
  const pull = { ...header.report, retries: tally.r.retries, hedges: tally.r.hedges };
  const unchanged = await unchangedNight(sink, stored.input_sha256, { startedAt, pull });
  if (unchanged !== null) environment.onPullEvent?.({ type: "done", report: pull });
  return unchanged;
}
