import { redactSecrets } from "../core/secrets.js";
import type { Quarantined } from "../core/flow.js";
import type { FileWriter, Files, WrittenFile } from "./storage.js";

/** One quarantined line, as written to `_quarantine/<format>.ndjson`. */
export interface QuarantineEntry {
  readonly source: string;
  readonly line: number;
  readonly offset: number;
  readonly reason: string;
  readonly detail: string;
  /** The line as read, cut at a cap; `raw_length` is its full length in bytes. */
  readonly raw: string;
  readonly raw_length: number;
  readonly raw_truncated: boolean;
  /** Present when the untrusted-text policy changed `raw`: `stripped` or `redacted` (see `Quarantined.rawPolicy`). */
  readonly raw_policy?: "stripped" | "redacted";
}

/** Entries are joined into chunks of about this size before they are written. */
const CHUNK_BYTES = 64 << 10;

/** Appends quarantine entries to an NDJSON file, created on the first entry. */
export class QuarantineWriter {
  #file: FileWriter | null = null;
  #chunk: string[] = [];
  #chunkBytes = 0;
  #entries = 0;
  #written: WrittenFile | null = null;

  constructor(
    private readonly files: Files,
    /** Relative to `files`, e.g. `_quarantine/sft.ndjson`. */
    readonly path: string,
  ) {}

  async write(item: Quarantined): Promise<void> {
    // The quarantine is published beside the shards: a line that echoes a secret (a service's `{"error": …}`
    // line quoting the token) loses it here, whatever the source and the policy did before.
    const entry: QuarantineEntry = {
      source: redactSecrets(item.provenance.source),
      line: item.provenance.line,
      offset: item.provenance.offset,
      reason: item.reason,
      detail: redactSecrets(item.detail),
      raw: redactSecrets(item.raw),
      raw_length: item.rawLength,
      // A raw the policy rewrote is no prefix of the line: the policy noted whether the line was cut.
      raw_truncated: item.rawTruncated ?? Buffer.byteLength(item.raw) < item.rawLength,
      ...(item.rawPolicy === undefined ? {} : { raw_policy: item.rawPolicy }),
    };
    this.#entries++;
    const line = `${JSON.stringify(entry)}\n`;
    this.#chunk.push(line);
    this.#chunkBytes += line.length;
    if (this.#chunkBytes >= CHUNK_BYTES) await this.#push();
  }

  get entries(): number {
    return this.#entries;
  }

  /** The file's size and sha256 once closed; null before, or when no entry came. */
  get written(): WrittenFile | null {
    return this.#written;
  }

  async close(): Promise<void> {
    await this.#push();
    const file = this.#file;
    this.#file = null;
    if (file !== null) this.#written = await file.close();
  }

  async #push(): Promise<void> {
    if (this.#chunk.length === 0) return;
    this.#file ??= await this.files.create(this.path);
    const text = this.#chunk.join("");
    this.#chunk = [];
    this.#chunkBytes = 0;
    await this.#file.write(Buffer.from(text));
  }
}
