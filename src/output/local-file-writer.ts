import { createHash } from "node:crypto";
import type { Hash } from "node:crypto";
import { open, rm } from "node:fs/promises";
import type { FileHandle } from "node:fs/promises";
import { IoError } from "../core/errors.js";
import { ioStep } from "../core/io-step.js";
import type { PendingFlushes } from "./pending-flushes.js";
import type { FileWriter, WrittenFile } from "./storage.js";

/**
 * The file is flushed to disk in the background every this many bytes, so closing it waits only for the
 * last stretch (docs/benchmarks.md).
 */
const FLUSH_BYTES = 8 << 20;

/**
 * A local file written at its final path, hashed as it is written. `close()` syncs it to disk; or, for a
 * file given {@link PendingFlushes}, starts the sync and leaves it to them (the file is complete on close,
 * durable once they settle).
 */
export class LocalFileWriter implements FileWriter {
  bytes = 0;
  readonly #hash: Hash = createHash("sha256");
  /** The background flush running, and where the file stood when it started. */
  #flushing: Promise<void> | null = null;
  #flushedTo = 0;
  #state: "open" | "closed" | "aborted" = "open";

  private constructor(
    /** The file's local path: a writer that must hand a path to another program (DuckDB) reads it. */
    readonly path: string,
    private readonly file: FileHandle,
    private readonly flushes: PendingFlushes | undefined,
  ) {}

  get name(): string {
    return this.path;
  }

  static async create(path: string, flushes?: PendingFlushes): Promise<LocalFileWriter> {
    return new LocalFileWriter(path, await ioStep(path, "create", () => open(path, "w")), flushes);
  }

  async write(bytes: Uint8Array): Promise<void> {
    if (this.#state !== "open") throw new IoError(`Cannot write to ${this.path}: the file is ${this.#state}`, this.path);
    await ioStep(this.path, "write", async () => {
      let at = 0;
      while (at < bytes.length) at += (await this.file.write(bytes, at, bytes.length - at)).bytesWritten;
    });
    this.#hash.update(bytes);
    this.bytes += bytes.length;
    if (this.#flushing === null && this.bytes - this.#flushedTo >= FLUSH_BYTES) {
      this.#flushedTo = this.bytes;
      const flushing = this.file.datasync().finally(() => {
        if (this.#flushing === flushing) this.#flushing = null;
      });
      // Awaited at close; its failure is reported there, not as an unhandled rejection.
      flushing.catch(() => undefined);
      this.#flushing = flushing;
    }
  }

  async close(): Promise<WrittenFile> {
    if (this.#state !== "open") throw new IoError(`Cannot close ${this.path}: the file is ${this.#state}`, this.path);
    this.#state = "closed";
    const written = { bytes: this.bytes, sha256: this.#hash.digest("hex") };
    const flushed = this.#flush();
    if (this.flushes === undefined) {
      await flushed.catch(async (error: unknown) => {
        await rm(this.path, { force: true });
        throw error;
      });
    } else this.flushes.add(flushed);
    return written;
  }

  /** Syncs the file to disk and closes it. */
  async #flush(): Promise<void> {
    await ioStep(this.path, "write", async () => {
      try {
        await this.#flushing;
        await this.file.sync();
      } finally {
        await this.file.close();
      }
    });
  }

  async abort(): Promise<void> {
    const wasOpen = this.#state === "open";
    this.#state = "aborted";
    if (wasOpen) {
      await this.#flushing?.catch(() => undefined);
      await this.file.close().catch(() => undefined);
    }
    await rm(this.path, { force: true });
  }
}
