import { stringifyExact } from "../core/exact-json.js";
import { eachKept, type Stage } from "../core/flow.js";
import type { ValidRecord } from "../formats/valid-record.js";
import { quarantine } from "../stages/quarantine-item.js";
import { TextAudit } from "./text-audit.js";
import type { AnyView } from "./view.js";
import type { ViewEnv } from "./view-env.js";
import type { ViewResult } from "./view-result.js";
import type { ViewTally } from "./view-tally.js";
import { viewRows } from "./token-budget.js";

/** A kept record with the rows its view made of it (possibly none). */
export interface ViewedRecord {
  readonly record: ValidRecord;
  readonly rows: readonly Record<string, unknown>[];
  /** With a tokenizer: each row's training-text tokens, in row order (the dataset's statistics count them). */
  readonly tokens?: readonly number[];
}

/** What a view run does with a row whose text matches an injection pattern. */
export type OnInjection = "keep" | "drop" | "quarantine";

/**
 * The view as a record-level stage: each kept record stays one kept item, carrying its rows, so the run's
 * tally still counts records (`records_in = records_out + dropped + quarantined`) while the view's own tally
 * counts rows and the steps or pairs left out. With `quarantine`, a record any of whose rows matched an
 * injection pattern is quarantined whole (reason `injection`, its JSON as the raw text): none of its rows is
 * written and none of its texts is counted in the audit; its steps or pairs are not counted in the view's
 * tally either, since the record left the dataset.
 */
export function viewRecords(view: AnyView, env: ViewEnv, tally: ViewTally, onInjection: OnInjection): Stage<ValidRecord, ViewedRecord> {
  const rows = viewRows(view);
  // Quarantine decides per record: rows are built as under `drop` against an audit of the record's own,
  // which joins the run's audit only when the record is kept.
  const quarantining = onInjection === "quarantine";
  const base: ViewEnv = quarantining ? { ...env, onInjection: "drop" } : env;
  return eachKept(function* (item) {
    const recordEnv = quarantining ? { ...base, audit: new TextAudit() } : base;
    const result = rows(item.value.record, recordEnv);
    const injected = injectedUnder(quarantining, result);
    if (injected > 0) {
      yield quarantine(item.provenance, "injection", injectionDetail(view, injected), stringifyExact(item.value.record), item.value.bytes);
      return;
    }
    if (quarantining) env.audit.merge(recordEnv.audit);
    tally.add(result);
    yield { kind: "kept", provenance: item.provenance, value: { record: item.value, rows: result.rows, ...(result.tokens === undefined ? {} : { tokens: result.tokens }) } };
  });
}

/**
 * Under `--on-injection quarantine` (`quarantine`), how many of a record's steps or pairs matched an injection
 * pattern: a record with any is quarantined whole, none of its rows written and none of its counts kept. 0
 * without quarantine, where a matching row is dropped or kept on its own.
 */
export function injectedUnder(quarantine: boolean, result: Pick<ViewResult<unknown>, "dropped">): number {
  return quarantine ? (result.dropped.injection ?? 0) : 0;
}

/** The quarantine detail of a record `injected` of whose steps or pairs matched an injection pattern. */
export function injectionDetail(view: AnyView, injected: number): string {
  return `${injected} ${view.unit}${injected === 1 ? "" : "s"} of the ${view.name} view matched a prompt-injection pattern (--on-injection quarantine)`;
}
