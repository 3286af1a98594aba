import { countTotal, quarantinedShare } from "../core/tally.js";
import { isRecord } from "../core/is-record.js";
import { rowsOf } from "../output/published-rows.js";
import type { ShardInfo } from "../output/shard-format.js";
import { isCount, type VerifiedManifest } from "./verified-manifest.js";
import type { VerifyFinding } from "./verify-report.js";

const AT = "manifest.json";

/**
 * Checks what a manifest says of itself, from its own numbers and its shard list: the counts reconcile
 * (`records_in = records_out + dropped + quarantined`), the rows it promises are the rows its shards
 * list (a view's `rows_out`, else `records_out`), a view read the records kept, each split's rows are its
 * shards' rows, the quarantine holds the lines counted as quarantined, the quarantined share and a night's
 * changes add up. `shards` are the well-formed entries (see `shardEntry`).
 */
export function verifyArithmetic(m: VerifiedManifest, shards: readonly ShardInfo[], findings: VerifyFinding[]): void {
  const field = (name: string, message: string) => findings.push({ kind: "manifest_field_mismatch", path: AT, message: `manifest.json's ${name} ${message}` });
  const mismatch = (kind: VerifyFinding["kind"], message: string, expected: number, actual: number) => findings.push({ kind, path: AT, message, expected, actual });
  const listedRows = shards.reduce((sum, s) => sum + s.rows, 0);

  const dropped = countsOf(m.dropped);
  const quarantined = countsOf(m.quarantined);
  if (!isCount(m.records_in) || !isCount(m.records_out) || dropped === null || quarantined === null) {
    field("counts", "are not counts: records_in, records_out and each reason of dropped and quarantined must be integers from 0 up");
  } else {
    const sum = m.records_out + countTotal(dropped) + countTotal(quarantined);
    if (m.records_in !== sum) {
      mismatch("counts_mismatch", `manifest.json counts ${m.records_in} records in, but records_out ${m.records_out} + dropped ${countTotal(dropped)} + quarantined ${countTotal(quarantined)} = ${sum}`, m.records_in, sum);
    }
    const share = quarantinedShare({ records_in: m.records_in, quarantined });
    if (typeof m.quarantined_share !== "number" || Math.abs(m.quarantined_share - share) > 1e-12) {
      field("quarantined_share", `is ${JSON.stringify(m.quarantined_share)}, its counts give ${share}`);
    }
    const entries = m.quarantine === null || m.quarantine === undefined ? 0 : m.quarantine.entries;
    if (entries !== countTotal(quarantined)) {
      mismatch("quarantine_count_mismatch", `manifest.json counts ${countTotal(quarantined)} quarantined lines, its quarantine ${JSON.stringify(entries)} entries`, countTotal(quarantined), isCount(entries) ? entries : -1);
    }
  }

  if (m.view !== undefined && m.view !== null) {
    // A view's rows are its own unit (steps, pairs): the shards hold rows_out of them, made from the records kept.
    if (m.view.rows_out !== listedRows) mismatch("view_rows_mismatch", `manifest.json's view counts ${JSON.stringify(m.view.rows_out)} rows out, its shards ${listedRows} rows`, listedRows, isCount(m.view.rows_out) ? m.view.rows_out : -1);
    if (m.view.records_in !== m.records_out) field("view.records_in", `is ${JSON.stringify(m.view.records_in)}, but ${JSON.stringify(m.records_out)} records were kept for the view to read`);
  } else if (m.records_out !== listedRows) {
    mismatch("records_out_mismatch", `manifest.json counts ${JSON.stringify(m.records_out)} records out, its shards ${listedRows} rows`, isCount(m.records_out) ? m.records_out : -1, listedRows);
  }

  verifySplits(m, shards, listedRows, field, mismatch);

  // Issue 36: the statistics count the rows the shards hold, split by split.
  const stats = m.stats;
  if (stats !== undefined && stats !== null) {
    if (stats.rows !== listedRows) field("stats.rows", `is ${JSON.stringify(stats.rows)}, its shards hold ${listedRows} rows`);
    for (const [name, rows] of Object.entries(stats.splits ?? {})) {
      const actual = rowsOf(shards.filter((s) => (s.split ?? "train") === name));
      if (rows !== actual) field(`stats.splits.${name}`, `is ${JSON.stringify(rows)}, its ${name} shards hold ${actual} rows`);
    }
  }

  const night = m.night;
  if (night !== undefined && night !== null) {
    const parts = [night.added, night.replaced, night.unchanged];
    const sum = parts.every(isCount) ? (parts as number[]).reduce((a, b) => a + b, 0) : null;
    if (sum !== listedRows) field("night", `adds ${JSON.stringify(night.added)} + replaced ${JSON.stringify(night.replaced)} + unchanged ${JSON.stringify(night.unchanged)} rows, its shards hold ${listedRows}`);
    // Each split has output.buckets buckets of its own, numbered on across the splits.
    const splits = Math.max(1, Object.keys(m.split?.splits ?? {}).length);
    const buckets = isCount(m.output?.buckets) ? m.output.buckets * splits : Infinity;
    if (!Array.isArray(night.buckets_rewritten) || !night.buckets_rewritten.every((b) => isCount(b) && b < buckets)) {
      field("night.buckets_rewritten", `is not a list of bucket numbers below ${buckets} (output.buckets for each split)`);
    }
  }

  const seen = new Set<string>();
  const to = m.output?.to;
  for (const shard of shards) {
    if (seen.has(shard.path)) field("shards", `list ${shard.path} twice`);
    seen.add(shard.path);
    const extension = to === "parquet" ? ".parquet" : to === "jsonl" ? ".jsonl" : null;
    if (extension === null || !shard.path.replace(/\.(gz|zst)$/, "").endsWith(extension)) field("shards", `name ${shard.path}, not a file of output.to ${JSON.stringify(to)}`);
  }
}

