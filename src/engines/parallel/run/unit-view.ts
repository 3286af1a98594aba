import type { ColumnPlan } from "../../../parquet/column-plan.js";
import { shredRecord } from "../../../parquet/shred-record.js";
import type { RowOut } from "../../../views/leaf-columns.js";
import { TextAudit } from "../../../views/text-audit.js";
import { utf8MayMatter } from "../../../views/text-prefilter.js";
import type { PathAudit } from "../../../views/text-audit.js";
import type { AnyView, ViewName } from "../../../views/view.js";
import { viewEnv } from "../../../views/view-env.js";
import type { ViewEnv, ViewOptions } from "../../../views/view-env.js";
import type { Utf8Range } from "../../../views/utf8-range.js";
import type { ViewWritten } from "../../../views/view-result.js";
import { ViewTally } from "../../../views/view-tally.js";
import type { ViewCounts } from "../../../views/view-tally.js";
import { viewOf } from "../../../views/views.js";
import { viewRows } from "../../../views/token-budget.js";
import type { TokenBudget } from "../../../tokens/token-budget.js";
import { tokenBudgetOf } from "../../../views/token-budget-of.js";
import { TokenCache } from "../../../tokens/token-cache.js";
import { WasmAudit } from "../fast/wasm-audit.js";
import { jsonFormOf } from "../fast/wasm-json-form.js";
import { withLine } from "./json-lines.js";
import type { RecordFacts } from "../../../formats/format.js";
import { stringifyExact } from "../../../core/exact-json.js";
import { injectedUnder, injectionDetail } from "../../../views/view-records.js";
import { RlContext } from "../../../views/rl-context.js";
import type { RlContextEntries } from "../../../views/rl-context.js";

/** What main decided of a view's record that gave rows (a DecideMessage's `records`): it stays, or it won dedup and is quarantined whole. */
export const RECORD_KEPT = 1;
export const RECORD_QUARANTINED = 2;

/** The view a run builds, as the workers are started with it: plain data, files already read in main. */
export interface ViewSetup {
  readonly name: ViewName;
  readonly options: ViewOptions;
  /** `--on-injection quarantine`: a record any of whose rows matches an injection pattern gives no rows, and is quarantined whole. */
  readonly quarantine: boolean;
  /** A DPO view's RL records (`--context`, or a pull's), as main read them; null for the views without. */
  readonly context: RlContextEntries | null;
  /**
   * A nightly view's token cache (`TokenCache.text`, the counts its last night kept): each unit looks its rows
   * up in its own copy, and main counts what its kept records' rows found (`UnitViewCounts.tokenCounts`).
   */
  readonly tokenCounts?: string | null;
}

/** What a record gave: its rows, or (`--on-injection quarantine`) the quarantine entry's detail and raw text instead. */
export type UnitViewWritten = { readonly rows: number; readonly injected: null } | { readonly rows: 0; readonly injected: { readonly detail: string; readonly raw: string } };

/** What a unit's kept records gave the view: added to the run's view tally and text audit in main. */
export interface UnitViewCounts {
  readonly counts: ViewCounts;
  readonly audit: Readonly<Record<string, PathAudit>>;
  /** With a token cache: the rows' entries of each record that won dedup, in order, for main's cache (`TokenCache.absorb`). */
  readonly tokenCounts?: readonly RecordTokens[];
}

/** A record's rows' token cache entries; `counted`: the record stays (one quarantined whole counts no hits, as in the stages). */
export interface RecordTokens {
  readonly entries: readonly (readonly [string, number])[];
  readonly counted: boolean;
}

/** A record's part of the counts, until main says whether the record stays. */
interface RecordCounts {
  readonly counts: ViewCounts;
  readonly audit: TextAudit;
  readonly tokenCounts: readonly (readonly [string, number])[] | undefined;
}

/**
 * A worker's side of a training view (src/views: the view's own row builders): a record
 * in, its rows written into the unit's row group (by the view's `write` where it has one, else its `rows`
 * shredded). The view's counts (rows, steps or pairs left out, the text audit) are held per record
 * until main has decided dedup, since a record that loses to another copy must count for nothing.
 */
export class UnitView {
  readonly #write: (record: unknown, env: ViewEnv, out: RowOut, keyedBy: RecordFacts | null) => ViewWritten;
  readonly #env: ViewEnv;
  readonly #view: AnyView;
  readonly #quarantine: boolean;
  readonly #units = new Map<number, RecordCounts[]>();
  readonly #cache: TokenCache | null;

  /**
   * `plan`: the view's columns, as the unit's row groups lay them out; `lines`: a JSON Lines run, whose plan
   * ends in the rows' lines (json-lines.ts); `keyed`: a nightly's, whose lines are keyed (keyedLine).
   */
  static async open(setup: ViewSetup, plan: ColumnPlan, lines: boolean, keyed = false): Promise<UnitView> {
    const view: AnyView = viewOf(setup.name, setup.options);
    const cache = setup.tokenCounts === undefined ? null : new TokenCache(setup.tokenCounts, true);
    return new UnitView(view, setup, plan, lines || keyed, await tokenBudgetOf(setup.options, cache));
  }

