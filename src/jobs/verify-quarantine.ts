import { datasetPath } from "../output/dataset-path.js";
import type { Files } from "../output/storage.js";
import { readStoredFile } from "./read-stored-file.js";
import type { VerifiedManifest } from "./verified-manifest.js";
import type { VerifyFinding } from "./verify-report.js";

const QUARANTINE_DIR = "_quarantine/";

/**
 * Checks the quarantine file the manifest names: there, with its bytes, sha256 and entry count; and no other
 * file under `_quarantine/`. Returns the entries read.
 */
export async function verifyQuarantine(files: Files, quarantine: VerifiedManifest["quarantine"], findings: VerifyFinding[]): Promise<number> {
  const named = quarantine === null || quarantine === undefined ? null : quarantine;
  const where = named === null ? null : datasetPath(named.path);
  const path = where === null ? null : where.read;
  for (const file of await files.list(QUARANTINE_DIR)) {
    if (file.path !== where?.dataset) findings.push({ kind: "quarantine_unlisted", path: file.path, message: `${file.path} is not the quarantine file manifest.json names` });
  }
  if (named === null) return 0;
  if (path === null) {
    findings.push({ kind: "path_outside_dataset", path: String(named.path), message: `manifest.json names the quarantine ${JSON.stringify(named.path)}, a path outside the dataset` });
    return 0;
  }
  const facts = await readStoredFile(files, path);
  if (facts === null) {
    findings.push({ kind: "quarantine_missing", path, message: `${path} is missing; manifest.json counts ${JSON.stringify(named.entries)} entries` });
    return 0;
  }
  if (typeof named.sha256 !== "string" || typeof named.bytes !== "number") {
    findings.push({ kind: "manifest_field_mismatch", path: "manifest.json", message: `manifest.json records no bytes and sha256 of its quarantine ${path}` });
  } else {
    if (facts.bytes !== named.bytes) findings.push({ kind: "bytes_mismatch", path, message: `${path} has ${facts.bytes} bytes, manifest.json records ${named.bytes}`, expected: named.bytes, actual: facts.bytes });
    if (facts.sha256 !== named.sha256) findings.push({ kind: "sha256_mismatch", path, message: `${path} has sha256 ${facts.sha256}, manifest.json records ${named.sha256}`, expected: named.sha256, actual: facts.sha256 });
  }
  if (facts.unreadable !== null || facts.rows !== named.entries) {
    findings.push({
      kind: "quarantine_entries_mismatch",
      path,
      message: `${path} holds ${facts.unreadable ?? `${facts.rows} entries`}, manifest.json counts ${JSON.stringify(named.entries)}`,
      ...(typeof named.entries === "number" ? { expected: named.entries } : {}),
      actual: facts.rows,
    });
  }
  return facts.rows;
}
