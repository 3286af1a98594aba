import type { Account } from "./accounts.js";
import type { Campaign } from "./campaigns.js";
import type { IdCodec } from "./opaque-id.js";
import type { SeatPool } from "./seat-pool.js";
import type { WorldClock } from "./world-clock.js";

/** Platform settings the spec calls runtime-configurable (section 9). */
export interface PlatformConfig {
  /** Participation floors (spec 3.4). */
  readonly minPlayerMessages: number;
  readonly minActionsPerTurn: number;
  /** Upper bound of `limit` on the agent bulk exports; larger values are clamped. */
  readonly agentExportLimitCap: number;
}

/** The fixed, small part of the world every generator reads: everything else derives from it. */
export interface WorldBasis {
  readonly seed: number;
  readonly runCount: number;
  readonly clock: WorldClock;
  readonly platform: PlatformConfig;
  readonly accounts: readonly Account[];
  /** Campaigns of each account, by account index. */
  readonly campaigns: readonly (readonly Campaign[])[];
  readonly seatPools: readonly SeatPool[];
  readonly ids: {
    readonly run: IdCodec;
    readonly batch: IdCodec;
    readonly campaign: IdCodec;
    readonly aicConfig: IdCodec;
    readonly message: IdCodec;
  };
}
