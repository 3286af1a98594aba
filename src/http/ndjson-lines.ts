import { decodeEscaped } from "../sources/escaped-utf8.js";
import { tryParseJson } from "../core/try-parse-json.js";
const LF = 0x0a;
const CR = 0x0d;

/** The body ended in the middle of a line. Internal: the client turns it into a retry or a StreamCutError. */
export class PartialLineError extends Error {
  constructor(readonly partialBytes: number) {
    super(`NDJSON body ended in the middle of a line (${partialBytes} bytes of it received)`);
    this.name = "PartialLineError";
  }
}

/**
 * Splits an NDJSON body into complete lines, without their `\n` (and a `\r` before it). Blank lines are
 * skipped. A line is handed out only once its newline has arrived, so a body that stops early never
 * yields a fragment: it throws PartialLineError instead.
 *
 * A last line without a newline is still complete when it parses as JSON: some servers omit the final
 * newline, and a proper prefix of a JSON object or array never parses, so a cut line cannot pass.
 */
export async function* ndjsonLines(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<string, void, undefined> {
  let carry: Buffer[] = [];
  let carryBytes = 0;
  for await (const chunk of chunks) {
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    let start = 0;
    for (let nl = buf.indexOf(LF, start); nl !== -1; nl = buf.indexOf(LF, start)) {
      // Splitting bytes at `\n` is safe for UTF-8: the byte never occurs inside a multi-byte character.
      const line = carryBytes === 0 ? text(buf, start, nl) : text(Buffer.concat([...carry, buf.subarray(start, nl)]), 0, carryBytes + nl - start);
      carry = [];
      carryBytes = 0;
      start = nl + 1;
      if (line.trim() !== "") yield line;
    }
    if (start < buf.length) {
      // The chunk may be reused by the stream: keep a copy of the unfinished line.
      carry.push(Buffer.from(buf.subarray(start)));
      carryBytes += buf.length - start;
    }
  }
  if (carryBytes === 0) return;
  const last = text(Buffer.concat(carry), 0, carryBytes);
  if (last.trim() === "") return;
  if (tryParseJson(last) === undefined) throw new PartialLineError(carryBytes);
  yield last;
}

/** A line's text; bytes that are not UTF-8 stay recoverable (decodeEscaped), so the pull can quarantine the line. */
function text(buf: Buffer, start: number, end: number): string {
  return decodeEscaped(buf, start, end > start && buf[end - 1] === CR ? end - 1 : end);
}