  private constructor(view: AnyView, setup: ViewSetup, plan: ColumnPlan, lines: boolean, budget: TokenBudget | null) {
    this.#view = view;
    this.#quarantine = setup.quarantine;
    this.#cache = budget?.cache ?? null;
    // A budget judges built rows (viewRows), as a quarantine does: the direct writer
    // is for the unbudgeted view, and writes no lines.
    const write = budget === null && !lines && !setup.quarantine ? (view.write?.(plan) as ((record: unknown, env: ViewEnv, out: RowOut) => ViewWritten) | undefined) : undefined;
    const rows = viewRows(view);
    this.#write =
      write ??
      ((record, env, out, keyedBy) => {
        const result = rows(record, env);
        // Quarantined whole: no row of it is written (see viewRecords).
        if (injectedUnder(setup.quarantine, result) > 0) return { rows: 0, dropped: result.dropped, trimmed: result.trimmed };
        for (const [i, row] of result.rows.entries()) {
          out.beginRow();
          const line = keyedBy === null ? (lines ? withLine(view.columns, row) : row) : withLine(view.columns, row, { key: keyedBy.key, scorecardVersion: keyedBy.scorecardVersion, row: i });
          shredRecord(plan, line, out.leaves);
        }
        return { rows: result.rows.length, dropped: result.dropped, trimmed: result.trimmed, ...(result.tokens === undefined ? {} : { tokens: result.tokens }) };
      });
    // Under quarantine the options say `drop` (openViewRun): rows are built so, and the record judged here.
    const env = viewEnv(setup.options, setup.context === null ? null : RlContext.of(setup.context), budget);
    // The byte prefilter knows the built-in control tokens only: with the user's own, every text is decoded and checked.
    this.#env = (setup.options.controlTokens ?? []).length === 0 ? { ...env, clearBytes, jsonForm } : { ...env, jsonForm };
  }

  /**
   * Writes the rows of a kept record (validated, past the filters) of `unit` into `out`. A record quarantined
   * for injection is held as one that gave no rows: main, which decides whether it stays, counts it. `partial`:
   * the record holds only what the view reads, so one to quarantine is left alone (null) for its whole record.
   * `keyedBy`: a keyed run's record facts.
   */
  write(unit: number, record: unknown, out: RowOut, partial = false, keyedBy: RecordFacts | null = null): UnitViewWritten | null {
    const audit = new TextAudit();
    const result = this.#write(record, { ...this.#env, audit }, out, keyedBy);
    const tokenCounts = this.#cache?.drain();
    const injected = injectedUnder(this.#quarantine, result);
    if (partial && injected > 0) return null;
    let records = this.#units.get(unit);
    if (records === undefined) this.#units.set(unit, (records = []));
    const tokens = result.tokens?.map((n) => [n, 1] as const);
    // What this unit's copy held says nothing of the run's order: main counts the hits (TokenCache.absorb).
    const cached = this.#cache === null ? {} : { tokens_cached: 0 };
    records.push({ counts: { records_in: 1, rows_out: result.rows, dropped: result.dropped, prompts_trimmed: result.trimmed, ...(tokens === undefined ? {} : { tokens }), ...cached }, audit, tokenCounts });
    return injected === 0 ? { rows: result.rows, injected: null } : { rows: 0, injected: { detail: injectionDetail(this.#view, injected), raw: stringifyExact(record) } };
  }

  /**
   * The unit's counts over the records main kept (`kept`: per record `write` saw, in order, RECORD_KEPT or
   * RECORD_QUARANTINED for one that won dedup and is quarantined whole, whose rows the stages judged too);
   * forgets the unit.
   */
  settle(unit: number, kept: Uint8Array): UnitViewCounts {
    const records = this.#units.get(unit) ?? [];
    this.#units.delete(unit);
    if (records.length !== kept.length) throw new Error(`Internal error: unit ${unit} has ${records.length} viewed records, main decided ${kept.length}`);
    const tally = new ViewTally();
    const audit = new TextAudit();
    const tokenCounts: RecordTokens[] = [];
    records.forEach((r, i) => {
      if (kept[i] !== RECORD_KEPT && kept[i] !== RECORD_QUARANTINED) return;
      if (r.tokenCounts !== undefined) tokenCounts.push({ entries: r.tokenCounts, counted: kept[i] === RECORD_KEPT });
      if (kept[i] !== RECORD_KEPT) return;
      tally.merge(r.counts);
      audit.merge(r.audit);
    });
    return { counts: tally.counts(), audit: audit.summary(), ...(this.#cache === null ? {} : { tokenCounts }) };
  }
}

/** The byte pass in this thread's wasm module, for texts the wasm walk left in its memory. */
const wasm = new WasmAudit();

/**
 * Whether `ViewEnv.check` gives a text of these bytes back as it is, clear of every injection pattern: nothing
 * in it the sanitizer (built-in tokens) or a pattern could start at (the text-audit prefilter, a superset of
 * both): where the bytes lie in the module, or copied into the scratch instance.
 */
const clearBytes = (text: Utf8Range): boolean => {
  // The wasm walk checks as it reads (`checked`); a text it did not check is checked here.
  if (text.checked !== null) return text.checked;
  const flagged = wasm.inMemory(text.bytes, text.start, text.end) ?? utf8MayMatter(text.bytes, text.start, text.end);
  return !flagged;
};

/** Whether a JSON value's bytes from the walk are already `JSON.stringify`'s text (the wasm module answers most). */
const jsonForm = (json: Utf8Range): boolean => json.checked ?? jsonFormOf(json.bytes, json.start, json.end);
