import { stringifyExact } from "../core/exact-json.js";
import { appendFile, mkdir } from "node:fs/promises";
import { join } from "node:path";
import { EvalshardError } from "../core/errors.js";
import { ioStep } from "../core/io-step.js";
import { sha256Hex } from "../core/sha256-hex.js";
import { shareOf } from "../pull/partition.js";

/** One record of a snapshot: its dedup key, its scorecard version and the record as it goes into the dataset. */
export interface SnapshotRecord {
  readonly key: string;
  readonly version: number | null;
  readonly record: Readonly<Record<string, unknown>>;
  /** Its split, in a split dataset (`SnapshotOptions.split`). */
  readonly split?: string;
}

/** A record of a snapshot as its JSON text: what the unit engine's workers send (see `KeyedRows`). */
export interface SnapshotLine extends Omit<SnapshotRecord, "record"> {
  readonly line: string;
}

/** A key appears twice in one snapshot: the caller did not de-duplicate. */
export class DuplicateKeyError extends EvalshardError {
  readonly key: string;
  constructor(key: string) {
    super(`The snapshot holds the key ${key} twice: de-duplicate records before writeSnapshot`);
    this.key = key;
  }
}

/** Where a staged record is and what it is; the record itself stays on disk. */
export interface StagedEntry {
  /** The bucket's slot: in a split dataset, the split's index times the bucket count, plus the bucket. */
  readonly bucket: number;
  readonly version: number | null;
  readonly sha256: string;
  /** Byte range of the record's JSON line in its bucket file. */
  readonly offset: number;
  readonly length: number;
}

/** A bucket's buffer is appended to its file once it reaches this size. */
const FLUSH_BYTES = 256 << 10;
/** All buffers together are flushed at this size, so memory stays bounded whatever the bucket count. */
const TOTAL_FLUSH_BYTES = 16 << 20;

/**
 * Streams a snapshot into one NDJSON file per bucket (`dir/bucket-00003.ndjson`), remembering for
 * each key only its bucket, version, hash and byte range.
 */
export class IncomingBuckets {
  readonly entries = new Map<string, StagedEntry>();
  readonly #dir: string;
  readonly #buckets: number;
  readonly #buffers = new Map<number, string[]>();
  readonly #sizes: number[];
  /** Bytes of each bucket file, flushed or buffered. */
  readonly #offsets: number[];
  #buffered = 0;

  private constructor(dir: string, buckets: number, splits: number) {
    this.#dir = dir;
    this.#buckets = buckets;
    this.#sizes = new Array<number>(buckets * splits).fill(0);
    this.#offsets = new Array<number>(buckets * splits).fill(0);
  }

  /** `splits`: how many splits share the buckets (each has `buckets` of its own). */
  static async create(dir: string, buckets: number, splits = 1): Promise<IncomingBuckets> {
    await mkdir(dir, { recursive: true });
    return new IncomingBuckets(dir, buckets, splits);
  }

  /** The staged file of a bucket. */
  file(bucket: number): string {
    return join(this.#dir, `bucket-${String(bucket).padStart(5, "0")}.ndjson`);
  }

  /** Stages a record in its bucket of the split at `splitIndex`. */
  async add({ key, version, record }: SnapshotRecord, splitIndex = 0): Promise<void> {
    const json = stringifyExact(record);
    if (typeof json !== "string" || !json.startsWith("{")) throw new TypeError(`Expected the record of ${key} to be an object, got ${json}`);
    return this.addLine({ key, version, line: json }, splitIndex);
  }

  /** Stages a record given as its JSON text (`stringifyExact` of it, as {@link add} makes it). */
  async addLine({ key, version, line: json }: SnapshotLine, splitIndex = 0): Promise<void> {
    if (typeof key !== "string") throw new TypeError(`Expected a record's \`key\` to be a string, got ${typeof key}`);
    if (version !== null && !Number.isFinite(version)) throw new TypeError(`Expected the \`version\` of ${key} to be a number or null, got ${version}`);
    if (this.entries.has(key)) throw new DuplicateKeyError(key);
    const bucket = splitIndex * this.#buckets + shareOf(key, this.#buckets);
    const length = Buffer.byteLength(json);
    const offset = this.#offsets[bucket] ?? 0;
    this.entries.set(key, { bucket, version, sha256: sha256Hex(json), offset, length });
    this.#offsets[bucket] = offset + length + 1;
    let buffer = this.#buffers.get(bucket);
    if (buffer === undefined) this.#buffers.set(bucket, (buffer = []));
    buffer.push(json, "\n");
    this.#sizes[bucket] = (this.#sizes[bucket] ?? 0) + length + 1;
    this.#buffered += length + 1;
    if ((this.#sizes[bucket] ?? 0) >= FLUSH_BYTES) await this.#flush(bucket);
    if (this.#buffered >= TOTAL_FLUSH_BYTES) await this.finish();
  }

  /** Writes every buffered line to its file. */
  async finish(): Promise<void> {
    for (const bucket of [...this.#buffers.keys()]) await this.#flush(bucket);
  }

  async #flush(bucket: number): Promise<void> {
    const buffer = this.#buffers.get(bucket);
    if (buffer === undefined) return;
    this.#buffers.delete(bucket);
    this.#buffered -= this.#sizes[bucket] ?? 0;
    this.#sizes[bucket] = 0;
    const path = this.file(bucket);
    await ioStep(path, "stage records in", () => appendFile(path, buffer.join("")));
  }
}
