/** What `verify` can find wrong with a published dataset; each kind is one rule it checks. */
export type FindingKind =
  | "manifest_missing"
  | "manifest_unreadable"
  | "manifest_digest_missing"
  | "manifest_digest_mismatch"
  | "manifest_field_mismatch"
  | "counts_mismatch"
  | "view_rows_mismatch"
  | "split_rows_mismatch"
  | "quarantine_count_mismatch"
  | "path_outside_dataset"
  | "shard_missing"
  | "shard_unlisted"
  | "shard_unreadable"
  | "bytes_mismatch"
  | "sha256_mismatch"
  | "rows_mismatch"
  | "records_out_mismatch"
  | "quarantine_missing"
  | "quarantine_unlisted"
  | "quarantine_entries_mismatch"
  | "state_missing"
  | "state_unreadable"
  | "state_shard_mismatch"
  | "ledger_missing"
  | "ledger_unreadable"
  | "ledger_sha256_mismatch"
  | "ledger_rows_mismatch"
  | "ledger_wrong_bucket"
  | "ledger_bucket_missing"
  | "ledger_bucket_rows_mismatch"
  /** Issue 35: a kept row carries a scenario_version_hash the manifest's decontamination section pins. */
  | "benchmark_row";

/** One difference between what the dataset's records say and what its files hold. */
export interface VerifyFinding {
  readonly kind: FindingKind;
  /** The file it is about, relative to the dataset. */
  readonly path: string;
  readonly message: string;
  /** What the manifest (or state, or ledger) records, when the finding compares two values. */
  readonly expected?: string | number;
  /** What the file holds. */
  readonly actual?: string | number;
}

/** The result of `verify`: `ok` exactly when `findings` is empty. */
export interface VerifyReport {
  /** The dataset's root: a directory, later `s3://bucket/prefix`. */
  readonly location: string;
  readonly ok: boolean;
  /** `huggingface` (convert), `huggingface-buckets` (nightly, with a `_state/` ledger) or `huggingface-parts` (a committed partitioned night); null without a readable manifest. */
  readonly layout: string | null;
  /** What was read and recomputed. */
  readonly checked: {
    readonly shards: number;
    readonly rows: number;
    readonly bytes: number;
    readonly quarantine_entries: number;
    readonly ledger_keys: number;
  };
  readonly findings: readonly VerifyFinding[];
}
