import { Buffer } from "node:buffer";
import { WASM_SCAN } from "./wasm-scan.js";

/** `bs` when a line has no backslash after the scan point: greater than any index in a line. */
const NO_BACKSLASH = 0x7fffffff;

/** Node's Buffer has this since forever; it is what `toString("utf8", start, end)` ends up calling. */
interface Utf8Slicer {
  utf8Slice(start: number, end: number): string;
}

/** Thrown (as a bare symbol, so no stack is captured) when the fast path cannot vouch for a line. */
export const UNVOUCHED: unique symbol = Symbol("unvouched");

export function unvouched(): never {
  throw UNVOUCHED;
}

export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const COMMA = 0x2c;
export const COLON = 0x3a;
export const LBRACE = 0x7b;
export const RBRACE = 0x7d;
export const LBRACKET = 0x5b;
export const RBRACKET = 0x5d;

const MINUS = 0x2d;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;
const LOWER_E = 0x65;
const UPPER_E = 0x45;
const PLUS = 0x2b;

export const TRUE = Uint8Array.from(Buffer.from("true"));
export const FALSE = Uint8Array.from(Buffer.from("false"));
export const NULL = Uint8Array.from(Buffer.from("null"));
export const PROTO = Uint8Array.from(Buffer.from("__proto__"));

/** Integer parts longer than this may overflow to Infinity, which zod rejects: such numbers are checked. */
const SAFE_INT_DIGITS = 300;
const POW10 = Array.from({ length: 23 }, (_, k) => 10 ** k);

/** After a backslash: the characters of a two-character escape. */
const SIMPLE_ESCAPE = new Uint8Array(256);
for (const c of '"\\/bfnrt') SIMPLE_ESCAPE[c.charCodeAt(0)] = 1;
export const HEX = new Int8Array(256).fill(-1);
for (let d = 0; d < 16; d++) HEX[d.toString(16).charCodeAt(0)] = HEX[d.toString(16).toUpperCase().charCodeAt(0)] = d;

/**
 * The JSON token layer of the fast parser, over one line held in `b` (a Buffer of exactly the line, so a
 * read past its end gives `undefined`, which no token test accepts). Every method either returns the
 * index after what it read or throws {@link UNVOUCHED}; JSON grammar is checked exactly as `JSON.parse`
 * does, plus what zod's `z.json()` adds (finite numbers, no `__proto__` keys) and what the slow path
 * quarantines (escaped surrogates).
 *
 * Byte reads are cast to `number`: past the end they are `undefined`, and every comparison below is
 * written so that `undefined` fails it (`!(c >= 0x20)` rather than `c < 0x20`).
 */
export class ByteCursor {
  protected b: Buffer = Buffer.alloc(0);
  /** Set by {@link stringEnd}: the string just scanned holds escapes. */
  protected escaped = false;
  /** Set by {@link readNumber}: the index after the number. */
  protected at = 0;
  /** The line has no byte below 0x20. */
  protected clean = false;
  /** Index of the next backslash at or after the last string searched; the line length when there is none. */
  private bs = -1;
  /**
   * The line's address in the wasm scan module's memory (a worker's batch), whose scans it then uses; -1 when
   * it lies elsewhere. Found once a line: a typed array's `.buffer` is slow to read (docs/decisions.md
   * "hot code shape", typed arrays).
   */
  protected scanAt = -1;

  /** The index of the first non-whitespace byte at or after `i`. */
  protected ws(i: number): number {
    const b = this.b;
    for (;;) {
      const c = b[i];
      if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return i;
      i++;
    }
  }

  /**
   * Starts on a line. `clean` says it holds no byte below 0x20 (see hasControlByte), so strings need no
   * per-byte control check and their ends can be found with native `indexOf`.
   */
  protected begin(line: Buffer, clean: boolean): void {
    this.b = line;
    this.clean = clean;
    this.bs = -1;
    this.scanAt = line.buffer === WASM_SCAN.buffer ? line.byteOffset : -1;
  }

  /**
   * {@link stringEnd}, with strings of up to 16 bytes (keys, enums, short values) scanned right here:
   * they end sooner than a native search returns.
   */
  protected quoteEnd(i: number): number {
    const b = this.b;
    for (let p = i, stop = i + 16; p < stop; p++) {
      const c = b[p] as number;
      if (c === QUOTE) {
        this.escaped = false;
        return p;
      }
      if (c === BACKSLASH || !(c >= 0x20)) break;
    }
    return this.stringEnd(i);
  }

  /**
   * Scans the string whose content starts at `i`; returns the index of its closing quote and sets
   * {@link escaped}. On a clean line it jumps with native searches; callers scan short strings inline first.
   */
  protected stringEnd(i: number): number {
    if (!this.clean) return this.scanString(i);
    const b = this.b;
    let escaped = false;
    let q = -1;
    for (;;) {
      if (q < i) {
        q = b.indexOf(QUOTE, i);
        if (q < 0) unvouched();
      }
      if (this.bs < i) {
        // The line's next backslash, remembered across strings: most strings have none before their end.
        // None left: past any quote. A constant, not `b.length`: docs/decisions.md "hot code shape", cold paths.
        const s = b.indexOf(BACKSLASH, i);
        this.bs = s < 0 ? NO_BACKSLASH : s;
      }
      if (this.bs > q) break;
      i = this.escapeEnd(this.bs);
      escaped = true;
    }
    this.escaped = escaped;
    return q;
  }

