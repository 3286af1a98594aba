const CR = 0x0d;
export const DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024;
export const DEFAULT_HEAD_BYTES = 4096;

/** What {@link splitBatch} finds: a line to read, or one over the limit (its head decoded). */
export type BatchLine =
  | { readonly kind: "line"; readonly line: number; readonly start: number; readonly end: number }
  | { readonly kind: "too_long"; readonly line: number; readonly start: number; readonly head: string; readonly bytes: number };

/**
 * Splits a batch of whole lines from {@link cutBatches} (a worker's half of a read, `splitLines` the other's):
 * lines numbered from 0 within the batch, a `\r` before the `\n` dropped, blank and whitespace-only lines
 * skipped (but numbered), lines over `maxLineBytes` reported with their first `headBytes`. Returns the
 * batch's count of `\n`, which numbers the next batch's lines.
 */
export function splitBatch(bytes: Uint8Array, maxLineBytes: number, visit: (line: BatchLine) => void, headBytes = DEFAULT_HEAD_BYTES): number {
  let line = 0;
  for (let pos = 0; pos < bytes.length; line++) {
    const newline = bytes.indexOf(0x0a, pos);
    const lineEnd = newline === -1 ? bytes.length : newline;
    const start = pos;
    const end = lineEnd > start && bytes[lineEnd - 1] === CR ? lineEnd - 1 : lineEnd;
    pos = lineEnd + 1;
    if (end - start > maxLineBytes) {
      const headEnd = start + Math.min(headBytes, end - start);
      visit({ kind: "too_long", line, start, head: decodeHead(Buffer.from(bytes.buffer, bytes.byteOffset + start, headEnd - start), headEnd - start, end - start), bytes: end - start });
    } else if (!isBlank(bytes as Buffer, start, end)) {
      visit({ kind: "line", line, start, end });
    }
  }
  return bytes.length > 0 && bytes[bytes.length - 1] !== 0x0a ? line - 1 : line;
}

/** True when the bytes are only spaces, tabs and carriage returns (and vertical tab, form feed). */
export function isBlank(buf: Buffer, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = buf[i];
    if (c !== 0x20 && c !== 0x09 && c !== CR && c !== 0x0b && c !== 0x0c) return false;
  }
  return true;
}

/**
 * Decodes the first `length` bytes of a line whose full length is `lineBytes`. When the head cuts the
 * line, a multi-byte character cut in half is left out rather than shown as a replacement character.
 */
export function decodeHead(buf: Buffer, length: number, lineBytes: number): string {
  let end = length;
  if (length < lineBytes) {
    // Walk back over continuation bytes (10xxxxxx) to the last character's lead byte.
    let lead = end - 1;
    while (lead >= 0 && lead > end - 4 && ((buf[lead] ?? 0) & 0xc0) === 0x80) lead--;
    const byte = buf[lead] ?? 0;
    const size = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    if (lead >= 0 && lead + size > end) end = lead;
  }
  return buf.toString("utf8", 0, end);
}
