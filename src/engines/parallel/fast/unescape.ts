import { BACKSLASH, HEX } from "./byte-cursor.js";

/** Runs up to this many bytes are copied by a loop: cheaper than making a view for a native copy. */
const SHORT_RUN = 64;
/** After a backslash: the byte a two-character escape stands for. */
const UNESCAPED = new Uint8Array(256);
for (const [c, v] of [['"', 0x22], ["\\", 0x5c], ["/", 0x2f], ["b", 0x08], ["f", 0x0c], ["n", 0x0a], ["r", 0x0d], ["t", 0x09]] as const) UNESCAPED[c.charCodeAt(0)] = v;

/**
 * Decodes the string content `src[start, end)`, whose escapes are already known to be valid (surrogate
 * escapes only in high-low pairs), into `out` as UTF-8; returns the length written. `out` must hold at
 * least `end - start` bytes: no escape decodes to more bytes than it spells. Saves a JS string per value.
 */
export function unescape(src: Buffer, start: number, end: number, out: Buffer): number {
  let n = 0;
  let run = start;
  for (let p = src.indexOf(BACKSLASH, run); p >= 0 && p < end; p = src.indexOf(BACKSLASH, run)) {
    n += copyRun(src, run, p, out, n);
    const c = src[p + 1] as number;
    if (c !== 0x75) {
      out[n++] = UNESCAPED[c] as number;
      run = p + 2;
      continue;
    }
    let v = hex4(src, p + 2);
    run = p + 6;
    if (v >= 0xd800 && v <= 0xdbff) {
      v = 0x10000 + ((v - 0xd800) << 10) + (hex4(src, p + 8) - 0xdc00);
      run = p + 12;
    }
    if (v < 0x80) out[n++] = v;
    else if (v < 0x800) {
      out[n++] = 0xc0 | (v >> 6);
      out[n++] = 0x80 | (v & 0x3f);
    } else if (v < 0x10000) {
      out[n++] = 0xe0 | (v >> 12);
      out[n++] = 0x80 | ((v >> 6) & 0x3f);
      out[n++] = 0x80 | (v & 0x3f);
    } else {
      out[n++] = 0xf0 | (v >> 18);
      out[n++] = 0x80 | ((v >> 12) & 0x3f);
      out[n++] = 0x80 | ((v >> 6) & 0x3f);
      out[n++] = 0x80 | (v & 0x3f);
    }
  }
  return n + copyRun(src, run, end, out, n);
}

/**
 * Copies `src[from, to)` into `out` at `at`; returns how many bytes. Not `Buffer#copy`: its argument checks
 * cost more than the short runs between escapes (docs/decisions.md "hot code shape", compile size).
 */
function copyRun(src: Buffer, from: number, to: number, out: Buffer, at: number): number {
  const n = to - from;
  if (n <= SHORT_RUN) for (let i = 0; i < n; i++) out[at + i] = src[from + i] as number;
  else out.set(new Uint8Array(src.buffer, src.byteOffset + from, n), at);
  return n;
}

function hex4(src: Buffer, p: number): number {
  return ((HEX[src[p] as number] as number) << 12) | ((HEX[src[p + 1] as number] as number) << 8) | ((HEX[src[p + 2] as number] as number) << 4) | (HEX[src[p + 3] as number] as number);
}
