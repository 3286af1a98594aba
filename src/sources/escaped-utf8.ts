import { isUtf8 } from "node:buffer";
import { firstInvalidUtf8 } from "./first-invalid-utf8.js";

/** Lone low surrogates U+DC80..U+DCFF not after a high one: the marks `decodeEscaped` leaves for bad bytes. */
const ESCAPED_BYTE = /(?<![\uD800-\uDBFF])[\uDC80-\uDCFF]/;

/**
 * Decodes `bytes[start, end)` as UTF-8, but each byte that is not part of well-formed UTF-8 becomes the lone
 * surrogate U+DC00 + byte (Python's "surrogateescape") instead of U+FFFD. Why: the pull hands record lines
 * around as strings (NDJSON splitting, its staging file, the spool), and U+FFFD would hide that the service
 * sent bytes that are not UTF-8; `encodeEscaped` gives them back, so the spool holds the bytes as received and
 * the engines quarantine the line as `invalid_utf8`, as they do for files. Well-formed UTF-8 never decodes to
 * a lone surrogate, so the marks cannot be confused with text.
 */
export function decodeEscaped(bytes: Buffer, start = 0, end = bytes.length): string {
  if (isUtf8(bytes.subarray(start, end))) return bytes.toString("utf8", start, end);
  let text = "";
  for (let i = start; i < end; ) {
    const bad = firstInvalidUtf8(bytes, i, end);
    if (bad === -1) return text + bytes.toString("utf8", i, end);
    text += bytes.toString("utf8", i, i + bad) + String.fromCharCode(0xdc00 + (bytes[i + bad] as number));
    i += bad + 1;
  }
  return text;
}

/** Whether `text` holds a byte `decodeEscaped` escaped: if not, its `encodeEscaped` form is plain UTF-8. */
export function hasEscapedBytes(text: string): boolean {
  return ESCAPED_BYTE.test(text);
}

/** The bytes `decodeEscaped` read: UTF-8, with each escaped byte written back as it was. */
export function encodeEscaped(text: string): Buffer {
  if (!ESCAPED_BYTE.test(text)) return Buffer.from(text, "utf8");
  const parts: Buffer[] = [];
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0xdc80 || c > 0xdcff) continue;
    const before = i > 0 ? text.charCodeAt(i - 1) : 0;
    if (before >= 0xd800 && before <= 0xdbff) continue;
    parts.push(Buffer.from(text.slice(from, i), "utf8"), Buffer.of(c - 0xdc00));
    from = i + 1;
  }
  parts.push(Buffer.from(text.slice(from), "utf8"));
  return Buffer.concat(parts);
}
