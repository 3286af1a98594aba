import { randomUUID } from "node:crypto";
import { mkdir, open, rm, type FileHandle } from "node:fs/promises";
import { join } from "node:path";
import { writeStep } from "../core/write-step.js";
import { decodeEscaped, encodeEscaped } from "../sources/escaped-utf8.js";

interface Slot {
  readonly position: number;
  readonly bytes: number;
}

/**
 * Record lines parked on disk as they arrive (in completion order), grouped by run, so they can be
 * written out in the service's list order afterwards while memory holds only positions. Appends go to
 * positions reserved up front, so concurrent fetches may add at once.
 */
export class Staging {
  private readonly byRun = new Map<string, Slot[]>();
  private readonly keys = new Set<string>();
  private end = 0;

  private constructor(
    private readonly handle: FileHandle,
    private readonly path: string,
  ) {}

  static async open(dir: string): Promise<Staging> {
    const path = join(dir, `pull-staging-${randomUUID()}.ndjson`);
    const handle = await writeStep(path, "create the pull's staging file", async () => {
      await mkdir(dir, { recursive: true });
      return open(path, "wx+");
    });
    return new Staging(handle, path);
  }

  /** Whether a line of this identity (run and seat) is already parked. */
  has(key: string): boolean {
    return this.keys.has(key);
  }

  /** Runs with at least one line. */
  runs(): number {
    return this.byRun.size;
  }

  /** Parks `line` under `runId`; a second line of the same `key` is ignored (false). */
  async add(runId: string, key: string, line: string): Promise<boolean> {
    if (this.keys.has(key)) return false;
    this.keys.add(key);
    // Bytes the service sent that are not UTF-8 are written back as they came (see decodeEscaped).
    const buf = encodeEscaped(line);
    const slot = { position: this.end, bytes: buf.length };
    this.end += buf.length;
    const slots = this.byRun.get(runId) ?? [];
    slots.push(slot);
    this.byRun.set(runId, slots);
    await writeStep(this.path, "write the pull's staging file", async () => {
      for (let written = 0; written < buf.length; ) {
        written += (await this.handle.write(buf, written, buf.length - written, slot.position + written)).bytesWritten;
      }
    });
    return true;
  }

  /** The lines of `runId`, in the order they were added. */
  async *lines(runId: string): AsyncGenerator<string> {
    for (const slot of this.byRun.get(runId) ?? []) {
      const buf = Buffer.alloc(slot.bytes);
      for (let read = 0; read < slot.bytes; ) {
        const got = (await this.handle.read(buf, read, slot.bytes - read, slot.position + read)).bytesRead;
        if (got === 0) throw new Error(`Staging file ${this.path} ended early`);
        read += got;
      }
      yield decodeEscaped(buf);
    }
  }

  /** Closes and removes the file. */
  async dispose(): Promise<void> {
    await this.handle.close().catch(() => {});
    await rm(this.path, { force: true });
  }
}
