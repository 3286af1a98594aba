import { Transform, type TransformCallback } from "node:stream";
import { finished } from "node:stream/promises";
import { createZstdDecompress } from "node:zlib";
import { ZstdFrameEnds } from "./zstd-frame-ends.js";

/**
 * A zstd decoder of every frame of its input, one node:zlib decoder per frame (see `ZstdFrameEnds` for why).
 * A corrupt or truncated frame fails the stream: with the decoder's error, or ours when it has none.
 */
export class ZstdFramesDecompress extends Transform {
  readonly #frames = new ZstdFrameEnds();
  #decoder: Transform | null = null;

  constructor(private readonly chunkSize: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.#feed(chunk).then(() => done(), done);
  }

  override _flush(done: TransformCallback): void {
    // The decoder's own error, when it has one, says more than ours.
    this.#endFrame().then(() => {
      const incomplete = this.#frames.incomplete;
      done(incomplete === undefined ? null : new Error(incomplete));
    }, done);
  }

  override _destroy(error: Error | null, done: (error?: Error | null) => void): void {
    this.#decoder?.destroy();
    done(error);
  }

  async #feed(chunk: Buffer): Promise<void> {
    let start = 0;
    for (const end of this.#frames.ends(chunk)) {
      await this.#write(chunk.subarray(start, end));
      await this.#endFrame();
      start = end;
    }
    if (start < chunk.length) await this.#write(chunk.subarray(start));
  }

  #write(piece: Buffer): Promise<void> {
    if (this.#decoder === null) {
      const decoder = createZstdDecompress({ chunkSize: this.chunkSize });
      decoder.on("data", (out: Buffer) => this.push(out));
      this.#decoder = decoder;
    }
    const decoder = this.#decoder;
    return new Promise((resolve, reject) => {
      decoder.once("error", reject);
      decoder.write(piece, (error) => {
        decoder.off("error", reject);
        if (error) reject(error);
        else resolve();
      });
    });
  }

  async #endFrame(): Promise<void> {
    const decoder = this.#decoder;
    if (decoder === null) return;
    this.#decoder = null;
    decoder.end();
    await finished(decoder, { writable: true, readable: true });
  }
}
