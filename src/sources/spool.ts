import { createHash, randomUUID } from "node:crypto";
import { mkdir, open, type FileHandle } from "node:fs/promises";
import { join } from "node:path";
import { ioStep } from "../core/io-step.js";

/** A one-shot stream copied to a file as it is read, so that it can be read again. */
export interface Spool {
  /** The stream's raw chunks, each written to the spool file before it is handed on. Iterate once. */
  readonly chunks: AsyncIterable<Buffer>;
  /**
   * Settles once the whole stream is in the file, even when the reader of `chunks` stopped early (the
   * rest is then copied in the background); rejects if reading the stream or writing the file failed.
   */
  readonly done: Promise<SpoolFile>;
}

/** The spool file and the size and sha256 of what it holds. */
export interface SpoolFile {
  readonly path: string;
  readonly bytes: number;
  readonly sha256: string;
}

/**
 * Starts copying `input` to a new file in `dir` as `chunks` is read. Memory stays bounded: each chunk is
 * written before the next is read. The caller owns `dir` and removes it.
 */
export function spool(input: NodeJS.ReadableStream, dir: string): Spool {
  const path = join(dir, `stdin-${randomUUID()}.raw`);
  const iterator = input[Symbol.asyncIterator]();
  // The iterator listens for errors only from its first next(), which waits for the spool file to open: a stream
  // failing before then would throw as an unhandled 'error' event. The iterator still sees it (the stream is errored).
  input.on("error", () => {});
  const hash = createHash("sha256");
  let bytes = 0;
  let file: Promise<FileHandle> | undefined;
  let failed = false;

  let resolve!: (file: SpoolFile) => void;
  let reject!: (err: unknown) => void;
  const done = new Promise<SpoolFile>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // Whoever reads `chunks` sees a failure directly; `done` must not also count as unhandled.
  done.catch(() => {});

  /** Copies one chunk to the file and returns it; undefined at the end of the stream. */
  const step = async (): Promise<Buffer | undefined> => {
    try {
      file ??= ioStep(path, "create the spool file", () => mkdir(dir, { recursive: true }).then(() => open(path, "wx")));
      const handle = await file;
      const next = await iterator.next();
      if (next.done === true) {
        await handle.close();
        resolve({ path, bytes, sha256: hash.digest("hex") });
        return undefined;
      }
      const chunk = typeof next.value === "string" ? Buffer.from(next.value) : next.value;
      hash.update(chunk);
      bytes += chunk.length;
      await ioStep(path, "write the spool file", async () => {
        for (let written = 0; written < chunk.length; ) {
          written += (await handle.write(chunk, written, chunk.length - written)).bytesWritten;
        }
      });
      return chunk;
    } catch (err) {
      failed = true;
      reject(err);
      file?.then((handle) => handle.close()).catch(() => {});
      throw err;
    }
  };

  const drain = async (): Promise<void> => {
    try {
      while ((await step()) !== undefined);
    } catch {
      // `done` carries the failure.
    }
  };

  async function* chunks(): AsyncGenerator<Buffer> {
    let finished = false;
    try {
      for (let chunk = await step(); chunk !== undefined; chunk = await step()) yield chunk;
      finished = true;
    } finally {
      // The stream cannot be read twice: if our reader stopped early, later reads still need all of it.
      if (!finished && !failed) void drain();
    }
  }

  return { chunks: chunks(), done };
}
