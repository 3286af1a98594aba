import { availableParallelism } from "node:os";
import type { Readable } from "node:stream";
import { ConfigError } from "./errors.js";
import type { FormatName } from "./formats/format.js";
import type { FilterRule } from "./reasons.js";
import type { LineSource } from "./sources/line-source.js";

export type OutputKind = "parquet" | "jsonl";
export type Compression = "zstd" | "gzip" | "snappy" | "none";
/**
 * "parallel": worker threads, one read of the inputs, our own Parquet encoder; "stages": the library's
 * async-iterable stages one record at a time, Parquet by DuckDB. "auto" picks parallel wherever it can run.
 */
export type Engine = "auto" | "parallel" | "stages";
export const ENGINES: readonly Engine[] = ["auto", "parallel", "stages"];

/** Why the parallel engine cannot write this output, or null when it can (its inputs are checked apart). */
export function parallelOutputRefusal(to: OutputKind, compression: Compression): string | null {
  if (to !== "parquet") return `it writes Parquet only, not ${to}`;
  if (compression === "snappy") return "it does not encode snappy";
  return null;
}

/** Options of `convert`; the CLI's flags map one to one onto these. */
export interface ConvertOptions {
  /** Paths, directories, "-" for stdin, or ready sources. */
  readonly inputs: readonly (string | LineSource)[];
  readonly out: string;
  readonly to?: OutputKind;
  readonly format?: FormatName;
  /** Scorecards for participation gating (NDJSON or JSON). */
  readonly scorecards?: string;
  /** path -> drop | redact | keep. */
  readonly untrusted?: Readonly<Record<string, string>>;
  readonly filters?: Partial<Record<FilterRule, boolean>>;
  readonly shardRows?: number;
  readonly shardBytes?: number;
  readonly compression?: Compression;
  /** Share of quarantined records above which the run still publishes but reports failure (exit 3). */
  readonly maxQuarantined?: number;
  readonly maxLineBytes?: number;
  readonly acceptLaterMinor?: boolean;
  /** Standard input, for the "-" input; process.stdin by default. */
  readonly stdin?: Readable;
  /** Default "auto". */
  readonly engine?: Engine;
  /** Worker threads of the parallel engine; default: the machine's available parallelism. */
  readonly workers?: number;
}

export const DEFAULTS = {
  to: "parquet",
  compression: "zstd",
  shardRows: 100_000,
  shardBytes: 512 * 1024 * 1024,
  maxQuarantined: 0.05,
  maxLineBytes: 64 * 1024 * 1024,
  engine: "auto",
} as const;

export interface ResolvedConvertOptions extends Required<Omit<ConvertOptions, "format" | "scorecards" | "stdin">> {
  readonly format: FormatName | undefined;
  readonly scorecards: string | undefined;
  readonly stdin: Readable | undefined;
}

/** Fills defaults and rejects impossible values, naming the option and the value. */
export function resolveConvertOptions(options: ConvertOptions): ResolvedConvertOptions {
  const to = options.to ?? DEFAULTS.to;
  if (to !== "parquet" && to !== "jsonl") throw new ConfigError(`Unknown output ${JSON.stringify(to)}: expected parquet or jsonl`);
  const compression = options.compression ?? DEFAULTS.compression;
  const allowed: readonly string[] = to === "parquet" ? ["zstd", "gzip", "snappy", "none"] : ["zstd", "gzip", "none"];
  if (!allowed.includes(compression)) {
    throw new ConfigError(`Compression ${JSON.stringify(compression)} is not available for ${to}: expected one of ${allowed.join(", ")}`);
  }
  if (options.inputs.length === 0) throw new ConfigError("No inputs: name at least one file, directory or - for stdin");
  if (typeof options.out !== "string" || options.out === "") throw new ConfigError(`Output directory must be a non-empty path, got ${JSON.stringify(options.out)}`);
  const engine = options.engine ?? DEFAULTS.engine;
  if (!ENGINES.includes(engine)) throw new ConfigError(`Unknown engine ${JSON.stringify(engine)}: expected one of ${ENGINES.join(", ")}`);
  const maxQuarantined = options.maxQuarantined ?? DEFAULTS.maxQuarantined;
  if (!(maxQuarantined >= 0 && maxQuarantined <= 1)) {
    throw new ConfigError(`Expected maxQuarantined to be a ratio from 0 to 1, got ${maxQuarantined}`);
  }
  return {
    inputs: options.inputs,
    out: options.out,
    to,
    format: options.format,
    scorecards: options.scorecards,
    untrusted: options.untrusted ?? {},
    filters: options.filters ?? {},
    shardRows: positiveInteger("shardRows", options.shardRows ?? DEFAULTS.shardRows),
    shardBytes: positiveInteger("shardBytes", options.shardBytes ?? DEFAULTS.shardBytes),
    compression,
    maxQuarantined,
    maxLineBytes: positiveInteger("maxLineBytes", options.maxLineBytes ?? DEFAULTS.maxLineBytes),
    acceptLaterMinor: options.acceptLaterMinor ?? false,
    stdin: options.stdin,
    engine,
    workers: positiveInteger("workers", options.workers ?? Math.max(1, availableParallelism())),
  };
}

export function positiveInteger(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1) throw new ConfigError(`Expected ${name} to be a whole number from 1 and up, got ${value}`);
  return value;
}
