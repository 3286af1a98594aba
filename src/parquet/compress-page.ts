import type * as Zlib from "node:zlib";
import snappy from "snappyjs";
import { lazyBuiltin } from "../core/lazy-builtin.js";
import type { ByteWriter } from "./byte-writer.js";

const zlib = lazyBuiltin<typeof Zlib>("node:zlib");

/** Page compressions of the native encoder. */
export const PAGE_CODECS = ["zstd", "gzip", "snappy", "none"] as const;
export type PageCodec = (typeof PAGE_CODECS)[number];

/**
 * Appends `src` compressed with `codec` to `out`. zstd and gzip go through node:zlib (no native addon to build
 * at install: docs/decisions.md), snappy through snappyjs (pure JS: docs/decisions.md says why it replaced DuckDB
 * for snappy shards).
 */
export function compressPage(codec: PageCodec, level: number, src: Uint8Array, out: ByteWriter): void {
  switch (codec) {
    case "zstd": {
      const z = zlib();
      // Node's 16 KiB output chunks, not one chunk above zstd's bound: that chunk, a fresh page-sized buffer
      // dropped once appended, made a convert's peak memory grow with its input (docs/decisions.md).
      out.append(z.zstdCompressSync(src, { params: { [z.constants.ZSTD_c_compressionLevel]: level } }));
      return;
    }
    case "gzip":
      out.append(zlib().gzipSync(src, { level }));
      return;
    case "snappy":
      out.append(snappy.compress(src));
      return;
    case "none":
      out.append(src);
      return;
  }
}
