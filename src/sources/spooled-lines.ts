import { Readable } from "node:stream";
import type { LineSource, ReadOptions, SourceLine } from "./line-source.js";
import { Rereadable } from "./rereadable.js";

/** The spool is written in chunks of about this many bytes. */
const CHUNK_BYTES = 1024 * 1024;
/** Blank bytes written to put a line at its own offset, at most: past it, the spool's offset stands. */
const MAX_PAD_BYTES = 1024 * 1024;
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const REPLACEMENT = Buffer.from("\uFFFD");
const INVALID = Buffer.from([0xff]);

/**
 * A source that has lines but no bytes (a library caller's), given bytes: its lines written once into a
 * spool file in `dir` (streamed, a chunk at a time) as the bytes they were read from, so that the units,
 * which split lines themselves, read the spool. Each line lands at its own line number (blank lines fill the
 * gaps) and, where the gap before it leaves room, at its own byte offset; its name, lines and info stay the
 * source's. A source with bytes is returned as it is.
 *
 * @param read how the spool reads the source's lines: the run's, so an oversized line is one there too
 */
export function withSpooledBytes(source: LineSource, dir: string, read: ReadOptions): LineSource {
  if (source.bytes !== undefined) return source;
  const spooled = new Rereadable(() => Readable.from(linesAsBytes(source.lines(read))), dir);
  return { name: source.name, lines: (options) => source.lines(options), bytes: () => spooled.read(), info: () => source.info() };
}

/** The lines as the bytes of a file that splits into them again, in chunks of about CHUNK_BYTES. */
async function* linesAsBytes(lines: AsyncIterable<SourceLine>): AsyncGenerator<Buffer> {
  const parts: Buffer[] = [];
  let size = 0;
  /** Bytes put so far, and the line they end on. */
  let at = 0;
  let line = 1;
  let started = false;
  const put = (bytes: Buffer): void => {
    parts.push(bytes);
    size += bytes.length;
    at += bytes.length;
  };
  const take = (): Buffer => {
    const chunk = Buffer.concat(parts, size);
    parts.length = 0;
    size = 0;
    return chunk;
  };
  for await (const item of lines) {
    const { line: own, offset } = item.provenance;
    const breaks = Math.max(own - line, started ? 1 : 0);
    put(separator(breaks, offset - at - breaks));
    line += breaks;
    started = true;
    if (item.kind === "line") put(textBytes(item.text, item.invalidUtf8At));
    else {
      // Oversized: its head, then as many bytes as it had, so the units find it as long (never held whole).
      const head = Buffer.from(item.head).subarray(0, item.bytes);
      put(head);
      for (let left = item.bytes - head.length; left > 0; left -= CHUNK_BYTES) {
        put(Buffer.alloc(Math.min(left, CHUNK_BYTES), 0x78));
        yield take();
      }
    }
    if (size >= CHUNK_BYTES) yield take();
  }
  if (size > 0) yield take();
}

/**
 * What goes between two lines `breaks` line ends apart (0: before the first line, which is on line 1) so that
 * the next starts `pad` bytes further on than line ends alone would put it: a CR before a lone line end (a CRLF
 * file), blanks on a blank line between, a BOM before the first line. Otherwise the line ends alone.
 */
function separator(breaks: number, pad: number): Buffer {
  if (breaks === 0) return pad === BOM.length ? BOM : Buffer.alloc(0);
  if (pad === 1 && breaks === 1) return Buffer.from("\r\n");
  if (pad <= 0 || breaks === 1 || pad > MAX_PAD_BYTES) return Buffer.from("\n".repeat(breaks));
  return Buffer.from(`\n${" ".repeat(pad)}${"\n".repeat(breaks - 1)}`);
}

/**
 * A line's text as UTF-8; from where it stopped being UTF-8 on, each U+FFFD (a bad byte, as read) an invalid
 * byte again, so the units find the line as bad, and as long where each bad byte stood alone.
 */
function textBytes(text: string, invalidAt: number | undefined): Buffer {
  const bytes = Buffer.from(text);
  if (invalidAt === undefined) return bytes;
  const parts = [bytes.subarray(0, invalidAt)];
  let from = invalidAt;
  for (let at = bytes.indexOf(REPLACEMENT, from); at !== -1; at = bytes.indexOf(REPLACEMENT, from)) {
    parts.push(bytes.subarray(from, at), INVALID);
    from = at + REPLACEMENT.length;
  }
  parts.push(bytes.subarray(from));
  return Buffer.concat(parts);
}
