import { WASM_SCAN } from "./wasm-scan.js";

/** 32-bit view of the last ArrayBuffer seen, so a line's bytes can be tested four at a time. */
let wordsOf: ArrayBufferLike | null = null;
let words: Int32Array<ArrayBufferLike> = new Int32Array(0);

/**
 * Whether bytes `[start, end)` of `bytes` hold a byte below 0x20. Such bytes are legal in JSON only as
 * whitespace between tokens; a line without any lets string scanning skip the per-byte control check and
 * jump from quote to quote with native `indexOf`. Tests four bytes per step with the classic
 * "has a byte less than n" word trick (`(x - 0x20202020) & ~x & 0x80808080`, exact for n <= 128).
 */
export function hasControlByte(bytes: Uint8Array, start: number, end: number): boolean {
  // A batch the worker copied into the scan module's memory: tested 16 bytes a step there.
  if (bytes.buffer === WASM_SCAN.buffer) return WASM_SCAN.exports.hasControlByte(bytes.byteOffset + start, end - start) !== 0;
  const from = bytes.byteOffset + start;
  const to = bytes.byteOffset + end;
  const firstWord = (from + 3) >> 2;
  const lastWord = to >> 2;
  // A new buffer, or one that grew since (resizable): view it anew, so no word is ever read as absent.
  if (bytes.buffer !== wordsOf || lastWord > words.length) {
    wordsOf = bytes.buffer;
    words = new Int32Array(bytes.buffer, 0, bytes.buffer.byteLength >> 2);
    if (lastWord > words.length) return hasControlByteIn(bytes, start, end);
  }
  if (firstWord >= lastWord) return hasControlByteIn(bytes, start, end);
  if (hasControlByteIn(bytes, start, (firstWord << 2) - bytes.byteOffset)) return true;
  const view = words;
  let acc = 0;
  let w = firstWord;
  for (; w + 4 <= lastWord; w += 4) {
    const a = view[w] as number;
    const b = view[w + 1] as number;
    const c = view[w + 2] as number;
    const d = view[w + 3] as number;
    acc |= ((a - 0x20202020) & ~a) | ((b - 0x20202020) & ~b) | ((c - 0x20202020) & ~c) | ((d - 0x20202020) & ~d);
  }
  for (; w < lastWord; w++) {
    const a = view[w] as number;
    acc |= (a - 0x20202020) & ~a;
  }
  return (acc & 0x80808080) !== 0 || hasControlByteIn(bytes, (lastWord << 2) - bytes.byteOffset, end);
}

function hasControlByteIn(bytes: Uint8Array, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if ((bytes[i] as number) < 0x20) return true;
  return false;
}
