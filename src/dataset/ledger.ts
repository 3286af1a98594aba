import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { mkdir, open, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { IoError } from "../errors.js";

/** Folder of the ledger and the state, published together with `data/`. */
export const STATE_DIR = "_state";
export const LEDGER_FILE = `${STATE_DIR}/ledger.ndjson`;
export const STATE_FILE = `${STATE_DIR}/state.json`;
export const LEDGER_VERSION = 1;

/** One line of `_state/ledger.ndjson`: a record the dataset holds. */
export interface LedgerEntry {
  readonly key: string;
  readonly bucket: number;
  readonly version: number | null;
  /** sha256 of the record's JSON text. */
  readonly sha256: string;
}

/** A bucket that has a shard. Buckets without records have no file and no entry. */
export interface BucketState {
  readonly bucket: number;
  /** Relative to the dataset, "/" separated. */
  readonly path: string;
  readonly rows: number;
  readonly bytes: number;
  /** sha256 of the shard file. */
  readonly sha256: string;
  /** See {@link setHash}: equal set hashes mean equal shards. */
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
  readonly rows: number;
  /** Ties the ledger to this state: a ledger that does not match is refused. */
  readonly ledger_sha256: string;
  readonly shards: readonly BucketState[];
}

/** What the dataset in `outDir` holds, or null when it holds no snapshot dataset yet. */
export async function readDataset(outDir: string): Promise<{ state: DatasetState; ledger: Map<string, LedgerEntry> } | null> {
  const statePath = join(outDir, STATE_FILE);
  const text = await readFile(statePath, "utf8").catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return null;
    throw new IoError(`Cannot read ${statePath}: ${error.message}`, statePath, { cause: error });
  });
  if (text === null) return null;
  const state = parseState(text, statePath);
  const ledger = await readLedger(join(outDir, LEDGER_FILE), state);
  return { state, ledger };
}

function parseState(text: string, path: string): DatasetState {
  let value: Partial<DatasetState> | null = null;
  try {
    value = JSON.parse(text) as Partial<DatasetState>;
  } catch {
    // reported below
  }
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

async function readLedger(path: string, state: DatasetState): Promise<Map<string, LedgerEntry>> {
  const ledger = new Map<string, LedgerEntry>();
  const hash = createHash("sha256");
  const input = createReadStream(path);
  input.on("data", (chunk) => hash.update(chunk));
  try {
    for await (const line of createInterface({ input, crlfDelay: Infinity })) {
      const entry = JSON.parse(line) as LedgerEntry;
      ledger.set(entry.key, entry);
    }
  } catch (error) {
    throw new IoError(`Cannot read the ledger ${path}: ${(error as Error).message}`, path, { cause: error });
  }
  if (hash.digest("hex") !== state.ledger_sha256 || ledger.size !== state.rows) {
    throw new IoError(`The ledger ${path} does not match ${STATE_FILE}; inspect the output directory by hand`, path);
  }
  return ledger;
}

/** Writes the ledger (entries must come sorted by key) into `dir/_state/` and returns its sha256. */
export async function writeLedger(dir: string, entries: Iterable<LedgerEntry>): Promise<string> {
  const path = join(dir, LEDGER_FILE);
  await mkdir(join(dir, STATE_DIR), { recursive: true });
  const hash = createHash("sha256");
  const file = await open(path, "w");
  try {
    let chunk = "";
    for (const { key, bucket, version, sha256 } of entries) {
      chunk += `${JSON.stringify({ key, bucket, version, sha256 })}\n`;
      if (chunk.length >= 1 << 16) {
        hash.update(chunk);
        await file.write(chunk);
        chunk = "";
      }
    }
    hash.update(chunk);
    await file.write(chunk);
  } finally {
    await file.close();
  }
  return hash.digest("hex");
}

/** Writes `dir/_state/state.json`. */
export async function writeState(dir: string, state: DatasetState): Promise<void> {
  await mkdir(join(dir, STATE_DIR), { recursive: true });
  await writeFile(join(dir, STATE_FILE), `${JSON.stringify(state, null, 2)}\n`);
}
