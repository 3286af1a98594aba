import type { Files } from "../output/storage.js";
import { previewJsonl } from "./preview-jsonl.js";
import { previewParquet } from "./preview-parquet.js";
import { storedShard } from "./shard-input.js";
import type { VerifiedManifest } from "./verified-manifest.js";
import type { VerifyFinding } from "./verify-report.js";

/**
 * Issue 35: no kept row of a decontaminated dataset carries a scenario hash its manifest's suites pin. Only
 * rows that carry the hash can be checked (SFT records of owner routes, `manifest.scenario_version_hash`);
 * RL and DPO rows name none, and are left to the counts. The first such row of each shard is named.
 */
export async function verifyDecontamination(files: Files, manifest: VerifiedManifest, paths: readonly string[], findings: VerifyFinding[]): Promise<void> {
  const pinned = new Map<string, string>();
  for (const suite of manifest.decontamination?.suites ?? []) {
    const hashes = Array.isArray(suite.scenario_version_hashes) ? (suite.scenario_version_hashes as unknown[]) : [];
    for (const hash of hashes) if (typeof hash === "string") pinned.set(hash, `${String(suite.suite_key)}@${String(suite.version)}`);
  }
  if (pinned.size === 0) return;
  for (const path of paths) {
    const shard = storedShard(files, path);
    let rows: readonly Record<string, unknown>[];
    try {
      rows = (path.endsWith(".parquet") ? await previewParquet([shard], Number.MAX_SAFE_INTEGER) : await previewJsonl([shard], Number.MAX_SAFE_INTEGER)).rows;
    } catch {
      continue; // An unreadable shard is already a finding of its own.
    }
    for (const [i, row] of rows.entries()) {
      const m = row.manifest;
      const hash = typeof m === "object" && m !== null ? (m as Record<string, unknown>).scenario_version_hash : undefined;
      const suite = typeof hash === "string" ? pinned.get(hash) : undefined;
      if (suite === undefined) continue;
      findings.push({ kind: "benchmark_row", path, message: `${path} row ${i + 1} is of a scenario the benchmark suite ${suite} pins (scenario_version_hash ${hash as string}): decontamination should have dropped it` });
      break;
    }
  }
}
