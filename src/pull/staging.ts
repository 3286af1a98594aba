import { randomUUID } from "node:crypto";
import { readSync } from "node:fs";
import { mkdir, open, rm, type FileHandle } from "node:fs/promises";
import { join } from "node:path";
import { ioStep } from "../core/io-step.js";
import { grown } from "../core/grown.js";
import { encodeEscaped, hasEscapedBytes } from "../sources/escaped-utf8.js";

/** Appended lines are written once this many bytes wait: one write per chunk, not one per record. */
const FLUSH_BYTES = 1 << 20;
/** Most bytes read at once. */
const READ_BYTES = 1 << 20;
const NEWLINE = Buffer.from("\n");

/**
 * Record lines parked on disk as they arrive (in completion order), grouped by run, so they can be
 * written out in the service's list order afterwards while memory holds only where each run's bytes
 * are: a run's lines mostly arrive back to back (a bulk stream's run, a per-run fetch), so a run (its
 * number in the RunTable) is a line count and one extent in typed arrays, rarely a few more. Lines are stored with their newline and read back as spool
 * bytes. Appends are encoded straight into a chunk buffer (no Buffer per line) and written a chunk at a
 * time.
 */
export class Staging {
  /** Per run: its line count, and offset and length of its first extent. */
  private counts = new Int32Array(1024);
  private starts = new Float64Array(1024);
  private lengths = new Float64Array(1024);
  /** Offset and length of each further extent of a run, in the order added (rare: a run split by other lines). */
  private readonly more = new Map<number, number[]>();
  /** The chunk being filled; `pendingBytes` of it are used. Written, it is replaced, never reused. */
  private pending: Buffer = Buffer.allocUnsafe(FLUSH_BYTES);
  private pendingBytes = 0;
  /** Where the pending bytes go: everything before it is on disk. */
  private flushed = 0;
  private writing: Promise<void> = Promise.resolve();

  private constructor(
    private readonly handle: FileHandle,
    private readonly path: string,
  ) {}

  static async open(dir: string): Promise<Staging> {
    const path = join(dir, `pull-staging-${randomUUID()}.ndjson`);
    const handle = await ioStep(path, "create the pull's staging file", async () => {
      await mkdir(dir, { recursive: true });
      return open(path, "wx+");
    });
    return new Staging(handle, path);
  }

  /** Parks `line` under run number `run` (the caller sees to it that a record comes once: fetchRecords' visit). */
  async add(run: number, line: string): Promise<void> {
    // Bytes the service sent that are not UTF-8 are written back as they came (see decodeEscaped).
    const escaped = hasEscapedBytes(line) ? encodeEscaped(line) : undefined;
    const bytes = (escaped?.length ?? Buffer.byteLength(line, "utf8")) + 1;
    // The bulk streams are read together, so other adds may fill the chunk while this one waits: check
    // again after each wait, and from there on write without one.
    while (this.pendingBytes > 0 && this.pendingBytes + bytes > this.pending.length) await this.flush();
    this.note(run, this.flushed + this.pendingBytes, bytes);
    if (bytes > this.pending.length) {
      // Longer than a chunk: a chunk of its own.
      this.pending = Buffer.concat([escaped ?? Buffer.from(line, "utf8"), NEWLINE]);
      this.pendingBytes = bytes;
      await this.flush();
      return;
    }
    if (escaped === undefined) this.pending.write(line, this.pendingBytes, "utf8");
    else escaped.copy(this.pending, this.pendingBytes);
    this.pending[this.pendingBytes + bytes - 1] = NEWLINE[0] as number;
    this.pendingBytes += bytes;
  }

  /** How many lines run `run` has. */
  count(run: number): number {
    return run < this.counts.length ? (this.counts[run] as number) : 0;
  }

  /**
   * The lines of run `run` in the order they were added, each with its newline, as the bytes written: spool
   * bytes, never decoded and encoded again, in pieces of at most 1 MiB (not cut at lines).
   */
  async *bytes(run: number): AsyncGenerator<Buffer> {
    await this.flush();
    if (this.count(run) === 0) return;
    const extents = [this.starts[run] as number, this.lengths[run] as number, ...(this.more.get(run) ?? [])];
    for (let i = 0; i < extents.length; i += 2) {
      const start = extents[i] as number;
      const end = start + (extents[i + 1] as number);
      for (let at = start; at < end; at += READ_BYTES) yield this.read(at, Math.min(READ_BYTES, end - at));
    }
  }

  /** Adds a line's bytes to its run: extends the run's last extent when the line follows it. */
  private note(run: number, at: number, bytes: number): void {
    if (run >= this.counts.length) {
      this.counts = grown(this.counts, run + 1);
      this.starts = grown(this.starts, run + 1);
      this.lengths = grown(this.lengths, run + 1);
    }
    const count = this.counts[run] as number;
    this.counts[run] = count + 1;
    if (count === 0) {
      this.starts[run] = at;
      this.lengths[run] = bytes;
      return;
    }
    const extents = this.more.get(run);
    if (extents === undefined) {
      if ((this.starts[run] as number) + (this.lengths[run] as number) === at) this.lengths[run] = (this.lengths[run] as number) + bytes;
      else this.more.set(run, [at, bytes]);
      return;
    }
    const last = extents.length - 1;
    if ((extents[last - 1] as number) + (extents[last] as number) === at) extents[last] = (extents[last] as number) + bytes;
    else extents.push(at, bytes);
  }

  /** Closes and removes the file. */
  async dispose(): Promise<void> {
    this.pendingBytes = 0;
    await this.writing.catch(() => {});
    await this.handle.close().catch(() => {});
    await rm(this.path, { force: true });
  }

  /** Writes what is pending; resolves once every write so far is done (they are chained, in order). */
  private flush(): Promise<void> {
    if (this.pendingBytes === 0) return this.writing;
    const buf = this.pending.subarray(0, this.pendingBytes);
    const position = this.flushed;
    // Reserved before the write, so adds that arrive meanwhile go after this chunk, into a new buffer.
    this.pending = Buffer.allocUnsafe(FLUSH_BYTES);
    this.flushed += this.pendingBytes;
    this.pendingBytes = 0;
    this.writing = this.writing.then(() =>
      ioStep(this.path, "write the pull's staging file", async () => {
        for (let written = 0; written < buf.length; ) {
          written += (await this.handle.write(buf, written, buf.length - written, position + written)).bytesWritten;
        }
      }),
    );
    return this.writing;
  }

  /**
   * Reads synchronously: lines are read back only once every fetch is done, one small read per run in
   * list order from a file just written (in the page cache), where a promise per read cost more than the
   * read (issue 21: a no-op rerun's time against a bare download).
   */
  private read(position: number, bytes: number): Buffer {
    const buf = Buffer.allocUnsafe(bytes);
    for (let read = 0; read < bytes; ) {
      const got = readSync(this.handle.fd, buf, read, bytes - read, position + read);
      if (got === 0) throw new Error(`Staging file ${this.path} ended early`);
      read += got;
    }
    return buf;
  }
}
