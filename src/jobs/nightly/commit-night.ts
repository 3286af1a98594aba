import { PartsMissingError } from "../../core/errors.js";
import { quarantinedShare } from "../../core/tally.js";
import { EVALSHARD_VERSION } from "../../core/version.js";
import { wholeOption } from "../../core/whole-option.js";
import { datasetCard } from "../../output/dataset-card.js";
import { DatasetSink } from "../../dataset/dataset-sink.js";
import { decidePublish, guardLimitsOf, type PublishDecision } from "../../output/publish-guard.js";
import { manifestRows, rowsOf } from "../../output/published-rows.js";
import { publishedManifest } from "../../output/published-manifest.js";
import { storageFor } from "../../output/storage-for.js";
import type { ShardInfo } from "../../output/shard-format.js";
import type { Files, Staging } from "../../output/storage.js";
import { readText } from "../../output/write-text.js";
import { copyFile } from "../../output/copy-file.js";
import { shardPath } from "../../output/dataset-path.js";
import { labelledShardName } from "../../output/shard-name.js";
import { mergeCounts, mergeSplits } from "./merge-parts.js";
import type { NightlyManifest } from "./nightly-manifest.js";
import { PART_CARD_FILE, PART_STATS_FILE, partLocation, readStagedPart } from "./staged-part.js";
import { DatasetStats } from "../../stats/dataset-stats.js";
import type { StatsPartial } from "../../stats/dataset-stats.js";
import type { PartCard, StagedPart } from "./staged-part.js";
import { unrecoveredStreamErrors } from "./unrecovered-stream-errors.js";

export interface CommitOptions {
  /** N of the night's k/N. */
  readonly parts: number;
  /** The label the parts staged under (EVALSHARD_NIGHT, else their start's UTC date). */
  readonly night: string;
  /** Published snapshots kept. Default 7. */
  readonly keepSnapshots?: number;
  /** Publish the night even over a publish guard it trips (the guards' verdict still says which). */
  readonly publishAnyway?: boolean;
}

/** `OUT/manifest.json` of a committed night: the parts' manifests merged, and which parts they were. */
export interface CommitManifest extends Pick<NightlyManifest, "records_in" | "records_out" | "dropped" | "quarantined" | "stream_errors" | "shards" | "format" | "pipeline"> {
  readonly output: Omit<NightlyManifest["output"], "layout"> & { readonly layout: "huggingface-parts" };
  readonly evalshard_version: string;
  readonly snapshot: number | null;
  /** The label the parts staged under; not `night`, which a single job's manifest uses for what it changed. */
  readonly night_label: string;
  readonly committed_at: string;
  readonly quarantined_share: number;
  readonly partition: { readonly count: number; readonly by: string };
  readonly parts: readonly { readonly index: number; readonly snapshot: number | null; readonly manifest_sha256: string; readonly records_out: number }[];
  readonly dropped_pairs?: NightlyManifest["dropped_pairs"];
  readonly split?: NightlyManifest["split"];
  /** The publish guards judged on the merged night, by the limits the parts ran with. */
  readonly publish: PublishDecision;
  /** Issue 36: the parts' statistics merged (each part keeps its partial, `_part/stats.json`); absent when a part has none. */
  readonly stats?: NightlyManifest["stats"];
}

export interface CommitResult {
  readonly manifest: CommitManifest;
  /** False when the dataset already was this night's (a second commit), or the guards refused it: nothing published. */
  readonly changed: boolean;
  readonly outDir: string;
  /** The publish guards' verdict on the merged night (the exit code of a refused or published-anyway night). */
  readonly decision: PublishDecision;
}

/** One part of the night, as its dataset holds it. */
interface Part {
  readonly index: number;
  readonly staged: StagedPart;
  readonly files: Files;
  readonly manifest: NightlyManifest;
  readonly card: PartCard;
  /** Its dataset's statistics; null when an older evalshard wrote it. */
  readonly stats: StatsPartial | null;
}

/**
 * Publishes one snapshot of a partitioned night (issue 37): checks that every part 0..N-1 staged `night`
 * and still holds it, then merges their shards (renamed `…-part<k>of<N>-…`), counts, splits and cards into
 * one dataset at `out`, published atomically through its Storage like any night. A part missing, failed
 * or rerun for another night since publishes nothing and is named (PartsMissingError). The publish guards
 * judge the merged night (parts stage whatever their share holds), the shrink against the committed
 * dataset: a refused night goes under `_rejected/`. Shards a part did not change since the last commit are
 * carried over, not copied.
 */
