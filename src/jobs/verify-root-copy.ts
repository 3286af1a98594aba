import { manifestSealProblem } from "../output/manifest-seal.js";
import type { Files } from "../output/storage.js";
import { readText } from "../output/write-text.js";
import type { VerifyFinding } from "./verify-report.js";

/**
 * Where a storage keeps copies of the current snapshot's top-level files at the dataset's root (S3: readers
 * that follow `s3://…/manifest.json` read the copy, not the snapshot's file), checks the root `manifest.json`
 * on its own: there, and sealed. Only its seal: its shard paths may be spelled from the root (docs/decisions.md).
 */
export async function verifyRootCopy(files: Files, findings: VerifyFinding[]): Promise<void> {
  const root = (files as { readonly root?: Files }).root;
  if (root === undefined || typeof root.read !== "function") return;
  const text = await readText(root, "manifest.json");
  const where = `${root.location}/manifest.json`;
  if (text === null) {
    findings.push({ kind: "manifest_missing", path: "manifest.json", message: `the root copy ${where} is missing: readers that follow the root find no manifest` });
    return;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    findings.push({ kind: "manifest_unreadable", path: "manifest.json", message: `the root copy ${where} is not JSON: ${(error as Error).message}` });
    return;
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    findings.push({ kind: "manifest_unreadable", path: "manifest.json", message: `the root copy ${where} is not an evalshard manifest` });
    return;
  }
  const seal = manifestSealProblem(text, parsed as Record<string, unknown>);
  if (seal !== null) findings.push({ path: "manifest.json", ...seal, message: `the root copy ${where}: ${seal.message}` });
}
