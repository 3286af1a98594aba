import { partitionOf } from "./partition-of.js";
import { createServiceClient, credentialsFromEnv, RetryBudget, systemClock } from "../../http/index.js";
import type { BodyDigest, ClientEvent, Clock, RetryPolicy, ServiceClient } from "../../http/index.js";
import type { PipelineSpec } from "../../pipeline-file/pipeline-spec.js";
import { httpSource } from "../../pull/index.js";
import type { HttpSource, PullEvent, ScoreCache } from "../../pull/index.js";
import { expandInputs } from "../../sources/expand-inputs.js";
import type { LineSource } from "../../sources/line-source.js";
import { readScorecardFile } from "../../stages/read-scorecards.js";
import type { ScoreBook } from "../../formats/scorecard-book.js";
import type { GateBook } from "../../formats/gate-book.js";
import type { SuiteBook } from "../../formats/suite-book.js";

/** Knobs for tests and embedding: the environment, and the client's clock and retry policy. */
export interface SourceEnvironment {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly clock?: Clock;
  readonly retry?: RetryPolicy;
  /**
   * What every retry of the night draws from (its clients share it). Default one of the source's
   * `retry_budget` seconds on `clock`, made by `nightBudget`.
   */
  readonly budget?: RetryBudget;
  readonly onPullEvent?: (event: PullEvent) => void;
  /** Hears each phase of a night as it ends: fetch (the first read), convert (the second), publish. */
  readonly onPhase?: (phase: NightPhase) => void;
}

export type NightPhase =
  | { readonly phase: "fetched"; readonly keys: number; readonly format: string }
  /** `engine`: the one that ran tonight's records (none ran when nothing was new). */
  | { readonly phase: "converted"; readonly records_in: number; readonly records_out: number; readonly engine?: string }
  | { readonly phase: "published"; readonly changed: boolean; readonly added: number; readonly replaced: number; readonly removed: number }
  | { readonly phase: "dry_run"; readonly would_publish: boolean; readonly added: number; readonly replaced: number; readonly removed: number };

export interface OpenedSource {
  readonly sources: readonly LineSource[];
  /** The scorecards' gating: known after the first read for the service, from the scorecards file otherwise. */
  gates(): GateBook | undefined;
  /**
   * RL and DPO scores for the selection and the stats: a files source's valid scorecards (issue 20), a pull's
   * cards once its first read is done (issue 36); undefined for SFT and for files without scorecards.
   */
  scores(): ScoreBook | undefined;
  readonly http: HttpSource | null;
}

/**
 * Opens a pipeline's source: the service (credentials from the environment only) or export files.
 * `scoreCache`: scores saved by an earlier night, so the service is asked only for new scorecards.
 */
export async function openSource(spec: PipelineSpec, spoolDir: string, environment: SourceEnvironment, scoreCache?: ScoreCache, o: { readonly rlContext?: boolean; readonly suites?: SuiteBook } = {}): Promise<OpenedSource> {
  const source = spec.source;
  if (source.kind === "files") {
    const sources = await expandInputs(source.inputs, { spoolDir });
    const cards = source.scorecards === undefined ? undefined : await readScorecardFile(source.scorecards);
    return { sources, gates: () => cards?.gates, scores: () => cards?.book, http: null };
  }
  let http: HttpSource | undefined;
  const client = clientOf(source, environment, (event) => http?.clientEvent(event), (digest) => http?.clientBody(digest));
  http = httpSource({
    client,
    auth: source.auth,
    format: source.format,
    spoolDir,
    ...(source.partition === undefined ? {} : { partition: partitionOf(source.partition, source.partition_by, environment.env) }),
    ...(source.dpo === undefined ? {} : { dpo: { strategy: source.dpo.strategy, maxPairsPerScenario: source.dpo.max_pairs_per_scenario } }),
    ...(environment.onPullEvent === undefined ? {} : { onEvent: environment.onPullEvent }),
    ...(scoreCache === undefined ? {} : { scoreCache }),
    ...(o.rlContext === true ? { rlContext: true } : {}), // issue 18: a DPO view's prompts
    ...(o.suites === undefined ? {} : { suites: o.suites }),
  });
  const opened = http;
  return { sources: [opened], gates: () => opened.gates(), scores: () => opened.scores(), http: opened };
}

/** The service client of an http source: credentials from the environment only. */
export function clientOf(
  source: Extract<PipelineSpec["source"], { kind: "http" }>,
  environment: SourceEnvironment,
  onEvent?: (event: ClientEvent) => void,
  onBody?: (digest: BodyDigest) => void,
): ServiceClient {
  return createServiceClient({
    baseUrl: source.base_url,
    ...credentialsFromEnv(source.auth, environment.env),
    concurrency: source.concurrency,
    hedge: source.hedge === "on",
    ...(environment.clock === undefined ? {} : { clock: environment.clock }),
    budget: environment.budget ?? nightBudget(source, environment),
    ...(environment.retry === undefined ? {} : { retry: environment.retry }),
    ...(onEvent === undefined ? {} : { onEvent }),
    ...(onBody === undefined ? {} : { onBody }),
  });
}

/** One night's retry budget: the source's `retry_budget` seconds, on the environment's clock. */
export function nightBudget(source: Extract<PipelineSpec["source"], { kind: "http" }>, environment: Pick<SourceEnvironment, "clock">): RetryBudget {
  return new RetryBudget(source.retry_budget * 1000, environment.clock ?? systemClock);
}
