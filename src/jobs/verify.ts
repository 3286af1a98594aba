import { storageFor } from "../output/storage-for.js";
import type { ShardInfo } from "../output/shard-format.js";
import type { Files } from "../output/storage.js";
import { readText } from "../output/write-text.js";
import { readStoredFile } from "./read-stored-file.js";
import { shardPath } from "./shard-path.js";
import { verifyLedger } from "./verify-ledger.js";
import type { VerifyFinding, VerifyReport } from "./verify-report.js";

/** The parts of a convert or nightly manifest that `verify` checks. */
interface VerifiedManifest {
  readonly records_out?: number;
  readonly output?: { readonly layout?: string };
  readonly shards: readonly ShardInfo[];
  readonly quarantine?: { readonly path: string; readonly entries: number } | null;
}

const QUARANTINE_DIR = "_quarantine/";

/**
 * Checks a published dataset (a local directory, or any {@link Files}) against its `manifest.json`: every
 * listed shard is there with its bytes, sha256 and row count; no other shard is under `data/`; the
 * quarantine file holds the entries the manifest counts; a nightly dataset's ledger agrees with its shards.
 * Reads only; never throws for what it finds (see the report's `findings`), only when the storage fails.
 */
export async function verify(target: string | Files): Promise<VerifyReport> {
  const files = typeof target === "string" ? await storageFor(target) : target;
  const findings: VerifyFinding[] = [];
  const checked = { shards: 0, rows: 0, bytes: 0, quarantine_entries: 0, ledger_keys: 0 };
  const done = (layout: string | null): VerifyReport => ({ location: files.location, ok: findings.length === 0, layout, checked, findings });

  const text = await readText(files, "manifest.json");
  if (text === null) {
    findings.push({ kind: "manifest_missing", path: "manifest.json", message: `${files.location} has no manifest.json: not a published evalshard dataset` });
    return done(null);
  }
  let manifest: VerifiedManifest;
  try {
    manifest = JSON.parse(text) as VerifiedManifest;
    if (!Array.isArray(manifest.shards)) throw new Error("it has no `shards` list");
  } catch (error) {
    findings.push({ kind: "manifest_unreadable", path: "manifest.json", message: `manifest.json is not an evalshard manifest: ${(error as Error).message}` });
    return done(null);
  }
  const layout = manifest.output?.layout ?? null;

  const listed = new Map(manifest.shards.map((s) => [shardPath(s.path).dataset, s]));
  const actualRows = new Map<string, number>();
  for (const shard of manifest.shards) {
    const facts = await readStoredFile(files, shardPath(shard.path).read);
    if (facts === null) {
      findings.push({ kind: "shard_missing", path: shard.path, message: `${shard.path} is listed in manifest.json but missing` });
      continue;
    }
    checked.shards++;
    checked.bytes += facts.bytes;
    if (facts.bytes !== shard.bytes) {
      findings.push({ kind: "bytes_mismatch", path: shard.path, message: `${shard.path} has ${facts.bytes} bytes, manifest.json records ${shard.bytes}`, expected: shard.bytes, actual: facts.bytes });
    }
    if (facts.sha256 !== shard.sha256) {
      findings.push({ kind: "sha256_mismatch", path: shard.path, message: `${shard.path} has sha256 ${facts.sha256}, manifest.json records ${shard.sha256}`, expected: shard.sha256, actual: facts.sha256 });
    }
    if (facts.unreadable !== null) {
      findings.push({ kind: "shard_unreadable", path: shard.path, message: `${shard.path} is ${facts.unreadable}` });
      continue;
    }
    checked.rows += facts.rows;
    actualRows.set(shardPath(shard.path).dataset, facts.rows);
    if (facts.rows !== shard.rows) {
      findings.push({ kind: "rows_mismatch", path: shard.path, message: `${shard.path} holds ${facts.rows} rows, manifest.json records ${shard.rows}`, expected: shard.rows, actual: facts.rows });
    }
  }
  const listedRows = manifest.shards.reduce((sum, s) => sum + s.rows, 0);
  if (typeof manifest.records_out === "number" && manifest.records_out !== listedRows) {
    findings.push({ kind: "records_out_mismatch", path: "manifest.json", message: `manifest.json counts ${manifest.records_out} records out, its shards ${listedRows} rows`, expected: manifest.records_out, actual: listedRows });
  }
  // Hidden names are a run's unfinished files (`.train-00000.parquet.partial`), never read as the dataset.
  for (const file of await files.list("data/")) {
    if (!listed.has(file.path) && !file.path.split("/").some((part) => part.startsWith("."))) {
      findings.push({ kind: "shard_unlisted", path: file.path, message: `${file.path} is under data/ but not listed in manifest.json: readers of data/ would load it` });
    }
  }

  await verifyQuarantine(files, manifest.quarantine ?? null, findings, checked);
  if (layout === "huggingface-buckets") checked.ledger_keys = await verifyLedger(files, listed, actualRows, findings);
  return done(layout);
}

async function verifyQuarantine(
  files: Files,
  quarantine: { readonly path: string; readonly entries: number } | null,
  findings: VerifyFinding[],
  checked: { quarantine_entries: number },
): Promise<void> {
  for (const file of await files.list(QUARANTINE_DIR)) {
    if (quarantine === null || file.path !== shardPath(quarantine.path).dataset) {
      findings.push({ kind: "quarantine_unlisted", path: file.path, message: `${file.path} is not the quarantine file manifest.json names` });
    }
  }
  if (quarantine === null) return;
  const facts = await readStoredFile(files, shardPath(quarantine.path).read);
  if (facts === null) {
    findings.push({ kind: "quarantine_missing", path: quarantine.path, message: `${quarantine.path} is missing; manifest.json counts ${quarantine.entries} entries` });
    return;
  }
  checked.quarantine_entries = facts.rows;
  if (facts.unreadable !== null || facts.rows !== quarantine.entries) {
    findings.push({
      kind: "quarantine_entries_mismatch",
      path: quarantine.path,
      message: `${quarantine.path} holds ${facts.unreadable ?? `${facts.rows} entries`}, manifest.json counts ${quarantine.entries}`,
      expected: quarantine.entries,
      actual: facts.rows,
    });
  }
}
