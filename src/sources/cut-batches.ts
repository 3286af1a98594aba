import { DEFAULT_HEAD_BYTES, DEFAULT_MAX_LINE_BYTES, decodeHead } from "./split-batch.js";
import { stripBom } from "./strip-bom.js";

/** The least free memory worth offering a source to read into: smaller reads would cost more calls. */
const MIN_READ_BYTES = 1 << 20;

/** Whole lines of one input, `bytes[0]` at `offset` in the (decompressed) input. */
export interface LinesBatch {
  readonly kind: "lines";
  readonly bytes: Uint8Array;
  readonly offset: number;
}

/** A line past the limit, never held whole: its first bytes decoded, and its full length. */
export interface TooLongBatch {
  readonly kind: "too_long";
  readonly offset: number;
  readonly head: string;
  readonly bytes: number;
}

export type RawBatch = LinesBatch | TooLongBatch;

/**
 * Cuts an input's bytes into batches of whole lines, about `batchBytes` each (with `views`, at most a
 * chunk), without looking at lines: `splitBatch` splits them (in the workers, or in `splitLines`). A leading
 * UTF-8 BOM is dropped (offsets still count it), a last line without a newline is kept, and a line that
 * grows past `maxLineBytes` before its newline is skipped and comes out as a `too_long` batch (shorter lines
 * over the limit are `splitBatch`'s to report).
 */
export async function* cutBatches(
  /** The input's bytes; as a function, it is offered the free end of the pending batch to read into (see `LineSource.bytes`). */
  chunks: AsyncIterable<Buffer> | ((memory: () => Uint8Array | null) => AsyncIterable<Buffer>),
  options: {
    readonly maxLineBytes?: number;
    readonly headBytes?: number;
    readonly batchBytes: number;
    /**
     * Memory for a batch of at least `bytes` bytes, in an ArrayBuffer of its own. The parallel
     * engine hands out buffers its workers gave back: fresh memory costs a page fault per 4 KiB.
     */
    readonly allocate?: (bytes: number) => Uint8Array;
    /** Takes back memory from `allocate` that no batch holds (outgrown by a long line). */
    readonly release?: (memory: Uint8Array) => void;
    /** The least free memory offered to a source to read into; default 1 MiB. */
    readonly minReadBytes?: number;
    /**
     * Batches may lie in the chunks' memory, and the next batch may reuse a batch's memory: each is valid only
     * until the next is asked for. Lines within one chunk are then read where they lie; only a line cut by a
     * chunk's end is copied.
     */
    readonly views?: boolean;
  },
): AsyncIterable<RawBatch> {
  const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  const headBytes = options.headBytes ?? DEFAULT_HEAD_BYTES;
  // A pending line may hold one byte more than the limit: it can be the `\r` of a CRLF.
  const carryLimit = maxLineBytes + 1;
  let offset = 0; // input offset of the first pending byte
  const allocate = options.allocate ?? ((bytes: number) => Buffer.allocUnsafeSlow(bytes));
  let pending: Uint8Array = allocate(options.batchBytes);
  /** The largest chunk seen: a new pending buffer gets room for one, so it rarely grows. */
  let chunkBytes = options.batchBytes;
  let used = 0;
  /** Pending bytes that are whole lines; the rest is the start of a line. */
  let lineEnd = 0;
  // A line past the limit: only its head is kept, the rest counted.
  let skipping = false;
  let skipHead: Buffer = Buffer.alloc(0);
  let skipBytes = 0;
  let skipLast = 0;

  const append = (src: Uint8Array, start: number, end: number): void => {
    const need = used + (end - start);
    if (src.buffer === pending.buffer && src.byteOffset + start === pending.byteOffset + used) {
      used = need; // read in place (see `free`)
      return;
    }
    if (need > pending.length) {
      const bigger = allocate(Math.max(need, pending.length * 2));
      bigger.set(pending.subarray(0, used));
      options.release?.(pending);
      pending = bigger;
    }
    pending.set(src.subarray(start, end), used);
    used = need;
  };

  /** The pending bytes up to `upto` as a batch, handing over the buffer itself; what follows moves to a new one. */
  const take = (upto: number): LinesBatch => {
    const bytes = pending.subarray(0, upto);
    const next = allocate(Math.max(options.batchBytes, chunkBytes) + (used - upto));
    next.set(pending.subarray(upto, used));
    pending = next;
    used -= upto;
    lineEnd = Math.max(0, lineEnd - upto);
    const batch: LinesBatch = { kind: "lines", bytes, offset };
    offset += upto;
    return batch;
  };

  const skip = (src: Uint8Array, start: number, end: number): void => {
    if (skipHead.length < headBytes) skipHead = Buffer.concat([skipHead, src.subarray(start, Math.min(end, start + headBytes - skipHead.length))]);
    skipBytes += end - start;
    if (end > start) skipLast = src[end - 1] ?? 0;
  };

  const endSkip = (): TooLongBatch => {
    skipping = false;
    const bytes = skipLast === 0x0d ? skipBytes - 1 : skipBytes;
    const batch: TooLongBatch = { kind: "too_long", offset, head: decodeHead(skipHead, Math.min(skipHead.length, bytes), bytes), bytes };
    offset += skipBytes + 1;
    skipHead = Buffer.alloc(0);
    skipBytes = 0;
    return batch;
  };

  /** The pending batch's free end, for the source to read the next chunk into; null when little is left. */
  const minRead = options.minReadBytes ?? MIN_READ_BYTES;
  const free = (): Uint8Array | null => (pending.length - used >= minRead && !skipping ? pending.subarray(used) : null);

  for await (const chunk of stripBom(typeof chunks === "function" ? chunks(free) : chunks, (bomBytes) => (offset = bomBytes))) {
    if (chunk.length > chunkBytes) chunkBytes = chunk.length;
    let pos = 0;
    if (skipping) {
      const newline = chunk.indexOf(0x0a);
      skip(chunk, 0, newline === -1 ? chunk.length : newline);
      if (newline === -1) continue;
      yield endSkip();
      pos = newline + 1;
    }
    const last = chunk.lastIndexOf(0x0a);
    if (last < pos) {
      // No line ends in this chunk: it all belongs to the pending partial line.
      if (used - lineEnd + (chunk.length - pos) > carryLimit) {
        if (lineEnd > 0) yield take(lineEnd);
        skipping = true;
        skip(pending, 0, used);
        used = 0;
        skip(chunk, pos, chunk.length);
      } else append(chunk, pos, chunk.length);
      continue;
    }
    if (options.views === true) {
      if (used > 0) {
        // The pending line ends at this chunk's first newline: only it is copied.
        const newline = chunk.indexOf(0x0a, pos);
        append(chunk, pos, newline + 1);
        yield { kind: "lines", bytes: pending.subarray(0, used), offset };
        offset += used;
        used = 0;
        pos = newline + 1;
      }
      if (last >= pos) {
        yield { kind: "lines", bytes: chunk.subarray(pos, last + 1), offset };
        offset += last + 1 - pos;
      }
    } else {
      append(chunk, pos, last + 1);
      lineEnd = used;
      if (used >= options.batchBytes) yield take(used);
    }
    const tail = chunk.length - (last + 1);
    if (tail > carryLimit) {
      if (used > 0) yield take(used);
      skipping = true;
      skip(chunk, last + 1, chunk.length);
    } else append(chunk, last + 1, chunk.length);
  }
  if (skipping) yield endSkip();
  else if (used > 0) yield take(used);
  options.release?.(pending);
}
