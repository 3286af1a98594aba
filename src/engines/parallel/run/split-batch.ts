import { DEFAULT_HEAD_BYTES, decodeHead, isBlank } from "../../../sources/split-lines.js";

/** What {@link splitBatch} finds: a line to read, or one over the limit (its head decoded). */
export type BatchLine =
  | { readonly kind: "line"; readonly line: number; readonly start: number; readonly end: number }
  | { readonly kind: "too_long"; readonly line: number; readonly start: number; readonly head: string; readonly bytes: number };

/**
 * The worker's half of `splitLines` over a batch from {@link cutBatches}: lines numbered from 0 within the
 * batch, a `\r` before the `\n` dropped, blank lines skipped (but numbered), lines over `maxLineBytes`
 * reported with their head. Returns the batch's count of `\n`, which numbers the next batch's lines.
 */
export function splitBatch(bytes: Uint8Array, maxLineBytes: number, visit: (line: BatchLine) => void): number {
  let line = 0;
  for (let pos = 0; pos < bytes.length; line++) {
    const newline = bytes.indexOf(0x0a, pos);
    const lineEnd = newline === -1 ? bytes.length : newline;
    const start = pos;
    const end = lineEnd > start && bytes[lineEnd - 1] === 0x0d ? lineEnd - 1 : lineEnd;
    pos = lineEnd + 1;
    if (end - start > maxLineBytes) {
      const headEnd = start + Math.min(DEFAULT_HEAD_BYTES, end - start);
      visit({ kind: "too_long", line, start, head: decodeHead(Buffer.from(bytes.buffer, bytes.byteOffset + start, headEnd - start), headEnd - start, end - start), bytes: end - start });
    } else if (!isBlank(bytes as Buffer, start, end)) {
      visit({ kind: "line", line, start, end });
    }
  }
  return bytes.length > 0 && bytes[bytes.length - 1] !== 0x0a ? line - 1 : line;
}