  /** {@link stringEnd} byte by byte, checking escapes and control characters. */
  private scanString(i: number): number {
    const b = this.b;
    let escaped = false;
    for (;;) {
      const c = b[i] as number;
      if (c === QUOTE) break;
      if (c === BACKSLASH) {
        i = this.escapeEnd(i);
        escaped = true;
      } else if (!(c >= 0x20)) unvouched(); // a raw control character, or the end of the line
      else i++;
    }
    this.escaped = escaped;
    return i;
  }

  /** Checks the escape at `p` (a backslash); returns the index after it. */
  private escapeEnd(p: number): number {
    const b = this.b;
    const c = b[p + 1] as number;
    if (SIMPLE_ESCAPE[c] === 1) return p + 2;
    if (c !== 0x75) unvouched();
    const v = this.hex4(p + 2);
    if (v < 0xd800 || v > 0xdfff) return p + 6;
    // A surrogate escape is fine only as a high-low pair; the slow path quarantines unpaired ones.
    if (v > 0xdbff || b[p + 6] !== BACKSLASH || b[p + 7] !== 0x75) unvouched();
    const low = this.hex4(p + 8);
    if (low < 0xdc00 || low > 0xdfff) unvouched();
    return p + 12;
  }

  /** The value of four hex digits at `p`. */
  protected hex4(p: number): number {
    const b = this.b;
    let v = 0;
    for (let k = p; k < p + 4; k++) {
      const h = HEX[b[k] as number] ?? -1;
      if (h < 0) unvouched();
      v = (v << 4) | h;
    }
    return v;
  }

  /** Reads a number in exact JSON grammar, with `JSON.parse`'s value (-0 included); sets {@link at}. */
  protected readNumber(i: number): number {
    const b = this.b;
    let p = i;
    let c = b[p] as number;
    const negative = c === MINUS;
    if (negative) c = b[++p] as number;
    let mantissa = 0;
    let scale = 0;
    let exact = true;
    if (c === ZERO) c = b[++p] as number;
    else if (c > ZERO && c <= NINE) {
      do {
        if (mantissa < 9e14) mantissa = mantissa * 10 + (c - ZERO);
        else exact = false;
        c = b[++p] as number;
      } while (c >= ZERO && c <= NINE);
    } else unvouched();
    if (c === DOT) {
      c = b[++p] as number;
      if (!(c >= ZERO && c <= NINE)) unvouched();
      do {
        if (mantissa < 9e14) {
          mantissa = mantissa * 10 + (c - ZERO);
          scale++;
        } else exact = false;
        c = b[++p] as number;
      } while (c >= ZERO && c <= NINE);
    }
    if (c === LOWER_E || c === UPPER_E) {
      exact = false;
      p = this.exponentEnd(p + 1);
    }
    this.at = p;
    // Both operands are exact doubles (mantissa < 2^53, 10^scale for scale <= 22), so the one rounding
    // of the division is the correctly rounded result JSON.parse gives. Anything else asks `Number`.
    if (exact && scale <= 22) return negative ? -(mantissa / POW10[scale]!) : mantissa / POW10[scale]!;
    return Number(this.b.toString("latin1", i, p));
  }

  private exponentEnd(p: number): number {
    const b = this.b;
    let c = b[p] as number;
    if (c === PLUS || c === MINUS) c = b[++p] as number;
    if (!(c >= ZERO && c <= NINE)) unvouched();
    do c = b[++p] as number;
    while (c >= ZERO && c <= NINE);
    return p;
  }

  /** Skips a number in exact JSON grammar that zod's `z.number()` accepts (finite); returns the index after it. */
  protected numberEnd(i: number): number {
    const b = this.b;
    let p = i;
    let c = b[p] as number;
    if (c === MINUS) c = b[++p] as number;
    let long = false;
    if (c === ZERO) c = b[++p] as number;
    else if (c > ZERO && c <= NINE) {
      const first = p;
      do c = b[++p] as number;
      while (c >= ZERO && c <= NINE);
      long = p - first > SAFE_INT_DIGITS;
    } else unvouched();
    if (c === DOT) {
      c = b[++p] as number;
      if (!(c >= ZERO && c <= NINE)) unvouched();
      do c = b[++p] as number;
      while (c >= ZERO && c <= NINE);
    }
    if (c === LOWER_E || c === UPPER_E) {
      p = this.exponentEnd(p + 1);
      long = true;
    }
    if (long && !Number.isFinite(Number(this.b.toString("latin1", i, p)))) unvouched();
    return p;
  }

  /** Expects the bytes of `word` at `i`. */
  protected literal(i: number, word: Uint8Array): number {
    const b = this.b;
    for (let k = 0; k < word.length; k++) if (b[i + k] !== word[k]) unvouched();
    return i + word.length;
  }

  /** Whether the bytes at `i` are `word`. */
  protected bytesAre(i: number, word: Uint8Array): boolean {
    const b = this.b;
    for (let k = 0; k < word.length; k++) if (b[i + k] !== word[k]) return false;
    return true;
  }

  /** The string whose quotes are at `open` and `close`, escapes decoded. */
  protected decode(open: number, close: number): string {
    return JSON.parse(this.utf8(open, close + 1)) as string;
  }

  /** Bytes `[start, end)` as text; for string content without escapes. */
  protected utf8(start: number, end: number): string {
    // Buffer's own slice method: toString's argument handling costs more than decoding a short string.
    return (this.b as unknown as Utf8Slicer).utf8Slice(start, end);
  }
}
