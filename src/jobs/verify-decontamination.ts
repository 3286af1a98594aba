import { parseScoreCache, SCORE_CACHE_DIR, SCORE_CACHE_FILE } from "./nightly/score-cache-file.js";
import type { Files } from "../output/storage.js";
import { readText } from "../output/write-text.js";
import { previewShards } from "./inspect.js";
import { storedShard } from "./shard-input.js";
import type { VerifiedManifest } from "./verified-manifest.js";
import type { VerifyFinding } from "./verify-report.js";
import { isRecord } from "../core/is-record.js";

/**
 * Issue 35: no kept row of a decontaminated dataset is of a scenario its manifest's suites pin. A row is
 * checked by every handle it gives: the hash it carries (SFT records of owner routes), the hash of its runs
 * in the pull's score cache (`_cache/scorecards.ndjson`: RL, DPO and view rows name their runs, not the
 * hash), and its scenario id (`scenario.campaign_id`, or a view row's `campaign_id`). A row of a copy in a
 * converted RL or DPO dataset (no cache) gives none, and is left to the counts. The first such row of each
 * shard is named.
 */
export async function verifyDecontamination(files: Files, manifest: VerifiedManifest, paths: readonly string[], findings: VerifyFinding[]): Promise<void> {
  const byHash = new Map<string, string>();
  const byId = new Map<string, string>();
  for (const suite of manifest.decontamination?.suites ?? []) {
    const label = `${String(suite.suite_key)}@${String(suite.version)}`;
    for (const hash of strings(suite.scenario_version_hashes)) byHash.set(hash, label);
    for (const id of strings(suite.scenario_ids)) byId.set(id, label);
  }
  if (byHash.size === 0 && byId.size === 0) return;
  const runHashes = await cachedRunHashes(files);
  for (const path of paths) {
    let rows: readonly Record<string, unknown>[];
    try {
      rows = (await previewShards([storedShard(files, path)], Number.MAX_SAFE_INTEGER)).rows;
    } catch {
      continue; // An unreadable shard is already a finding of its own.
    }
    for (const [i, row] of rows.entries()) {
      const why = pinnedBy(row, byHash, byId, runHashes);
      if (why === null) continue;
      findings.push({ kind: "benchmark_row", path, message: `${path} row ${i + 1} is of a scenario the benchmark suite ${why.suite} pins (${why.by}): decontamination should have dropped it` });
      break;
    }
  }
}

function pinnedBy(row: Record<string, unknown>, byHash: Map<string, string>, byId: Map<string, string>, runHashes: (runId: string) => string | undefined): { suite: string; by: string } | null {
  const own = field(row.manifest, "scenario_version_hash");
  if (own !== undefined && byHash.has(own)) return { suite: byHash.get(own) as string, by: `scenario_version_hash ${own}` };
  for (const runId of [row.run_id, row.run_chosen, row.run_rejected]) {
    const hash = typeof runId === "string" ? runHashes(runId) : undefined;
    if (hash !== undefined && byHash.has(hash)) return { suite: byHash.get(hash) as string, by: `run ${runId as string}'s scenario_version_hash ${hash}` };
  }
  const id = field(row.scenario, "campaign_id") ?? (typeof row.campaign_id === "string" ? row.campaign_id : undefined);
  if (id !== undefined && byId.has(id)) return { suite: byId.get(id) as string, by: `scenario id ${id}` };
  return null;
}

/** The run hashes a pull cached with the night's scores; none for a converted dataset. */
async function cachedRunHashes(files: Files): Promise<(runId: string) => string | undefined> {
  const text = await readText(files, `${SCORE_CACHE_DIR}/${SCORE_CACHE_FILE}`);
  if (text === null) return () => undefined;
  const cache = parseScoreCache(text);
  return (runId) => cache.get(runId)?.hash;
}

function field(value: unknown, name: string): string | undefined {
  const v = isRecord(value) ? value[name] : undefined;
  return typeof v === "string" ? v : undefined;
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((x): x is string => typeof x === "string") : [];
}
