import { shardPath } from "../dataset/bucket.js";
import { shareOf } from "../pull/partition.js";
import { LEDGER_FILE, STATE_FILE, ledgerLines, parseState } from "../dataset/ledger.js";
import type { DatasetState, LedgerEntry } from "../dataset/ledger.js";
import type { Files } from "../output/storage.js";
import { readText } from "../output/write-text.js";
import type { ShardInfo } from "../output/shard-format.js";
import type { VerifyFinding } from "./verify-report.js";

/**
 * Checks a nightly dataset's `_state/`: the ledger is the one the state names (sha256, key count), every
 * key sits in the bucket its hash gives and that bucket has a shard, and each bucket's key count equals
 * the rows of its shard (as the state, the manifest and the file itself say). Returns the ledger's key count.
 */
export async function verifyLedger(
  files: Files,
  listed: ReadonlyMap<string, ShardInfo>,
  actualRows: ReadonlyMap<string, number>,
  findings: VerifyFinding[],
): Promise<number> {
  const stateText = await readText(files, STATE_FILE);
  if (stateText === null) {
    findings.push({ kind: "state_missing", path: STATE_FILE, message: `${STATE_FILE} is missing: a huggingface-buckets dataset keeps its ledger's state there` });
    return 0;
  }
  let state: DatasetState;
  try {
    state = parseState(stateText, STATE_FILE);
  } catch (error) {
    findings.push({ kind: "state_unreadable", path: STATE_FILE, message: (error as Error).message });
    return 0;
  }

  const stream = await files.read(LEDGER_FILE);
  if (stream === null) {
    findings.push({ kind: "ledger_missing", path: LEDGER_FILE, message: `${LEDGER_FILE} is missing` });
    return 0;
  }
  // By shard path: in a split dataset each split has its own bucket numbers.
  const perBucket = new Map<string, number>();
  const extension = state.shard_format.extension;
  let keys = 0;
  let wrongBucket = 0;
  let firstWrong = "";
  let sha256: string;
  try {
    ({ sha256 } = await ledgerLines(stream, (line) => {
      const entry = JSON.parse(line) as LedgerEntry;
      keys++;
      const at = shardPath(entry.bucket, state.buckets, extension, entry.split);
      perBucket.set(at, (perBucket.get(at) ?? 0) + 1);
      if (shareOf(String(entry.key), state.buckets) !== entry.bucket && wrongBucket++ === 0) firstWrong = String(entry.key);
    }));
  } catch (error) {
    findings.push({ kind: "ledger_unreadable", path: LEDGER_FILE, message: `${LEDGER_FILE} is not a ledger: ${(error as Error).message}` });
    return keys;
  }
  if (sha256 !== state.ledger_sha256) {
    findings.push({ kind: "ledger_sha256_mismatch", path: LEDGER_FILE, message: `${LEDGER_FILE} has sha256 ${sha256}, ${STATE_FILE} records ${state.ledger_sha256}`, expected: state.ledger_sha256, actual: sha256 });
  }
  if (keys !== state.rows) {
    findings.push({ kind: "ledger_rows_mismatch", path: LEDGER_FILE, message: `${LEDGER_FILE} holds ${keys} keys, ${STATE_FILE} records ${state.rows}`, expected: state.rows, actual: keys });
  }
  if (wrongBucket > 0) {
    findings.push({ kind: "ledger_wrong_bucket", path: LEDGER_FILE, message: `${wrongBucket} ledger keys are not in the bucket their hash gives, e.g. ${JSON.stringify(firstWrong)}`, actual: wrongBucket });
  }

  const stateShards = new Map(state.shards.map((s) => [shardPath(s.bucket, state.buckets, extension, s.split), s]));
  for (const shard of state.shards) {
    const manifest = listed.get(shard.path);
    if (manifest === undefined || manifest.sha256 !== shard.sha256 || manifest.rows !== shard.rows || manifest.bytes !== shard.bytes) {
      findings.push({ kind: "state_shard_mismatch", path: shard.path, message: `${STATE_FILE} and manifest.json disagree about ${shard.path}` });
    }
  }
  const buckets = new Set([...perBucket.keys(), ...stateShards.keys()]);
  for (const bucket of [...buckets].sort()) {
    const count = perBucket.get(bucket) ?? 0;
    const shard = stateShards.get(bucket);
    const path = shard?.path ?? bucket;
    if (shard === undefined || !listed.has(shard.path)) {
      findings.push({ kind: "ledger_bucket_missing", path, message: `the ledger puts ${count} keys in bucket ${bucket}, which has no shard` });
      continue;
    }
    const rows = actualRows.get(shard.path);
    for (const [who, n] of [[STATE_FILE, shard.rows], ["the shard", rows]] as const) {
      if (n !== undefined && n !== count) {
        findings.push({ kind: "ledger_bucket_rows_mismatch", path, message: `the ledger puts ${count} keys in bucket ${bucket}, ${who} has ${n} rows`, expected: count, actual: n });
      }
    }
  }
  return keys;
}
