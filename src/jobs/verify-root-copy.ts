import { manifestSealProblem } from "../output/manifest-seal.js";
import { readManifest } from "../output/published-manifest.js";
import type { Files } from "../output/storage.js";
import type { VerifyFinding } from "./verify-report.js";

/**
 * Where a storage keeps copies of the current snapshot's top-level files at the dataset's root (S3: readers
 * that follow `s3://…/manifest.json` read the copy, not the snapshot's file), checks the root `manifest.json`
 * on its own: there, and sealed. Only its seal: its shard paths may be spelled from the root (docs/decisions.md).
 */
export async function verifyRootCopy(files: Files, findings: VerifyFinding[]): Promise<void> {
  const root = (files as { readonly root?: Files }).root;
  if (root === undefined || typeof root.read !== "function") return;
  const read = await readManifest(root);
  const where = `${root.location}/manifest.json`;
  if ("kind" in read) {
    const message = read.kind === "manifest_missing" ? `the root copy ${where} is missing: readers that follow the root find no manifest` : `the root copy: ${read.message}`;
    findings.push({ kind: read.kind, path: "manifest.json", message });
    return;
  }
  const seal = manifestSealProblem(read.text, read.manifest);
  if (seal !== null) findings.push({ path: "manifest.json", ...seal, message: `the root copy ${where}: ${seal.message}` });
}