export async function commitNight(out: string, options: CommitOptions): Promise<CommitResult> {
  wholeOption("--parts", options.parts, 1);
  const storage = await storageFor(out, { snapshots: true, ...(options.keepSnapshots === undefined ? {} : { keepSnapshots: options.keepSnapshots }) });
  const parts = await readParts(storage, out, options);
  const sink = await DatasetSink.open(storage, { quarantine: false });
  try {
    // Read holding the lock: the night the guards compare this one with.
    const before = await publishedManifest<CommitManifest>(storage);
    const rowsBefore = manifestRows(before);
    const previous = new Map((before?.shards ?? []).map((s) => [shardPath(s.path).dataset, s.sha256]));
    const shards: ShardInfo[] = [];
    for (const part of parts) {
      for (const shard of part.manifest.shards) shards.push(await carryShard(part, shard, sink.staging, previous));
    }
    const same = previous.size === shards.length && shards.every((s) => previous.get(s.path) === s.sha256);
    const first = parts[0] as Part;
    const { base } = sink;
    const split = mergeSplits(parts.map((p) => p.manifest.split));
    // The night's counts; a manifest section the parts each hold (e.g. statistics) merges here, beside them.
    const counts = mergeCounts(parts.map((p) => p.manifest));
    const streamErrors = parts.reduce((n, p) => n + unrecoveredStreamErrors(p.manifest.stream_errors, p.manifest.pull), 0);
    const rows = rowsBefore === null ? {} : { rows: { published: rowsBefore, out: rowsOf(shards) } };
    const decision = decidePublish(guardLimitsOf(first.manifest.publish.limits, options.publishAnyway === true), { ...counts, stream_errors: streamErrors, quarantined_share: quarantinedShare(counts), ...rows });
    const stats = mergeStats(parts);
    const manifest: CommitManifest = {
      evalshard_version: EVALSHARD_VERSION,
      pipeline: first.manifest.pipeline,
      snapshot: same || !decision.published ? null : sink.number,
      night_label: options.night,
      committed_at: new Date().toISOString(),
      partition: { count: options.parts, by: first.staged.by },
      parts: parts.map((p) => ({ index: p.index, snapshot: p.manifest.snapshot, manifest_sha256: p.staged.manifest_sha256, records_out: p.manifest.records_out })),
      format: first.manifest.format,
      // Its shards are the parts' buckets side by side, with no ledger of their own (each part keeps its own).
      output: { ...first.manifest.output, layout: "huggingface-parts" },
      ...counts,
      quarantined_share: quarantinedShare(counts),
      ...(split === undefined ? {} : { split }),
      ...(stats === null ? {} : { stats }),
      shards: shards.map((s) => ({ ...s, path: `${base}${s.path}` })),
      publish: same ? { ...decision, rejected_to: null } : decision,
    };
    if (same) return { manifest, changed: false, outDir: out, decision: manifest.publish };
    const card = datasetCard({ format: first.card.format, columns: first.card.columns, shards, base, ...(first.card.view === undefined ? {} : { view: first.card.view }), ...(split === undefined ? {} : { split }) });
    await sink.publish({ card, manifest }, decision);
    return { manifest, changed: decision.published, outDir: out, decision };
  } finally {
    await sink.abort();
  }
}

/** Every part's staged record, dataset and card; throws naming the parts that did not stage this night. */
async function readParts(root: Files, out: string, options: CommitOptions): Promise<Part[]> {
  const missing: number[] = [];
  const changed: number[] = [];
  const parts: Part[] = [];
  for (let index = 0; index < options.parts; index++) {
    const staged = await readStagedPart(root, options.night, index, options.parts);
    const files = await storageFor(partLocation(out, index, options.parts));
    const manifest = staged === null ? null : await publishedManifest<NightlyManifest>(files);
    if (staged === null || manifest === null) {
      missing.push(index);
      continue;
    }
    if (manifest.manifest_sha256 !== staged.manifest_sha256) {
      changed.push(index);
      continue;
    }
    const card = await readText(files, PART_CARD_FILE);
    if (card === null) throw new PartsMissingError(`Part ${index} of ${options.parts} of ${out} has no ${PART_CARD_FILE} (written by an evalshard older than commit): rerun it, then commit`, [index]);
    const stats = await readText(files, PART_STATS_FILE);
    parts.push({ index, staged, files, manifest, card: JSON.parse(card) as PartCard, stats: stats === null ? null : (JSON.parse(stats) as StatsPartial) });
  }
  if (missing.length > 0 || changed.length > 0) {
    const said = [
      ...(missing.length === 0 ? [] : [`part${missing.length === 1 ? "" : "s"} ${missing.join(", ")} of ${options.parts} did not stage it (missing or failed)`]),
      ...(changed.length === 0 ? [] : [`part${changed.length === 1 ? "" : "s"} ${changed.join(", ")} ran again since (another night)`]),
    ];
    throw new PartsMissingError(`Night ${JSON.stringify(options.night)} of ${out} is not committed: ${said.join("; ")}. Nothing was published; rerun those parts for this night (EVALSHARD_NIGHT), then commit`, [...missing, ...changed].sort((a, b) => a - b));
  }
  return parts;
}

/** The night's statistics: every part's partial merged (exact: a part's rows are its own); null when a part has none. */
function mergeStats(parts: readonly Part[]): NonNullable<CommitManifest["stats"]> | null {
  const merged = new DatasetStats();
  for (const part of parts) {
    if (part.stats === null) return null;
    merged.merge(part.stats);
  }
  return merged.toManifest();
}

/**
 * A part's shard as a shard of the committed dataset: `data/train-00003-of-00016.parquet` of part 1 of 4
 * is `data/train-part1of4-00003-of-00016.parquet` (the card's `data/<split>-*` still matches it). Carried
 * over when the last commit published the same bytes there, else copied and checked against its sha256.
 */
async function carryShard(part: Part, shard: ShardInfo, staging: Staging, previous: ReadonlyMap<string, string>): Promise<ShardInfo> {
  const from = shardPath(shard.path);
  const label = `part${part.index}of${part.staged.count}`;
  const file = from.dataset.slice("data/".length);
  const name = `data/${(from.dataset.startsWith("data/") ? labelledShardName(file, label) : null) ?? `${label}-${file}`}`;
  const to = { ...shard, path: name };
  if (previous.get(name) === shard.sha256) {
    await staging.reuse(name);
    return to;
  }
  const written = await copyFile(part.files, staging, from.read, name);
  if (written.sha256 !== shard.sha256) throw new PartsMissingError(`Part ${part.index} of ${part.staged.count}: shard ${from.read} read back with sha256 ${written.sha256}, its manifest says ${shard.sha256}; rerun the part, then commit`, [part.index]);
  return to;
}
