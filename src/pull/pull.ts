import { ConfigError } from "../core/errors.js";
import type { ExportClient } from "../http/index.js";
import type { DpoOptions } from "./dpo-pairs.js";
import { noteShare } from "./note-share.js";
import type { FetchRecordsContext } from "./fetch-records.js";
import { listRuns } from "./list-runs.js";
import { inPartition, inScenarioPartition, type Partition } from "./partition.js";
import { pullDpo } from "./pull-dpo.js";
import type { PullTally } from "./pull-report.js";
import { pullRecords } from "./pull-sft-rl.js";
import { pullRoutes, type PullFormat } from "./routes.js";
import type { ScoreCache } from "./scorecards.js";
import type { ScoreTable } from "./score-table.js";
import type { ScoreBookWriter } from "../formats/score-book-writer.js";
import type { GateEntry } from "../formats/gate-book.js";
import type { SuiteBook } from "../formats/suite-book.js";

export interface PullPlan {
  readonly client: ExportClient;
  readonly format: PullFormat;
  readonly spoolDir: string;
  readonly partition: Partition | undefined;
  readonly dpo: DpoOptions;
  readonly skip: ReadonlySet<string> | undefined;
  /** Scores known from earlier pulls, by run id. */
  readonly scoreCache: ScoreCache | undefined;
  /** DPO: also fetch the paired runs' RL records, a DPO view's prompts (issue 18), into `PullFindings.context`. */
  readonly rlContext: boolean;
  /** DPO: the benchmark suites, whose runs are not paired (issue 35). */
  readonly suites?: SuiteBook | undefined;
}

/** What a pull learns besides its lines: its runs' cards that are not open, and the score cache for the next pull. */
export interface PullFindings {
  /** A GateBook's entries: the one gating rule reads them (src/formats/gate-book.ts). */
  readonly gates: GateEntry[];
  readonly scores: ScoreTable;
  /** RL and DPO: the scored runs' cards, the night's score book, where `scores` keeps its entries' (null: SFT). */
  readonly book: ScoreBookWriter | null;
  /** DPO with `rlContext`: the file in `spoolDir` holding the paired runs' RL record lines. */
  context: string | null;
  /** SFT and RL: every score is one the cache in `scores` answers for the same records (see ExportAnswers). */
  settled: boolean;
}

/** What a pull hands the spool: a line as text (no newline), or spool bytes (whole lines with their newlines, as received, in pieces). */
export type PulledLine = string | Buffer;

/**
 * Every line of one pull, in a deterministic order for one state of the service: runs in the
 * service's list order, never in completion order. Fills `found` and the tally as it goes.
 */
export async function* pullLines(plan: PullPlan, tally: PullTally, found: PullFindings): AsyncGenerator<PulledLine> {
  const { client, format, partition } = plan;
  const perRun = partition !== undefined && partition.count > 1 && partition.by !== "scenario" && format !== "dpo";
  const ctx: FetchRecordsContext = { client, routes: pullRoutes(client.auth, format), tally, rl: format === "rl", perRun };
  const scoring = { cache: plan.scoreCache, out: found.scores, book: found.book, gates: found.gates };
  const listed = await listRuns(client, tally);
  tally.r.runsListed = listed.size;
  if (client.auth === "agent" && format === "dpo" && partition !== undefined && partition.count > 1) {
    tally.r.notes.push("agent run summaries name no scenario, so unscored runs are reported as deferred by every partition job");
  }

  if (format === "dpo") {
    const context = plan.rlContext ? { spoolDir: plan.spoolDir, found } : null;
    const runs = Array.from(listed.select((run) => plan.skip?.has(listed.runId(run)) !== true), (run) => listed.run(run));
    yield* pullDpo(ctx, plan.spoolDir, listed, runs, partition, plan.dpo, scoring, context, plan.suites);
  } else {
    // Run numbers, not run objects: a 100,000-run share is 400 KB (issue 21).
    const share = listed.select((run) => {
      if (plan.skip === undefined && partition === undefined) return true;
      const runId = listed.runId(run);
      if (plan.skip?.has(runId) === true) return false;
      if (partition?.by !== "scenario") return inPartition(runId, partition);
      // A scenario's runs stay together, so top-k per scenario and the scenario splits are the whole night's.
      const scenario = listed.campaignId(run);
      if (scenario === undefined) throw new ConfigError(`\`partition_by: scenario\` needs run summaries that name their scenario; run ${JSON.stringify(runId)} names none (agent keys' summaries never do)`);
      return inScenarioPartition(scenario, partition);
    });
    noteShare(listed, share, tally);
    yield* pullRecords(ctx, listed, share, found, scoring, plan.spoolDir);
  }

  // Concurrent fetches append in completion order: put the lists in the service's order.
  const rank = (id: string) => {
    const run = listed.indexOf(id);
    return run < 0 ? Number.MAX_SAFE_INTEGER : run;
  };
  tally.r.deferred.sort((a, b) => rank(a.runId) - rank(b.runId));
  tally.r.noRlData.sort((a, b) => rank(a) - rank(b));
}
