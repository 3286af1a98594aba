import { wholeOption } from "../core/whole-option.js";
import { invalidUtf8At } from "./first-invalid-utf8.js";
import type { ReadOptions, SourceLine } from "./line-source.js";
import { stripBom } from "./strip-bom.js";

const LF = 0x0a;
const CR = 0x0d;
export const DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024;
export const DEFAULT_HEAD_BYTES = 4096;

/**
 * Splits a byte stream into lines, the hot path of every read.
 *
 * A leading UTF-8 BOM is dropped (offsets still count it), a `\r` before the `\n` is dropped, blank and
 * whitespace-only lines are skipped (line numbers still count them), and a last line without a newline is
 * kept. A line longer than `maxLineBytes` is never held whole: once it passes the limit only its first
 * `headBytes` are kept and the rest is counted, and it comes out as a `too_long` item.
 *
 * Chunks are sliced, not copied: a caller must not reuse a chunk's memory after handing it over.
 *
 * @param chunks the decompressed input
 * @param source the input as the user named it, for `provenance.source`
 */
export async function* splitLines(
  chunks: AsyncIterable<Buffer>,
  source: string,
  options: ReadOptions = {},
): AsyncIterable<SourceLine> {
  const maxLineBytes = wholeOption("maxLineBytes", options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES, 1);
  const headBytes = wholeOption("headBytes", options.headBytes ?? DEFAULT_HEAD_BYTES, 0);
  // A pending line may hold one byte more than the limit: it can be the `\r` of a CRLF.
  const carryLimit = maxLineBytes + 1;

  let chunkOffset = 0; // offset of the current chunk's first byte in the stream
  let lineNumber = 1; // number of the line being read
  let lineOffset = 0; // offset of that line's first byte

  // The start of a line cut by a chunk end, while it is still short enough to keep.
  let carry: Buffer[] = [];
  let carryBytes = 0;

  // A line past the limit: only its head is kept, the rest only counted.
  let skipping = false;
  const head = Buffer.allocUnsafe(headBytes);
  let headLength = 0;
  let skippedBytes = 0;
  let skippedLastByte = 0;

  const keepHead = (buf: Buffer, start: number, end: number): void => {
    const n = Math.min(end - start, headBytes - headLength);
    if (n > 0) headLength += buf.copy(head, headLength, start, start + n);
  };

  const skip = (buf: Buffer, start: number, end: number): void => {
    keepHead(buf, start, end);
    skippedBytes += end - start;
    if (end > start) skippedLastByte = buf[end - 1] ?? 0;
  };

  const startSkipping = (buf: Buffer, start: number, end: number): void => {
    skipping = true;
    headLength = 0;
    skippedBytes = 0;
    for (const part of carry) skip(part, 0, part.length);
    skip(buf, start, end);
    carry = [];
    carryBytes = 0;
  };

  /** The pending line in one buffer; `carryBytes` still gives its length. */
  const takeCarry = (): Buffer => {
    const whole = carry.length === 1 ? (carry[0] as Buffer) : Buffer.concat(carry, carryBytes);
    carry = [];
    return whole;
  };

  /** Ends the skipped line; `bytes` counts it without its line end. */
  const tooLong = (): SourceLine => {
    skipping = false;
    const bytes = skippedLastByte === CR ? skippedBytes - 1 : skippedBytes;
    return {
      kind: "too_long",
      provenance: { source, line: lineNumber, offset: lineOffset },
      head: decodeHead(head, Math.min(headLength, bytes), bytes),
      bytes,
    };
  };

  /** The line `buf[start, end)` (its `\n` excluded), or undefined when it is blank. */
  const lineOf = (buf: Buffer, start: number, end: number): SourceLine | undefined => {
    if (end > start && buf[end - 1] === CR) end--;
    const bytes = end - start;
    const provenance = { source, line: lineNumber, offset: lineOffset };
    if (bytes > maxLineBytes) {
      const headEnd = start + Math.min(headBytes, bytes);
      return { kind: "too_long", provenance, head: decodeHead(buf.subarray(start, headEnd), headEnd - start, bytes), bytes };
    }
    if (isBlank(buf, start, end)) return undefined;
    const text = buf.toString("utf8", start, end);
    const invalidAt = invalidUtf8At(buf, start, end, text);
    return invalidAt === undefined ? { kind: "line", provenance, text, bytes } : { kind: "line", provenance, text, bytes, invalidUtf8At: invalidAt };
  };

  for await (const buf of stripBom(chunks, (bomBytes) => (chunkOffset = lineOffset = bomBytes))) {
    const length = buf.length;
    let pos = 0;

    if (skipping || carryBytes > 0) {
      // Continue the line begun in an earlier chunk, up to this chunk's first newline.
      const newline = buf.indexOf(LF);
      const end = newline === -1 ? length : newline;
      if (skipping) skip(buf, 0, end);
      else if (carryBytes + end > carryLimit) startSkipping(buf, 0, end);
      else if (end > 0) {
        carry.push(buf.subarray(0, end));
        carryBytes += end;
      }
      if (newline === -1) {
        chunkOffset += length;
        continue;
      }
      const line = skipping ? tooLong() : lineOf(takeCarry(), 0, carryBytes);
      carryBytes = 0;
      if (line !== undefined) yield line;
      pos = newline + 1;
      lineNumber++;
      lineOffset = chunkOffset + pos;
    }

    for (let newline = buf.indexOf(LF, pos); newline !== -1; newline = buf.indexOf(LF, pos)) {
      const line = lineOf(buf, pos, newline);
      if (line !== undefined) yield line;
      pos = newline + 1;
      lineNumber++;
      lineOffset = chunkOffset + pos;
    }

    if (pos < length) {
      if (length - pos > carryLimit) startSkipping(buf, pos, length);
      else {
        carry.push(pos === 0 ? buf : buf.subarray(pos));
        carryBytes = length - pos;
      }
    }
    chunkOffset += length;
  }

  // The last line had no newline.
  if (skipping) yield tooLong();
  else if (carryBytes > 0) {
    const line = lineOf(takeCarry(), 0, carryBytes);
    if (line !== undefined) yield line;
  }
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
