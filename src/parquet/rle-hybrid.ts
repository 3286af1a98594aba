import type { ByteWriter } from "./byte-writer.js";

/** Bits needed for levels up to `max` (0 for 0). */
export function bitWidth(max: number): number {
  return 32 - Math.clz32(max);
}

/** A bit-packed run holds at most 63 groups, so its header is one byte, as parquet-mr writes them. */
const MAX_GROUPS = 63;
/** A run of this many equal values is worth an RLE run. */
const MIN_RLE_RUN = 8;

/**
 * Writes `values[start, end)` (each below 2^bitWidth, bitWidth 1..8) in Parquet's RLE/bit-packing hybrid
 * encoding, without the 4-byte length prefix. Runs of 8 or more equal values become RLE runs, everything
 * else bit-packed groups of 8; the last group is padded with zeros (readers stop at the page's value count).
 */
export function writeRleHybrid(out: ByteWriter, values: Uint8Array, start: number, end: number, width: number): void {
  let i = start;
  let packedStart = start;
  let groups = 0;
  while (i < end) {
    const v = values[i] as number;
    let run = 1;
    while (i + run < end && values[i + run] === v) run++;
    const rle = run >= MIN_RLE_RUN;
    if (!rle) {
      if (groups === 0) packedStart = i;
      groups++;
      i += 8;
    }
    // One call site for every bit-packed run (before an RLE run, when full, at the end): docs/decisions.md
    // "hot code shape", cold paths.
    if (groups > 0 && (rle || groups === MAX_GROUPS || i >= end)) {
      writePacked(out, values, packedStart, end, groups, width);
      groups = 0;
    }
    if (rle) {
      out.varint(run * 2);
      out.u8(v);
      i += run;
    }
  }
}

/** One bit-packed run: `groups * 8` values from `start`, LSB first; values at or past `end` are 0. */
function writePacked(out: ByteWriter, values: Uint8Array, start: number, end: number, groups: number, width: number): void {
  out.varint((groups << 1) | 1);
  const count = groups * 8;
  out.ensure(groups * width);
  const bytes = out.bytes;
  let at = out.length;
  let acc = 0;
  let bits = 0;
  for (let k = 0; k < count; k++) {
    const idx = start + k;
    acc |= (idx < end ? (values[idx] as number) : 0) << bits;
    bits += width;
    while (bits >= 8) {
      bytes[at++] = acc & 0xff;
      acc >>>= 8;
      bits -= 8;
    }
  }
  // groups * 8 values of `width` bits fill whole bytes, so nothing is left in `acc`.
  out.length = at;
}

/** PLAIN booleans: one bit per value (`values` holds 0 or 1 per byte), LSB first, the last byte zero-padded. */
export function packBooleans(out: ByteWriter, values: Uint8Array, start: number, end: number): void {
  const n = end - start;
  const size = (n + 7) >>> 3;
  out.ensure(size);
  const bytes = out.bytes;
  let at = out.length;
  let i = start;
  for (; i + 8 <= end; i += 8) {
    bytes[at++] =
      (values[i] as number) |
      ((values[i + 1] as number) << 1) |
      ((values[i + 2] as number) << 2) |
      ((values[i + 3] as number) << 3) |
      ((values[i + 4] as number) << 4) |
      ((values[i + 5] as number) << 5) |
      ((values[i + 6] as number) << 6) |
      ((values[i + 7] as number) << 7);
  }
  if (i < end) {
    let last = 0;
    for (let b = 0; i < end; i++, b++) last |= (values[i] as number) << b;
    bytes[at++] = last;
  }
  out.length = at;
}
