import type { z } from "zod";
import { ConfigError } from "../core/errors.js";
import type { PairDropReason, SemanticReason } from "../core/reasons.js";
import type { Field } from "../schema/column-type.js";

export { SEMANTIC_REASONS } from "../core/reasons.js";

export type FormatName = "sft" | "rl" | "dpo";
export const FORMAT_NAMES: readonly FormatName[] = ["sft", "rl", "dpo"];
/** `name` as a format name; a ConfigError names it otherwise (library callers can pass any string). */
export function formatName(name: string): FormatName {
  if (!(FORMAT_NAMES as readonly string[]).includes(name)) {
    throw new ConfigError(`Unknown format ${JSON.stringify(name)}: expected one of ${FORMAT_NAMES.join(", ")}`);
  }
  return name as FormatName;
}

/** The field that carries each format's version: it names the format of a line. */
export const VERSION_FIELDS = { sft: "format_version", rl: "rl_format_version", dpo: "dpo_format_version" } as const satisfies Readonly<Record<FormatName, string>>;

/** The format whose version field the object carries (the first, in FORMAT_NAMES order), or null. */
export function formatNameOf(value: object): FormatName | null {
  return FORMAT_NAMES.find((name) => VERSION_FIELDS[name] in value) ?? null;
}

/** What the stages need to know about a record, whatever its format. */
export interface RecordFacts {
  /** Dedup key: a JSON array of the key fields, identifiers kept as opaque strings. */
  readonly key: string;
  /** Scorecard version the record was built from; null where the format has none (DPO). */
  readonly scorecardVersion: number | null;
  readonly flagged: boolean;
  /** null where the format has no such field: the rule does not apply. */
  readonly scored: boolean | null;
  readonly reconstruction: string | null;
  /** Runs whose scorecards decide participation gating. */
  readonly runIds: readonly string[];
  /** Pairs that teach a preference (DPO: `pairDropReason` null); null where the format has no pairs. */
  readonly usablePairs: number | null;
  /** The seat a one-seat record (SFT, RL) is about; null for a DPO pair, which names only a seat index. */
  readonly seat: { readonly agentKeyId: string | null; readonly role: string } | null;
  /** `scenario.campaign_id`: the scenario the record is of. */
  readonly campaignId: string;
  /** The run document's `manifest.scenario_version_hash`, where the record carries it (SFT on owner routes). */
  readonly scenarioVersionHash?: string;
}

/** A semantic fault the schema cannot express. */
export interface SemanticFault {
  readonly reason: SemanticReason;
  readonly detail: string;
}

/**
 * Each format's `facts`, `check` and `prune`, apart from its zod schema (record-rules.ts): worker threads of the
 * parallel engine run them on every record without loading zod (whose import alone costs ~0.1 s per thread).
 */
export interface FormatRules<R> {
  facts(record: R): RecordFacts;
  check(record: R): SemanticFault | null;
  /**
   * Removes the parts of a record that passed `check` which teach nothing (DPO pairs), in place; returns how
   * many went, by reason, or null when none did. Formats without such parts have none.
   */
  prune?(record: R): Partial<Record<PairDropReason, number>> | null;
}

/** Everything about one export format version, in one place (made by `defineFormat`): its rules, and `prune` for every format. */
export interface Format<S extends z.ZodType = z.ZodType, U extends string = string> extends Required<FormatRules<z.output<S>>> {
  readonly name: FormatName;
  /** The field that carries the version, e.g. `format_version`. */
  readonly versionField: string;
  /** The supported version, e.g. "1.1". */
  readonly version: string;
  /** The record schema; its output is the record with undeclared fields removed. */
  readonly schema: S;
  /** The same schema accepting any version string; used only for a later minor (`acceptLaterMinor`). */
  readonly anyVersionSchema: z.ZodType<z.output<S>>;
  /** Paths the spec calls untrusted (LLM-generated or operator text), in path syntax. */
  readonly untrustedPaths: readonly U[];
  /** Typed columns for Parquet/Arrow, derived from `schema` so the two never disagree. */
  readonly columns: readonly Field[];
}

/** A format without its zod schema: what setting up a run needs (the fast path's `FormatInfo` extends it). */
export type FormatBasics = Pick<Format, "name" | "versionField" | "version" | "untrustedPaths" | "columns">;
