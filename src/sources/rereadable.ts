import { createReadStream } from "node:fs";
import { spool, type Spool, type SpoolFile } from "./spool.js";

const READ_CHUNK_BYTES = 1024 * 1024;

/**
 * A stream that can be read only once (stdin, a caller's lines), read as often as asked: the first read
 * copies it to a spool file in `dir` as it goes (see `spool`), later reads read that file. A read that starts
 * while the first is still under way waits until the stream is fully spooled.
 */
export class Rereadable {
  #spooled: Spool | undefined;

  constructor(
    /** Opened once, by the first read. */
    private readonly open: () => NodeJS.ReadableStream,
    private readonly dir: string,
  ) {}

  /** The stream's raw bytes, from its first byte. */
  async *read(): AsyncGenerator<Buffer> {
    if (this.#spooled === undefined) {
      this.#spooled = spool(this.open(), this.dir);
      yield* this.#spooled.chunks;
    } else {
      const { path } = await this.#spooled.done;
      for await (const chunk of createReadStream(path, { highWaterMark: READ_CHUNK_BYTES })) yield chunk as Buffer;
    }
  }

  /** The whole stream spooled (read through first if no read has started): its file, size and sha256. */
  async file(): Promise<SpoolFile> {
    if (this.#spooled === undefined) for await (const _ of this.read());
    return (this.#spooled as Spool).done;
  }
}
