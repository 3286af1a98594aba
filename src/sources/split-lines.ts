import { wholeOption } from "../core/whole-option.js";
import { cutBatches } from "./cut-batches.js";
import { invalidUtf8At } from "./first-invalid-utf8.js";
import type { ReadOptions, SourceLine } from "./line-source.js";
import { type BatchLine, DEFAULT_HEAD_BYTES, DEFAULT_MAX_LINE_BYTES, splitBatch } from "./split-batch.js";

/** Memory first held for a line cut by a chunk end; it grows for a longer one. */
const CARRY_BYTES = 64 * 1024;

/**
 * Splits a byte stream into lines: the workers' rule (`cutBatches`, then `splitBatch`) with each
 * line decoded and numbered across the input.
 *
 * A leading UTF-8 BOM is dropped (offsets still count it), a `\r` before the `\n` is dropped, blank and
 * whitespace-only lines are skipped (line numbers still count them), and a last line without a newline is
 * kept. A line longer than `maxLineBytes` is never held whole: once it passes the limit only its first
 * `headBytes` are kept and the rest is counted, and it comes out as a `too_long` item.
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
  let lineNumber = 1; // number of the batch's first line
  for await (const batch of cutBatches(chunks, { maxLineBytes, headBytes, batchBytes: CARRY_BYTES, views: true })) {
    if (batch.kind === "too_long") {
      yield { kind: "too_long", provenance: { source, line: lineNumber++, offset: batch.offset }, head: batch.head, bytes: batch.bytes };
      continue;
    }
    const buf = Buffer.from(batch.bytes.buffer, batch.bytes.byteOffset, batch.bytes.byteLength);
    // The batch's bytes stay valid until the next batch is asked for: each line is decoded as it is yielded.
    const found: BatchLine[] = [];
    const first = lineNumber;
    lineNumber += splitBatch(buf, maxLineBytes, (at) => void found.push(at), headBytes);
    for (const at of found) {
      const provenance = { source, line: first + at.line, offset: batch.offset + at.start };
      if (at.kind === "too_long") {
        yield { kind: "too_long", provenance, head: at.head, bytes: at.bytes };
        continue;
      }
      const text = buf.toString("utf8", at.start, at.end);
      const invalidAt = invalidUtf8At(buf, at.start, at.end, text);
      const bytes = at.end - at.start;
      yield invalidAt === undefined ? { kind: "line", provenance, text, bytes } : { kind: "line", provenance, text, bytes, invalidUtf8At: invalidAt };
    }
  }
}