/** Each split's rows: as many as its shards', summing to all of them; every shard's split is one of them. */
function verifySplits(
  m: VerifiedManifest,
  shards: readonly ShardInfo[],
  listedRows: number,
  field: (name: string, message: string) => void,
  mismatch: (kind: VerifyFinding["kind"], message: string, expected: number, actual: number) => void,
): void {
  const splits = m.split?.splits;
  if (splits === undefined || splits === null) {
    for (const shard of shards) if (shard.split !== undefined) field("shards", `give ${shard.path} the split ${shard.split}, but the manifest has no split section`);
    return;
  }
  const names = Object.keys(splits);
  // A convert names its splits in `output` too; a nightly dataset only in its split section.
  if (m.output?.split !== undefined && JSON.stringify(m.output.split) !== JSON.stringify(names)) field("output.split", `is ${JSON.stringify(m.output?.split)}, its split section names ${JSON.stringify(names)}`);
  let sum = 0;
  for (const name of names) {
    const rows = splits[name]?.rows;
    const actual = rowsOf(shards.filter((s) => s.split === name));
    if (!isCount(rows)) {
      field(`split.splits.${name}.rows`, `is ${JSON.stringify(rows)}, not a count`);
      continue;
    }
    sum += rows;
    if (rows !== actual) mismatch("split_rows_mismatch", `manifest.json's split ${name} counts ${rows} rows, its ${name} shards ${actual}`, rows, actual);
  }
  if (sum !== listedRows) mismatch("split_rows_mismatch", `manifest.json's splits count ${sum} rows, its shards ${listedRows}`, sum, listedRows);
  for (const shard of shards) if (shard.split === undefined || !names.includes(shard.split)) field("shards", `give ${shard.path} the split ${JSON.stringify(shard.split)}, not one of ${JSON.stringify(names)}`);
}

/** A reason -> count map, or null when it is not one. */
function countsOf(value: unknown): Record<string, number> | null {
  if (!isRecord(value)) return null;
  return Object.values(value).every(isCount) ? (value as Record<string, number>) : null;
}
