import type * as Zlib from "node:zlib";
import snappy from "snappyjs";
import zstd from "zstd-napi/binding.js";
import { lazyBuiltin } from "../core/lazy-builtin.js";
import type { ByteWriter } from "./byte-writer.js";

const zlib = lazyBuiltin<typeof Zlib>("node:zlib");

/** Page compression of the native encoder. */
export type PageCodec = "zstd" | "gzip" | "snappy" | "none";

/**
 * One zstd context per thread (module state is per worker), reused for every page: creating a context
 * costs far more than compressing a small page. Created on first use.
 */
let context: zstd.CCtx | null = null;

/**
 * Appends `src` compressed with `codec` to `out`. zstd compresses straight into `out` through the
 * binding's `ZSTD_compressCCtx`, so a page costs no allocation; gzip goes through node:zlib, snappy through
 * snappyjs (pure JS: docs/decisions.md says why it replaced DuckDB for snappy shards).
 */
export function compressPage(codec: PageCodec, level: number, src: Uint8Array, out: ByteWriter): void {
  switch (codec) {
    case "zstd": {
      context ??= new zstd.CCtx();
      out.ensure(zstd.compressBound(src.length));
      out.length += context.compress(out.bytes.subarray(out.length), src, level);
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
