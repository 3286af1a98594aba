import { createWriteStream } from "node:fs";
import type { WriteStream } from "node:fs";
import { mkdir } from "node:fs/promises";
import { dirname } from "node:path";
import { once } from "node:events";
import type { Quarantined } from "../flow.js";

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
}

/** Appends quarantine entries to an NDJSON file, created on the first entry. */
export class QuarantineWriter {
  readonly path: string;
  #stream: WriteStream | null = null;
  #entries = 0;

  constructor(path: string) {
    this.path = path;
  }

  async write(item: Quarantined): Promise<void> {
    if (this.#stream === null) {
      await mkdir(dirname(this.path), { recursive: true });
      this.#stream = createWriteStream(this.path);
    }
    const entry: QuarantineEntry = {
      source: item.provenance.source,
      line: item.provenance.line,
      offset: item.provenance.offset,
      reason: item.reason,
      detail: item.detail,
      raw: item.raw,
      raw_length: item.rawLength,
      raw_truncated: Buffer.byteLength(item.raw) < item.rawLength,
    };
    this.#entries++;
    if (!this.#stream.write(`${JSON.stringify(entry)}\n`)) await once(this.#stream, "drain");
  }

  get entries(): number {
    return this.#entries;
  }

  async close(): Promise<void> {
    if (this.#stream === null) return;
    const stream = this.#stream;
    await new Promise<void>((resolve, reject) => stream.end((error?: Error | null) => (error ? reject(error) : resolve())));
  }
}
