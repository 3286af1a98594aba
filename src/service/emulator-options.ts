import { ConfigError } from "../core/errors.js";
import type { AimedFault, FaultEvent } from "./fault-injector.js";
import { checkFaultRates, parseFaultSpec, type FaultRates } from "./fault-spec.js";
import type { PlatformConfig } from "./world-basis.js";

/** Options of `startEmulator`; every one has a default. */
export interface EmulatorOptions {
  /** TCP port; 0 (the default) picks a free one. */
  readonly port?: number | undefined;
  /** Interface to bind; loopback by default. */
  readonly host?: string | undefined;
  /** Same seed and options, same bytes. Default 1. */
  readonly seed?: number | undefined;
  /** Number of runs in the world, 1 to 1,000,000. Default 300. */
  readonly runs?: number | undefined;
  /** Epoch to start at. Default 0. */
  readonly epoch?: number | undefined;
  /** Seeded fault rates: a spec string (`429=0.08,cut=0.03`) or an object. */
  readonly faults?: string | FaultRates | undefined;
  /** Faults aimed at named requests, for tests. */
  readonly aimedFaults?: readonly AimedFault[] | undefined;
  readonly timing?: Partial<FaultTiming> | undefined;
  /** Platform settings the spec calls configurable. */
  readonly platform?: Partial<PlatformConfig> | undefined;
  /** Called for every injected fault (they are also kept in `faultLog`). */
  readonly onFault?: ((event: FaultEvent) => void) | undefined;
  /**
   * Also serve the emulator's additions to the spec's response fields (docs/emulator.md: scorecard
   * `seat_index`, `role`, `version`, `created_at`; coaching item `type`, `is_platform_guardrail`).
   * Default false: only the fields the spec shows, so a client tested here relies on nothing else.
   */
  readonly extraFields?: boolean | undefined;
  /**
   * How a gated seat's card is stamped (spec 2.7 names a stamp, not its type): `true` (the default),
   * `detail` (`{player_messages, min_player_messages}`), or `text`, a faulty service's strings (`"true"`
   * on gated seats, `"false"` on every other agent seat), which a client must not read either way.
   */
  readonly gateStamp?: GateStamp | undefined;
  /**
   * Issue 35: some of the first account's campaigns are benchmark suite scenarios, or copies of them (same
   * `scenario_version_hash`, another id), and a fourth suite is released at epoch 1. Default false: the
   * suites pin only scenarios the world never plays.
   */
  readonly benchmarkRuns?: boolean | undefined;
}

export const GATE_STAMPS = ["true", "detail", "text"] as const;
export type GateStamp = (typeof GATE_STAMPS)[number];

export interface FaultTiming {
  /** How long a 504 takes to arrive. */
  readonly gatewayTimeoutMs: number;
  /** The `Retry-After` of 429 and 503 answers, in seconds. */
  readonly retryAfterSeconds: number;
  /** Pause between the pieces of a slow body. */
  readonly slowDelayMs: number;
}

/** The ranges of the whole-number options; `evalshard serve` checks its flags against them as it parses. */
export const WHOLE_RANGES = { port: [0, 65_535], seed: [0, 4_294_967_295], runs: [1, 1_000_000], epoch: [0, 1_000_000] } as const;

/** The options with defaults applied and checked; throws ConfigError naming the bad option. */
export function resolveOptions(options: EmulatorOptions) {
  return {
    port: whole("port", options.port ?? 0, ...WHOLE_RANGES.port),
    host: options.host ?? "127.0.0.1",
    seed: whole("seed", options.seed ?? 1, ...WHOLE_RANGES.seed),
    runs: whole("runs", options.runs ?? 300, ...WHOLE_RANGES.runs),
    epoch: whole("epoch", options.epoch ?? 0, ...WHOLE_RANGES.epoch),
    faults: typeof options.faults === "string" ? parseFaultSpec(options.faults) : checkFaultRates(options.faults ?? {}),
    aimedFaults: options.aimedFaults ?? [],
    timing: {
      gatewayTimeoutMs: whole("timing.gatewayTimeoutMs", options.timing?.gatewayTimeoutMs ?? 1_000, 0, 120_000),
      retryAfterSeconds: whole("timing.retryAfterSeconds", options.timing?.retryAfterSeconds ?? 1, 0, 3_600),
      slowDelayMs: whole("timing.slowDelayMs", options.timing?.slowDelayMs ?? 50, 0, 60_000),
    },
    platform: {
      minPlayerMessages: whole("platform.minPlayerMessages", options.platform?.minPlayerMessages ?? 5, 0, 10_000),
      minActionsPerTurn: ratio("platform.minActionsPerTurn", options.platform?.minActionsPerTurn ?? 0.3),
      agentExportLimitCap: whole("platform.agentExportLimitCap", options.platform?.agentExportLimitCap ?? 200, 1, 100_000),
    },
    onFault: options.onFault,
    extraFields: options.extraFields ?? false,
    gateStamp: stampOf(options.gateStamp ?? "true"),
    benchmarkRuns: options.benchmarkRuns ?? false,
  };
}

function stampOf(value: string): GateStamp {
  if (!(GATE_STAMPS as readonly string[]).includes(value)) throw new ConfigError(`Expected gateStamp to be one of ${GATE_STAMPS.join(", ")}, got ${JSON.stringify(value)}`);
  return value as GateStamp;
}

function whole(name: string, value: number, min: number, max: number): number {
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new ConfigError(`Expected ${name} to be a whole number from ${min} to ${max}, got ${JSON.stringify(value)}`);
  }
  return value;
}

function ratio(name: string, value: number): number {
  if (!(value >= 0 && value <= 1)) throw new ConfigError(`Expected ${name} to be a number from 0 to 1, got ${JSON.stringify(value)}`);
  return value;
}
