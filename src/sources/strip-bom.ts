import { Buffer } from "node:buffer";

/**
 * Drops a leading UTF-8 BOM, which may itself be cut across the first chunks, and reports its length.
 * Chunks pass through as they are, the first one tested where it lies: a chunk read in place into a
 * caller's buffer stays there (the parallel engine's first 4 MiB, copied whole to look at 3 bytes, cost a
 * fresh 4 MiB and ~5 ms before the workers had work). The few bytes held back while the BOM cannot be told
 * yet (first chunks of under 3 bytes, a pipe's) are copied: the source may read the next chunk into the
 * same memory.
 */
export async function* stripBom(chunks: AsyncIterable<Buffer>, onBom: (bytes: number) => void): AsyncIterable<Buffer> {
  let prefix: Buffer | undefined;
  let settled = false;
  for await (const chunk of chunks) {
    if (settled) {
      yield chunk;
      continue;
    }
    prefix = prefix === undefined ? chunk : Buffer.concat([prefix, chunk]);
    if (prefix.length < 3) {
      prefix = Buffer.from(prefix);
      continue;
    }
    settled = true;
    if (prefix[0] === 0xef && prefix[1] === 0xbb && prefix[2] === 0xbf) {
      onBom(3);
      prefix = prefix.subarray(3);
    }
    if (prefix.length > 0) yield prefix;
  }
  if (!settled && prefix !== undefined && prefix.length > 0) yield prefix;
}
