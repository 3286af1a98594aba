import { randomBytes } from "node:crypto";
import type { Files } from "./storage.js";

/** The publish guards, in the order a run reports them (the first tripped one names the exit code). */
// max_shrink before min_records: an empty night over a dataset says "shrink" (exit 8), on a fresh output "too few" (7).
export const PUBLISH_GUARDS = ["max_quarantined", "max_stream_errors", "max_shrink", "min_records"] as const;
export type PublishGuard = (typeof PUBLISH_GUARDS)[number];

/** Where refused attempts are kept, under the dataset's root. */
export const REJECTED_DIR = "_rejected";
/** Refused attempts kept for inspection: a nightly failing every night must not fill the disk. */
export const KEEP_REJECTED = 5;

/** The thresholds, as the plan's `guards` carries them. */
export interface GuardLimits {
  /** Share of quarantined records above which the run does not publish (exit 3). */
  readonly maxQuarantined: number;
  /** `partial_stream` lines above which the run does not publish (exit 6). */
  readonly maxStreamErrors: number;
  /** Records written below which the run does not publish (exit 7). */
  readonly minRecords: number;
  /** Share of the published dataset's rows a run may drop; more (or every row) and it does not publish (exit 8). */
  readonly maxShrink: number;
  /** Publish even when a guard above trips (its exit code stays). */
  readonly publishAnyway: boolean;
}

/** What the guards judge: the run's counts, known once every record went through the stages. */
export interface GuardFacts {
  readonly records_out: number;
  readonly stream_errors: number;
  readonly quarantined_share: number;
  /**
   * The rows of the dataset this run would replace and the rows it would publish (issue 40); absent where
   * nothing was published before (or nothing is published: validate).
   */
  readonly rows?: { readonly published: number; readonly out: number };
}

export interface TrippedGuard {
  readonly guard: PublishGuard;
  readonly limit: number;
  readonly actual: number;
  /** max_shrink: the published dataset's rows and this run's. */
  readonly rows_before?: number;
  readonly rows_after?: number;
}

/** The manifest's `publish` section: the limits, what tripped, and what became of this attempt. */
export interface PublishDecision {
  readonly limits: { readonly max_quarantined: number; readonly max_stream_errors: number; readonly min_records: number; readonly max_shrink: number };
  readonly tripped: readonly TrippedGuard[];
  readonly publish_anyway: boolean;
  /** Whether this attempt replaces the dataset. */
  readonly published: boolean;
  /** Where the refused attempt is kept, relative to the dataset's root (`_rejected/<name>/`); null when published. */
  readonly rejected_to: string | null;
}

/**
 * Judges a finished run before anything is published: over a threshold the attempt is refused (kept under
 * `_rejected/<name>/`) unless `publishAnyway`. `name` is fresh per attempt: a sortable UTC time and random hex.
 */
export function decidePublish(limits: GuardLimits, facts: GuardFacts, name: string = rejectedName()): PublishDecision {
  const checks: Record<PublishGuard, TrippedGuard | null> = {
    max_quarantined: facts.quarantined_share > limits.maxQuarantined ? { guard: "max_quarantined", limit: limits.maxQuarantined, actual: facts.quarantined_share } : null,
    max_stream_errors: facts.stream_errors > limits.maxStreamErrors ? { guard: "max_stream_errors", limit: limits.maxStreamErrors, actual: facts.stream_errors } : null,
    min_records: facts.records_out < limits.minRecords ? { guard: "min_records", limit: limits.minRecords, actual: facts.records_out } : null,
    max_shrink: shrinkTripped(limits.maxShrink, facts.rows),
  };
  const tripped = PUBLISH_GUARDS.map((g) => checks[g]).filter((t): t is TrippedGuard => t !== null);
  const published = tripped.length === 0 || limits.publishAnyway;
  return {
    limits: limitsSection(limits),
    tripped,
    publish_anyway: limits.publishAnyway,
    published,
    rejected_to: published ? null : `${REJECTED_DIR}/${name}/`,
  };
}

