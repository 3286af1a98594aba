import { verifyDecontamination } from "./verify-decontamination.js";
import { datasetPath } from "../output/dataset-path.js";
import { manifestSealProblem } from "../output/manifest-seal.js";
import { storageFor } from "../output/storage-for.js";
import type { ShardInfo } from "../output/shard-format.js";
import type { Files } from "../output/storage.js";
import { readManifest } from "../output/published-manifest.js";
import { readStoredFile } from "./read-stored-file.js";
import { shardEntry, type VerifiedManifest } from "./verified-manifest.js";
import { verifyArithmetic } from "./verify-arithmetic.js";
import { verifyLedger } from "./verify-ledger.js";
import { verifyQuarantine } from "./verify-quarantine.js";
import { verifyRootCopy } from "./verify-root-copy.js";
import type { VerifyFinding, VerifyReport } from "./verify-report.js";

/**
 * Checks a published dataset (a local directory, `s3://…`, or any {@link Files}) against its `manifest.json`:
 * the manifest is the one evalshard sealed (`manifest_sha256`) and its numbers add up; every listed shard is
 * there, inside the dataset, with its bytes, sha256 and row count; no other shard is under `data/`; the
 * quarantine file has its bytes, sha256 and entries; a nightly dataset's ledger agrees with its shards.
 * Reads only; never throws for what it finds (see the report's `findings`), only when the storage fails.
 */
export async function verify(target: string | Files): Promise<VerifyReport> {
  const files = typeof target === "string" ? await storageFor(target) : target;
  const findings: VerifyFinding[] = [];
  const checked = { shards: 0, rows: 0, bytes: 0, quarantine_entries: 0, ledger_keys: 0 };
  const done = (layout: string | null): VerifyReport => ({ location: files.location, ok: findings.length === 0, layout, checked, findings });

  const read = await readManifest<VerifiedManifest>(files);
  if ("kind" in read) {
    findings.push({ path: "manifest.json", ...read });
    return done(null);
  }
  const { text, manifest } = read;
  const seal = manifestSealProblem(text, manifest);
  if (seal !== null) findings.push({ path: "manifest.json", ...seal });
  await verifyRootCopy(files, findings);
  const layout = typeof manifest.output?.layout === "string" ? manifest.output.layout : null;

  const shards: ShardInfo[] = [];
  for (const [i, entry] of manifest.shards.entries()) {
    const shard = shardEntry(entry);
    if (shard === null) findings.push({ kind: "manifest_field_mismatch", path: "manifest.json", message: `manifest.json's shards[${i}] is not a shard entry (path, rows, bytes, sha256)` });
    else shards.push(shard);
  }
  verifyArithmetic(manifest, shards, findings);

  // By the path the storage reads: what `data/` lists is compared with it.
  const listed = new Map<string, ShardInfo>();
  const actualRows = new Map<string, number>();
  const readPaths: string[] = [];
  for (const shard of shards) {
    const where = datasetPath(shard.path);
    if (where === null) {
      findings.push({ kind: "path_outside_dataset", path: shard.path, message: `manifest.json lists the shard ${JSON.stringify(shard.path)}, a path outside the dataset` });
      continue;
    }
    listed.set(where.dataset, shard);
    readPaths.push(where.read);
    const rows = await verifyShard(files, where.read, shard, findings, checked);
    if (rows !== null) actualRows.set(where.dataset, rows);
  }
  // Hidden names are a run's unfinished files (`.train-00000.parquet.partial`), never read as the dataset.
  for (const file of await files.list("data/")) {
    if (!listed.has(file.path) && !file.path.split("/").some((part) => part.startsWith("."))) {
      findings.push({ kind: "shard_unlisted", path: file.path, message: `${file.path} is under data/ but not listed in manifest.json: readers of data/ would load it` });
    }
  }

  await verifyDecontamination(files, manifest, readPaths, findings);
  checked.quarantine_entries = await verifyQuarantine(files, manifest.quarantine, findings);
  if (layout === "huggingface-buckets") checked.ledger_keys = await verifyLedger(files, listed, actualRows, findings);
  return done(layout);
}

/** One listed shard's bytes, sha256 and rows against its entry; returns the rows it holds, null when unreadable. */
async function verifyShard(files: Files, path: string, shard: ShardInfo, findings: VerifyFinding[], checked: { shards: number; rows: number; bytes: number }): Promise<number | null> {
  const facts = await readStoredFile(files, path);
  if (facts === null) {
    findings.push({ kind: "shard_missing", path, message: `${path} is listed in manifest.json but missing` });
    return null;
  }
  checked.shards++;
  checked.bytes += facts.bytes;
  if (facts.bytes !== shard.bytes) findings.push({ kind: "bytes_mismatch", path, message: `${path} has ${facts.bytes} bytes, manifest.json records ${shard.bytes}`, expected: shard.bytes, actual: facts.bytes });
  if (facts.sha256 !== shard.sha256) findings.push({ kind: "sha256_mismatch", path, message: `${path} has sha256 ${facts.sha256}, manifest.json records ${shard.sha256}`, expected: shard.sha256, actual: facts.sha256 });
  if (facts.unreadable !== null) {
    findings.push({ kind: "shard_unreadable", path, message: `${path} is ${facts.unreadable}` });
    return null;
  }
  checked.rows += facts.rows;
  if (facts.rows !== shard.rows) findings.push({ kind: "rows_mismatch", path, message: `${path} holds ${facts.rows} rows, manifest.json records ${shard.rows}`, expected: shard.rows, actual: facts.rows });
  return facts.rows;
}
