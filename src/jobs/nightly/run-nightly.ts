import { DatasetSink } from "../../dataset/dataset-sink.js";
import type { RunSources } from "../../engines/engine.js";
import { runEngine } from "../../engines/parallel/index.js";
import type { RunPlan } from "../../plan/run-plan.js";
import { datasetCard } from "../../output/dataset-card.js";
import { openOutput } from "../../output/open-output.js";
import { readText } from "../../output/write-text.js";
import type { PipelineSpec } from "../../pipeline-file/pipeline-spec.js";
import { planOfSpec } from "../../pipeline-file/plan-of-spec.js";
import { decidePublish, partDecision } from "../../output/publish-guard.js";
import { unrecoveredStreamErrors } from "./unrecovered-stream-errors.js";
import { rowsOf } from "../../output/published-rows.js";
import type { PublishDecision } from "../../output/publish-guard.js";
import type { NightlyManifest } from "./nightly-manifest.js";
import { nightlyManifest } from "./nightly-manifest-of.js";
import { nightBudget, openSource } from "./open-source.js";
import { partitionOf } from "./partition-of.js";
import { stagePart } from "./stage-part.js";
import type { CommitResult } from "./commit-night.js";
import { ConfigError } from "../../core/errors.js";
import { PART_CARD_FILE, PART_STATS_FILE, partLocation } from "./staged-part.js";
import { formatScoreCache, parseScoreCache, SCORE_CACHE_DIR, SCORE_CACHE_FILE } from "./score-cache-file.js";
import { sha256Hex } from "../../core/sha256-hex.js";
import { formatNightInput, NIGHT_INPUT_NAME, nightInputDigest } from "./night-input.js";
import type { NightInput } from "./night-input.js";
import { unchangedNight } from "./unchanged-night.js";
import { answeredNight } from "./answered-night.js";
import { EXPORT_ANSWERS_NAME, formatExportAnswers, setupDigest } from "./export-answers-file.js";
import type { SourceEnvironment } from "./open-source.js";
import type { HttpSource, ScoreCache } from "../../pull/index.js";
import { VIEW_TRAITS } from "../../views/view-traits.js";
import { SuiteBook } from "../../formats/suite-book.js";
import { decontaminationManifest, decontaminationSentence } from "../../output/decontamination.js";
import { nightSuites } from "./night-suites.js";
import type { FormatBasics } from "../../formats/format.js";
import { TOKEN_CACHE_FILE, TokenCache } from "../../tokens/token-cache.js";
import { checkSeatRules } from "../../stages/select.js";

const SCORE_CACHE = `${SCORE_CACHE_DIR}/${SCORE_CACHE_FILE}`;

export interface NightlyResult {
  /** The manifest of this night (published only when the dataset changed). */
  readonly manifest: NightlyManifest;
  /** The dataset was replaced tonight (false when nothing changed or the publish guards refused the night). */
  readonly changed: boolean;
  /** The publish guards' verdict (issue 20). */
  readonly decision: PublishDecision;
  /** Where the dataset is: a directory or `s3://BUCKET/PREFIX`. */
  readonly outDir: string;
  /** A dry run: `changed` is false, and this says whether a real night would have published (the dataset changed and the guards let it). */
  readonly dryRun?: { readonly wouldPublish: boolean };
  /** With `commit: "last"`, the commit this part ran, being the last of the night's parts to stage it. */
  readonly commit?: CommitResult;
}

export interface NightlyOptions {
  /** Fetch, validate and count what would change, then drop everything staged: no snapshot, dataset and score cache as they were. */
  readonly dryRun?: boolean;
  /** Write into an output that holds files evalshard did not write (issue 40); refused otherwise. */
  readonly force?: boolean;
  /**
   * A part of a partitioned night (`partition` set): `last` commits the night itself when it finds every part
   * staged and wins the claim (claimCommit: one part of N, even when two finish at once).
   */
  readonly commit?: "last";
  /** The engine's worker threads (`--workers`; 0, the default: main's thread alone). Not the pipeline's: the dataset is the same. */
  readonly workers?: number;
}

/** A night waits on the service more than on parsing, and threads cost it memory (README, `--workers`). */
const NIGHT_WORKERS = 0;

