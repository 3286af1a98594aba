import { ConfigError } from "../core/errors.js";
import type { FormatName } from "../formats/format.js";

/** What a split keeps together: every run of a scenario (`scenario.campaign_id`), or every seat and step of a run (`run_id`). */
export const SPLIT_BY = ["scenario", "run"] as const;
export type SplitBy = (typeof SPLIT_BY)[number];

/**
 * The key of the split's hash when none is given. Fixed, and written in every manifest: a dataset split with
 * it today is split the same way by any later evalshard (docs/decisions.md).
 */
export const DEFAULT_SPLIT_SEED = "evalshard-split-1";

/** Where a record holds its group id, by what the split keeps together (a dotted path into the record). */
export const GROUP_KEY_PATH: Readonly<Record<SplitBy, string>> = { scenario: "scenario.campaign_id", run: "run_id" };

/** A record's group id, as the service gave it (opaque: hashed, never parsed). */
export type GroupKeyOf = (record: Readonly<Record<string, unknown>>) => string;

/**
 * Where a record of `format` names its group. Every format carries `scenario.campaign_id`; SFT and RL records
 * are one seat of one run (`run_id`). A DPO record pairs two runs of one scenario, so it has no one run to
 * follow: splitting DPO records by run would put a run on both sides, and is refused.
 */
export function groupKeyOf(by: SplitBy, format: FormatName): GroupKeyOf {
  if (by === "run" && format === "dpo") {
    throw new ConfigError('--split-by run cannot split dpo records: each pairs two runs (run_chosen, run_rejected) of one scenario; split them by scenario');
  }
  const names = GROUP_KEY_PATH[by].split(".");
  return (record) => {
    let key: unknown = record;
    for (const name of names) key = (key as Readonly<Record<string, unknown>> | undefined)?.[name];
    // Validation guarantees both fields; a record without one is a bug upstream, not data.
    if (typeof key !== "string") throw new Error(`Internal error: a ${format} record without its ${GROUP_KEY_PATH[by]} reached the split`);
    return key;
  };
}
