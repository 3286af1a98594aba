import { isUtf8 } from "node:buffer";

/**
 * Where line `bytes[start, end)`, decoded as `text`, stops being UTF-8 (offset in the line), or undefined when
 * it is UTF-8. Looked into only where decoding made a U+FFFD: well-formed text rarely holds one. The slow path
 * and the line splitter mark their lines with it, so they quarantine the same lines as `invalid_utf8`.
 */
export function invalidUtf8At(bytes: Uint8Array, start: number, end: number, text: string): number | undefined {
  return text.includes("\uFFFD") && !isUtf8(bytes.subarray(start, end)) ? firstInvalidUtf8(bytes, start, end) : undefined;
}

/**
 * The offset (from `start`) of the first byte of `bytes[start, end)` that is not part of well-formed UTF-8
 * (RFC 3629: no overlongs, no surrogates, nothing past U+10FFFF), or -1 when all of it is. Run only on a line
 * `isUtf8` refused, to say where: decoding would put U+FFFD there silently.
 */
export function firstInvalidUtf8(bytes: Uint8Array, start = 0, end = bytes.length): number {
  for (let i = start; i < end; ) {
    const b = bytes[i] as number;
    if (b < 0x80) {
      i++;
      continue;
    }
    const size = b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    if (size === 0 || i + size > end) return i - start;
    const second = bytes[i + 1] as number;
    // The second byte's range narrows for E0 (overlong), ED (surrogates), F0 (overlong) and F4 (past U+10FFFF).
    const [low, high] = b === 0xe0 ? [0xa0, 0xbf] : b === 0xed ? [0x80, 0x9f] : b === 0xf0 ? [0x90, 0xbf] : b === 0xf4 ? [0x80, 0x8f] : [0x80, 0xbf];
    if (second < low || second > high) return i - start;
    for (let k = 2; k < size; k++) if (((bytes[i + k] as number) & 0xc0) !== 0x80) return i - start;
    i += size;
  }
  return -1;
}