/**
 * One night of a pipeline: fetch (or read) the complete current export, run it through the engine,
 * and make the dataset equal to it, rewriting only the shards whose records changed (a `DatasetSink` of buckets).
 * The output is locked for the whole job, so a second job on it fails at once and changes nothing; a crash
 * at any point leaves the last committed dataset, which the next night continues from.
 * It leaves the process's V8 flags alone (the caller's process is theirs). The pull keeps its per-run state off the
 * heap and its records in the scratch; what a 100,000-run night peaks at is then V8's sizing: under 400 MB on
 * Node 24 with node started with --max-semi-space-size=8 and --heap-growing-percent=100, as the CLI runs it,
 * ~500 MB with Node 24's defaults on a large machine (README, "Memory").
 */
export async function runNightly(spec: PipelineSpec, given: SourceEnvironment = { env: process.env }, options: NightlyOptions = {}): Promise<NightlyResult> {
  const startedAt = new Date().toISOString();
  if (options.commit !== undefined && (options.commit !== "last" || spec.source.kind !== "http" || spec.source.partition === undefined)) {
    throw new ConfigError(`Expected --commit last on a partitioned night (a pipeline with source.partition), got ${JSON.stringify(options.commit)}${spec.source.kind === "http" && spec.source.partition !== undefined ? "" : " without a partition"}`);
  }
  const commitLast = options.commit === "last";
  // One retry budget for the whole night: the answers check and the pull draw from it alike.
  const environment = spec.source.kind === "http" && given.budget === undefined ? { ...given, budget: nightBudget(spec.source, given) } : given;
  // The plan first: a bad option must fail before anything is created.
  const planned = planOfSpec(spec);
  const plan: RunPlan = { ...planned, engine: { workers: options.workers ?? NIGHT_WORKERS } };
  // A pull scores RL and DPO rows from the cards it fetches, so only DPO's seat rules, which no score answers,
  // are left to judge before the first request.
  if (spec.source.kind === "http") checkSeatRules(plan.selection, spec.source.format);
  const out = outputDirOf(spec, environment.env);
  const keepSnapshots = plan.shards.rotation.kind === "buckets" ? plan.shards.rotation.keepSnapshots : undefined;
  let keys = 0;
  // A test's clock waits out the grace at once; the CLI's real timers wait it.
  const clock = environment.clock;
  const grace = { snapshotGraceMs: plan.shards.snapshotGraceMs, ...(clock === undefined ? {} : { sleep: (ms: number) => clock.sleep(ms) }) };
  const lease = plan.leaseMs === undefined ? {} : { leaseMs: plan.leaseMs };
  const inputs = spec.source.kind === "files" ? [...spec.source.inputs, ...(spec.source.scorecards === undefined ? [] : [spec.source.scorecards])] : [];
  const storage = { snapshots: true, ...grace, ...lease, ...(keepSnapshots === undefined ? {} : { keepSnapshots }) };
  const opening = { inputs, storage, force: options.force === true };
  const { sink, published: publishedBefore } = await openOutput(out, opening, (opened) =>
    DatasetSink.open(opened, {
      buckets: { count: spec.output.buckets, split: plan.split },
      onSettled: (settled) => {
        keys = settled.keys;
        environment.onPhase?.({ phase: "fetched", keys, format: settled.format.name });
      },
    }),
  );
  try {
    // Issue 35: read before anything is pulled, so a bad or unreachable suites route fails the night early.
    const suites = spec.source.kind === "http" ? await nightSuites(spec.source, environment, sink.storage) : null;
    const suitesSha = suites?.sha256 ?? null;
    // Saved with the last published dataset; a night that publishes nothing leaves it as it was, and the
    // next night requests the scorecards it lacks again.
    const prior = spec.source.kind === "http" ? await priorScores(spec, sink, environment, startedAt, suitesSha) : undefined;
    if (prior !== undefined && "answered" in prior) return await stagePart(spec, environment.env, startedAt, await finishUnchanged(sink, prior.answered, environment, out, options.dryRun === true), commitLast);
    const scoreCache = prior?.scoreCache;
    // A DPO view's prompts come from the paired runs' RL records, which the pull then fetches too (issue 18).
    const rlContext = plan.view !== undefined && VIEW_TRAITS[plan.view.name].needsContext;
    // The RL and DPO runs' hashes come from their run documents, which the pull reads with their scorecards.
    let pulled: HttpSource | null = null;
    const book = suites === null || suites.suites.length === 0 ? null : SuiteBook.learned(suites.suites, () => pulled?.scoreCacheOut() ?? new Map());
    const opened = await openSource(spec, sink.scratch, environment, scoreCache, { rlContext, ...(book === null ? {} : { suites: book }) });
    pulled = opened.http;
    // A pull is read to its end first: when it equals what the dataset was made from, nothing is converted.
    const digest = opened.http === null ? null : await nightInputDigest(spec, opened.http, suitesSha);
    if (opened.http !== null && digest !== null) {
      const same = await unchangedNight(sink, digest, { startedAt, pull: opened.http.report() });
      if (same !== null) return await stagePart(spec, environment.env, startedAt, await finishUnchanged(sink, same, environment, out, options.dryRun === true), commitLast);
    }
    const sources: RunSources = {
      ...(book === null ? {} : { suites: () => book }),
      lines: opened.sources,
      gates: () => opened.gates(),
      scores: () => opened.scores(),
      viewContext: () => contextOf(opened.http),
    };
    // Issue 34: the rows' token counts kept with the dataset, so rows that did not change are not tokenized again.
    const tokenCache = plan.view?.tokenizer === undefined ? null : new TokenCache(await readText(sink.storage, TOKEN_CACHE_FILE));
    const viewed = tokenCache === null || plan.view === undefined ? plan : { ...plan, view: { ...plan.view, tokenCache } };
    const run = await runEngine(viewed, sources, sink);
    const counts = run.tally.counts();
    const undecided = book?.undecided ?? 0;
    if (spec.source.kind === "http" && spec.source.require_suites && undecided > 0) {
      throw new ConfigError(`--require-suites: ${undecided} record(s) of runs whose scenario_version_hash no run document gave (nor a pinned scenario id) cannot be checked against the benchmark suites; nothing was published`);
    }
    environment.onPhase?.({ phase: "converted", records_in: counts.records_in, records_out: counts.records_out, engine: run.engine });
    // Judged once every record is counted, before anything is published (issue 20). A pull fetches the run
    // of each partial_stream line of its bulk streams on its own: those are recovered, and only the rest
    // (an input file's) count against --max-stream-errors.
    const pull = opened.http?.report() ?? null;
    const unrecovered = unrecoveredStreamErrors(counts.stream_errors, pull);
    const night = sink.night;
    const rows = publishedBefore === null ? {} : { rows: { published: publishedBefore, out: rowsOf(night.shards) } };
    // A part stages its share whatever it holds: the commit judges the merged night (issue 37).
    const isPart = spec.source.kind === "http" && spec.source.partition !== undefined;
    const judged = isPart ? partDecision(plan.guards) : decidePublish(plan.guards, { ...counts, stream_errors: unrecovered, quarantined_share: run.tally.quarantinedShare(), ...rows });
    const published = night.changed && judged.published;
    const decontamination = suites === null ? undefined : { section: decontaminationManifest(suites.asked, suitesSha, suites.suites, book), warning: suites.undecidable };
    const manifest = await nightlyManifest({ ...(decontamination === undefined ? {} : { decontamination }), spec, startedAt, run, night, sources, pull, snapshot: published && options.dryRun !== true ? sink.number : null, publish: judged, base: judged.published && options.dryRun !== true ? sink.base : "" });
    if (options.dryRun === true) {
      // Everything was fetched, validated, judged and counted; nothing is kept (abort also releases the lock).
      await sink.abort();
      environment.onPhase?.({ phase: "dry_run", would_publish: published, added: night.added, replaced: night.replaced, removed: night.removed });
      return { manifest, changed: false, decision: { ...judged, rejected_to: null }, outDir: out, dryRun: { wouldPublish: published } };
    }
    const cacheOut = opened.http === null ? null : formatScoreCache(opened.http.scoreCacheOut());
    const tokenCounts = tokenCache?.format() ?? null;
    const answers = opened.http?.answeredExports() ?? null;
    // A part of a partitioned night keeps what the commit's card needs: a night that changes nothing runs no engine.
    const partCard = isPart ? { [PART_CARD_FILE]: JSON.stringify({ format: formatBasics(run.format), columns: run.columns, ...(run.view === undefined ? {} : { view: run.view.card }) }), [PART_STATS_FILE]: JSON.stringify(run.stats.toPartial()) } : {};
    await sink.publish(
      {
        card: datasetCard({
          format: run.format,
          columns: run.columns,
          shards: night.shards,
          base: sink.base,
          ...(run.view === undefined ? {} : { view: run.view.card }),
          ...(run.split === undefined ? {} : { split: run.split }),
          ...(decontamination === undefined ? {} : { decontamination: decontaminationSentence(decontamination.section) }),
        }),
        manifest,
        extra: { ...partCard, ...(cacheOut === null ? {} : { [SCORE_CACHE]: cacheOut }), ...(tokenCounts === null ? {} : { [TOKEN_CACHE_FILE]: tokenCounts }) },
        ...(digest === null
          ? {}
          : {
              state: (next) => ({
                [NIGHT_INPUT_NAME]: formatNightInput({ input_sha256: digest, ledger_sha256: next.ledger_sha256, keys }),
                ...(answers === null || cacheOut === null
                  ? {}
                  : {
                      [EXPORT_ANSWERS_NAME]: formatExportAnswers({
                        header: {
                          format: "evalshard-export-answers/1",
                          input_sha256: digest,
                          setup_sha256: setupDigest(spec, suitesSha),
                          score_cache_sha256: sha256Hex(cacheOut),
                          requests: answers.requests,
                          report: answers.rerunReport,
                        },
                        entries: answers.entries,
                      }),
                    }),
              }),
            }),
      },
      judged,
    );
    environment.onPhase?.({ phase: "published", changed: published, added: night.added, replaced: night.replaced, removed: night.removed });
    // A night that changed nothing publishes nothing and keeps no refused attempt either.
    return await stagePart(spec, environment.env, startedAt, { manifest, changed: published, decision: night.changed ? judged : { ...judged, rejected_to: null }, outDir: out }, commitLast);
  } catch (error) {
    await sink.abort();
    throw error;
  }
}

