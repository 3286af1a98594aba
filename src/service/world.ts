import { makeAccounts, type Account } from "./accounts.js";
import { blockCount, blocksNewestFirst, makeBlock, type BlockPlan } from "./block-plan.js";
import { campaignCounts, makeCampaign, type Campaign } from "./campaigns.js";
import { INITIAL_KEYS } from "./initial-keys.js";
import { KeyRegistry, type ApiKeyRecord } from "./key-registry.js";
import { IdCodec } from "./opaque-id.js";
import { makeRunPlan, type RunPlan } from "./run-plan.js";
import { runState, type RunState } from "./run-state.js";
import { SeatPool } from "./seat-pool.js";
import { makeSuites, type SuiteBody } from "./suites.js";
import type { PlatformConfig, WorldBasis } from "./world-basis.js";
import { WorldClock } from "./world-clock.js";

export interface WorldOptions {
  readonly seed: number;
  readonly runs: number;
  readonly epoch: number;
  readonly platform: PlatformConfig;
  /** Issue 35: some campaigns are suite scenarios, or copies of them (docs/emulator.md). */
  readonly benchmarkRuns?: boolean;
}

/**
 * The emulated service's data. Only the small basis (accounts, keys, campaigns, suites) is held in
 * memory; a run, its seats, scores and exports are recomputed from (seed, run number, epoch) whenever
 * asked, which is what lets a world of 100,000 runs start instantly and stay small.
 */
export class World implements WorldBasis {
  readonly seed: number;
  readonly runCount: number;
  readonly clock: WorldClock;
  readonly platform: PlatformConfig;
  readonly accounts: readonly Account[];
  readonly campaigns: readonly (readonly Campaign[])[];
  readonly seatPools: readonly SeatPool[];
  readonly ids;
  readonly keys: KeyRegistry;
  /** The keys handed out at start, secrets included. */
  readonly exposedKeys: readonly ApiKeyRecord[];
  readonly suites: readonly SuiteBody[];
  /** The current epoch; requests read it once when they start. */
  epoch: number;

  constructor(options: WorldOptions) {
    this.seed = options.seed;
    this.runCount = options.runs;
    this.epoch = options.epoch;
    this.platform = options.platform;
    this.clock = new WorldClock(options.runs);
    const codec = (kind: string) => new IdCodec(options.seed, kind);
    this.ids = { run: codec("run"), batch: codec("batch"), campaign: codec("campaign"), aicConfig: codec("aic"), message: codec("message") };
    this.accounts = makeAccounts(options.seed, this.clock.genesis);

    let next = 0;
    this.campaigns = campaignCounts(options.runs).map((count, account) =>
      Array.from({ length: count }, () => makeCampaign(options.seed, this.ids.campaign, next++, account)),
    );

    this.keys = new KeyRegistry(options.seed);
    const created = INITIAL_KEYS.map((k) => ({ spec: k, key: this.keys.create(k.account, k.name, k.scopes, this.clock.genesis) }));
    this.exposedKeys = created.filter((c) => c.spec.exposed).map((c) => c.key);
    this.seatPools = this.accounts.map((account) => {
      const mine = created.filter((c) => c.spec.account === account.index);
      return new SeatPool(
        options.seed,
        mine.flatMap(({ spec, key }) => (spec.seat === "filler" ? [] : [{ keyId: key.apiKeyId, ...spec.seat }])),
        mine.filter((c) => c.spec.seat === "filler").map((c) => c.key.apiKeyId),
      );
    });
    this.suites = makeSuites(options.seed, codec("scenario"), this.clock, options.benchmarkRuns === true ? this.campaigns[0] : undefined);
  }

  /** Moves the world one epoch (`POST /_emulator/advance`, `RunningEmulator.advance`). */
  advance(): void {
    this.epoch++;
  }

  state(plan: RunPlan, epoch: number): RunState {
    return runState(this.seed, plan, epoch);
  }

  /** The run an identifier names, or null when there is none. */
  findRun(runId: string): RunPlan | null {
    const n = this.ids.run.decode(runId);
    return n === null || n >= this.runCount ? null : makeRunPlan(this, n);
  }

  /** The account's batch an identifier names, or null when there is none (another account's is none). */
  findBatch(batchId: string, account: number): BlockPlan | null {
    const b = this.ids.batch.decode(batchId);
    if (b === null || b >= blockCount(this.runCount)) return null;
    const block = makeBlock(this, b);
    return block.batch === null || block.account !== account ? null : block;
  }

  /** Batches of an account, newest first. */
  *batchesNewestFirst(account: number): Generator<BlockPlan> {
    for (const block of blocksNewestFirst(this, account)) {
      if (block.batch !== null) yield block;
    }
  }
}