/**
 * A part of a partitioned night (issue 37): staged whatever its share holds, since a share is not a night (a
 * part may rightly have no rows). Its manifest keeps the limits; the commit judges the merged night by them.
 */
export function partDecision(limits: GuardLimits): PublishDecision {
  return { limits: limitsSection(limits), tripped: [], publish_anyway: limits.publishAnyway, published: true, rejected_to: null };
}

/** The limits a manifest's `publish` section names, back as GuardLimits; `publishAnyway` is the caller's. */
export function guardLimitsOf(section: PublishDecision["limits"], publishAnyway: boolean): GuardLimits {
  return { maxQuarantined: section.max_quarantined, maxStreamErrors: section.max_stream_errors, minRecords: section.min_records, maxShrink: section.max_shrink, publishAnyway };
}

function limitsSection(limits: GuardLimits): PublishDecision["limits"] {
  return { max_quarantined: limits.maxQuarantined, max_stream_errors: limits.maxStreamErrors, min_records: limits.minRecords, max_shrink: limits.maxShrink };
}

/**
 * The share of the published rows this run would drop, when it is over `limit`, or when the run would leave
 * a non-empty dataset empty (whatever the limit: an empty answer is far likelier an outage than the truth).
 */
function shrinkTripped(limit: number, rows: GuardFacts["rows"]): TrippedGuard | null {
  if (rows === undefined || rows.published === 0) return null;
  const share = Math.max(0, rows.published - rows.out) / rows.published;
  return rows.out === 0 || share > limit ? { guard: "max_shrink", limit, actual: share, rows_before: rows.published, rows_after: rows.out } : null;
}

/** A fresh folder name for a refused attempt: `20261125T214300Z-1a2b3c`, so names sort by time. */
export function rejectedName(now: Date = new Date()): string {
  return `${now.toISOString().replace(/[-:]/g, "").replace(/\.\d+Z$/, "Z")}-${randomBytes(3).toString("hex")}`;
}

/** One line per tripped guard, for stderr: what was over which limit and what became of the attempt. */
export function describeDecision(decision: PublishDecision, location: string): string {
  const what = decision.tripped.map(describeTripped).join("; ");
  if (decision.published) return `published anyway (--publish-anyway), but ${what}`;
  if (decision.rejected_to === null) return `${what}; the dataset is unchanged`;
  return `not published: ${what}; the previous dataset is untouched; this attempt is kept in ${location.replace(/\/$/, "")}/${decision.rejected_to}`;
}

/** The tripped guards, for a message: what was over which limit. */
export function describeTrippedGuards(tripped: readonly TrippedGuard[]): string {
  return tripped.map(describeTripped).join("; ");
}

function describeTripped(t: TrippedGuard): string {
  switch (t.guard) {
    case "max_quarantined":
      return `${(t.actual * 100).toFixed(2)}% of records were quarantined (over --max-quarantined ${t.limit})`;
    case "max_stream_errors":
      return `${t.actual} partial_stream line(s) (over --max-stream-errors ${t.limit}): the export misses runs`;
    case "min_records":
      return `${t.actual} record(s) to write (under --min-records ${t.limit})`;
    case "max_shrink": {
      const rows = t.rows_before === undefined ? "" : ` (${t.rows_before} rows published, ${t.rows_after ?? 0} now)`;
      if (t.rows_after === 0) return `the run would publish 0 rows over a dataset of ${t.rows_before ?? "some"}: an empty answer is refused whatever --max-shrink says`;
      return `the run would drop ${(t.actual * 100).toFixed(2)}% of the published rows${rows} (over --max-shrink ${t.limit})`;
    }
  }
}

/** Deletes all but the newest `keep` refused attempts (their names sort by time). */
export async function pruneRejected(files: Files, keep: number = KEEP_REJECTED): Promise<void> {
  const names = [...new Set((await files.list(`${REJECTED_DIR}/`)).map((f) => f.path.split("/")[1] ?? ""))].filter((n) => n !== "").sort();
  for (const name of names.slice(0, Math.max(0, names.length - keep))) await files.remove(`${REJECTED_DIR}/${name}`);
}
