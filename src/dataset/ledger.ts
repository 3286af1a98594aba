import { createHash } from "node:crypto";
import { createInterface } from "node:readline";
import { Readable } from "node:stream";
import { IoError } from "../core/errors.js";
import { ioStep } from "../core/io-step.js";
import { LocalFiles } from "../output/local-files.js";
import type { Files } from "../output/storage.js";
import { readText, writeText } from "../output/write-text.js";
import type { SplitRequest } from "../splits/split-assigner.js";
import { tryParseJson } from "../core/try-parse-json.js";

/** Folder of the ledger and the state, published together with `data/`. */
export const STATE_DIR = "_state";
export const LEDGER_FILE = `${STATE_DIR}/ledger.ndjson`;
export const STATE_FILE = `${STATE_DIR}/state.json`;
export const LEDGER_VERSION = 1;

/** One line of `_state/ledger.ndjson`: a record the dataset holds. */
export interface LedgerEntry {
  readonly key: string;
  /** Its split, in a split dataset; a row never changes split (the state's `split` is fixed). */
  readonly split?: string;
  readonly bucket: number;
  readonly version: number | null;
  /** sha256 of the record's JSON text. */
  readonly sha256: string;
}

/** A bucket that has a shard. Buckets without records have no file and no entry. */
export interface BucketState {
  /** Its split, in a split dataset. */
  readonly split?: string;
  readonly bucket: number;
  /** Relative to the dataset, "/" separated. */
  readonly path: string;
  readonly rows: number;
  readonly bytes: number;
  /** sha256 of the shard file. */
  readonly sha256: string;
  /** See `setHash` (src/dataset/bucket.ts): equal set hashes mean equal shards. */
  readonly set_hash: string;
}

/** `_state/state.json`. Holds no timestamps: one snapshot always gives the same bytes. */
export interface DatasetState {
  readonly ledger_version: typeof LEDGER_VERSION;
  readonly format: { readonly name: string; readonly version: string };
  /** A different shard format or column list makes every shard stale. */
  readonly shard_format: { readonly description: string; readonly extension: string };
  readonly columns_sha256: string;
  readonly buckets: number;
  /** A split dataset's split (`--split`): kept for the dataset's life, as changing it would move rows between splits. */
  readonly split?: SplitRequest;
  readonly rows: number;
  /** Ties the ledger to this state: a ledger that does not match is refused. */
  readonly ledger_sha256: string;
  readonly shards: readonly BucketState[];
}

/** What the dataset (a storage, or a local directory) holds, or null when it holds no snapshot dataset yet. */
export async function readDataset(from: string | Files): Promise<{ state: DatasetState; ledger: Map<string, LedgerEntry> } | null> {
  const files = LocalFiles.of(from);
  const state = await readDatasetState(files);
  return state === null ? null : { state, ledger: await readLedgerOf(files, state) };
}

/**
 * The dataset's state, with its ledger checked against it (sha256 and rows, as {@link readDataset}
 * checks) but not kept: a night holds the ledger only while it builds, not through its pull (issue 21).
 * Null when it holds no snapshot dataset yet.
 */
export async function readDatasetState(from: string | Files): Promise<DatasetState | null> {
  const files = LocalFiles.of(from);
  const text = await readText(files, STATE_FILE);
  if (text === null) return null;
  const state = parseState(text, `${files.location}/${STATE_FILE}`);
  await eachLedgerLine(files, state, () => {});
  return state;
}

/** `_state/state.json`'s text as a state; an IoError naming `path` when it is not one this evalshard reads. */
export function parseState(text: string, path: string): DatasetState {
  const value = tryParseJson(text) as Partial<DatasetState> | null | undefined;
  if (value === null || typeof value !== "object") throw new IoError(`${path} is not JSON; inspect the output directory by hand`, path);
  if (value.ledger_version !== LEDGER_VERSION) {
    throw new IoError(`${path} has ledger_version ${JSON.stringify(value.ledger_version)}, this evalshard reads ${LEDGER_VERSION}`, path);
  }
  const ok =
    typeof value.buckets === "number" &&
    typeof value.ledger_sha256 === "string" &&
    typeof value.columns_sha256 === "string" &&
    typeof value.format?.name === "string" &&
    typeof value.shard_format?.extension === "string" &&
    Array.isArray(value.shards);
  if (!ok) throw new IoError(`${path} is missing fields evalshard writes; inspect the output directory by hand`, path);
  return value as DatasetState;
}

/** The ledger {@link readDatasetState} returned the state of (verified again as it is read). */
export async function readLedgerOf(from: string | Files, state: DatasetState): Promise<Map<string, LedgerEntry>> {
  const files = LocalFiles.of(from);
  const ledger = new Map<string, LedgerEntry>();
  await eachLedgerLine(files, state, (line) => {
    const entry = JSON.parse(line) as LedgerEntry;
    ledger.set(entry.key, entry);
  });
  if (ledger.size !== state.rows) {
    const path = `${files.location}/${LEDGER_FILE}`;
    throw new IoError(`The ledger ${path} does not match ${STATE_FILE}; inspect the output directory by hand`, path);
  }
  return ledger;
}

/** Hands each ledger line to `take`, then checks the file's sha256 and line count against `state`. */
async function eachLedgerLine(files: Files, state: DatasetState, take: (line: string) => void): Promise<void> {
  const path = `${files.location}/${LEDGER_FILE}`;
  const read = await ioStep(path, "read the ledger", async () => {
    const stream = await files.read(LEDGER_FILE);
    if (stream === null) throw new Error("the file is missing");
    return ledgerLines(stream, take);
  });
  if (read.sha256 !== state.ledger_sha256 || read.rows !== state.rows) {
    throw new IoError(`The ledger ${path} does not match ${STATE_FILE}; inspect the output directory by hand`, path);
  }
}

/** Hands each line of a ledger's bytes to `take`; returns the bytes' sha256 and the line count. */
export async function ledgerLines(stream: AsyncIterable<Uint8Array>, take: (line: string) => void): Promise<{ readonly sha256: string; readonly rows: number }> {
  const hash = createHash("sha256");
  let rows = 0;
  const input = Readable.from(stream);
  input.on("data", (chunk: Uint8Array) => hash.update(chunk));
  for await (const line of createInterface({ input, crlfDelay: Infinity })) {
    take(line);
    rows++;
  }
  return { sha256: hash.digest("hex"), rows };
}

/** Writes the ledger (entries must come sorted by key) into `_state/` and returns its sha256. */
export async function writeLedger(to: string | Files, entries: Iterable<LedgerEntry>): Promise<string> {
  const file = await LocalFiles.of(to).create(LEDGER_FILE);
  try {
    let chunk = "";
    for (const { key, split, bucket, version, sha256 } of entries) {
      chunk += `${JSON.stringify(split === undefined ? { key, bucket, version, sha256 } : { key, split, bucket, version, sha256 })}\n`;
      if (chunk.length >= 1 << 16) {
        await file.write(Buffer.from(chunk));
        chunk = "";
      }
    }
    await file.write(Buffer.from(chunk));
  } catch (error) {
    await file.abort();
    throw error;
  }
  return (await file.close()).sha256;
}

/** Writes `_state/state.json`. */
export async function writeState(to: string | Files, state: DatasetState): Promise<void> {
  await writeText(LocalFiles.of(to), STATE_FILE, `${JSON.stringify(state, null, 2)}\n`);
}