/**
 * The score cache the last published night saved, parsed off the heap (its text is not kept through the
 * pull), unless the export answers already tell that nothing is new (the same bodies for the same export
 * requests): then that night's outcome.
 */
async function priorScores(
  spec: PipelineSpec,
  sink: DatasetSink,
  environment: SourceEnvironment,
  startedAt: string,
  suitesSha: string | null,
): Promise<{ readonly answered: { manifest: NightlyManifest; stored: NightInput } } | { readonly scoreCache: ScoreCache }> {
  const text = (await readText(sink.storage, SCORE_CACHE)) ?? "";
  const answered = await answeredNight(spec, sink, environment, text, startedAt, suitesSha);
  return answered !== null ? { answered } : { scoreCache: parseScoreCache(text) };
}

/** A night with nothing new (see {@link unchangedNight}): the phases a converting night reports, nothing published. */
async function finishUnchanged(sink: DatasetSink, same: { manifest: NightlyManifest; stored: NightInput }, environment: SourceEnvironment, outDir: string, dryRun: boolean): Promise<NightlyResult> {
  const { manifest } = same;
  environment.onPhase?.({ phase: "fetched", keys: same.stored.keys, format: manifest.format.name });
  environment.onPhase?.({ phase: "converted", records_in: manifest.records_in, records_out: manifest.records_out });
  await sink.abort();
  const decision = { ...manifest.publish, rejected_to: null };
  if (dryRun) {
    environment.onPhase?.({ phase: "dry_run", would_publish: false, added: 0, replaced: 0, removed: 0 });
    return { manifest, changed: false, decision, outDir, dryRun: { wouldPublish: false } };
  }
  environment.onPhase?.({ phase: "published", changed: false, added: 0, replaced: 0, removed: 0 });
  return { manifest, changed: false, decision, outDir };
}

/** A partition job writes its own dataset under the pipeline's output, `_parts/part-<k>-of-<N>`, which `commit` merges. */
export function outputDirOf(spec: PipelineSpec, env: Readonly<Record<string, string | undefined>> = process.env): string {
  if (spec.source.kind !== "http" || spec.source.partition === undefined) return spec.output.dir;
  const { index, count } = partitionOf(spec.source.partition, spec.source.partition_by, env);
  return partLocation(spec.output.dir, index, count);
}

/** The plain facts of a format a card names (a Format holds its schema too, which is no JSON). */
function formatBasics({ name, versionField, version, untrustedPaths, columns }: FormatBasics): FormatBasics {
  return { name, versionField, version, untrustedPaths, columns };
}

/** Issue 18: the paired runs' RL records a DPO pull fetched for its view, named for the manifest. */
function contextOf(http: HttpSource | null): { path: string; name: string } | null {
  const path = http?.contextFile() ?? null;
  return http === null || path === null ? null : { path, name: `RL records of the paired runs, from ${http.name}` };
}
