import { WASM_SCAN } from "./wasm-scan.js";
import { BACKSLASH, ByteCursor, COLON, COMMA, FALSE, LBRACE, LBRACKET, NULL, PROTO, QUOTE, RBRACE, TRUE, unvouched } from "./byte-cursor.js";

/** Deepest nesting accepted inside a JSON value; deeper lines take the slow path. */
const MAX_DEPTH = 512;
/** Strings up to this many bytes are scanned inline; longer ones go to the native search of `stringEnd`. */
const SHORT = 16;

/**
 * Validates JSON values without building them: what the fast parser does for JSON-typed values (kept as raw
 * text) and for the values of unknown keys. One flat loop with an explicit stack, so no line can exhaust
 * the call stack, and with the common tokens (short strings, keys, punctuation without whitespace) handled
 * inline: this loop runs over most of a record's bytes.
 */
export class JsonSkipper extends ByteCursor {
  private readonly stack = new Uint8Array(MAX_DEPTH);

  /**
   * Skips one JSON value that `z.json()` accepts (exact JSON grammar, finite numbers, no `__proto__` key,
   * no unpaired surrogate escape), starting at `i` (not whitespace); returns the index after it.
   */
  protected skipJson(i: number): number {
    const b = this.b;
    const at = this.scanAt;
    if (at >= 0) {
      // The line lies in the scan module's memory (a worker's batch): the module skips the value there.
      const end = WASM_SCAN.exports.skipValue(at + i, at + b.length);
      if (end === 0) unvouched();
      return end - at;
    }
    const stack = this.stack;
    let depth = 0;
    for (;;) {
      let c = b[i] as number;
      if (c === QUOTE) {
        let p = i + 1;
        for (const stop = p + SHORT; ; p++) {
          const d = b[p] as number;
          if (d === QUOTE) break;
          if (d === BACKSLASH || !(d >= 0x20) || p === stop) {
            p = this.stringEnd(i + 1);
            break;
          }
        }
        i = p + 1;
      } else if (c === LBRACE || c === LBRACKET) {
        const close = c + 2; // `}` and `]` follow their openers by two code points
        c = b[++i] as number;
        if (c <= 0x20) c = b[(i = this.ws(i))] as number;
        if (c === close) i++;
        else {
          if (depth === MAX_DEPTH) unvouched();
          stack[depth++] = close;
          if (close === RBRACE) i = this.memberValue(i);
          continue;
        }
      } else if (c === 0x74) i = this.literal(i, TRUE);
      else if (c === 0x66) i = this.literal(i, FALSE);
      else if (c === 0x6e) i = this.literal(i, NULL);
      else i = this.numberEnd(i);
      // After a value: close what ends here, then move on to the next value.
      for (;;) {
        if (depth === 0) return i;
        c = b[i] as number;
        if (c <= 0x20) c = b[(i = this.ws(i))] as number;
        if (c === COMMA) {
          if ((b[++i] as number) <= 0x20) i = this.ws(i);
          if (stack[depth - 1] === RBRACE) i = this.memberValue(i);
          break;
        }
        if (c !== stack[depth - 1]) unvouched();
        depth--;
        i++;
      }
    }
  }

  /** Reads an object member's key and colon at `i`; returns where its value starts. */
  private memberValue(i: number): number {
    const b = this.b;
    if (b[i] !== QUOTE) unvouched();
    let p = i + 1;
    let escaped = false;
    for (const stop = p + SHORT; ; p++) {
      const d = b[p] as number;
      if (d === QUOTE) break;
      if (d === BACKSLASH || !(d >= 0x20) || p === stop) {
        p = this.stringEnd(i + 1);
        escaped = this.escaped;
        break;
      }
    }
    // zod's record skips `__proto__` keys, so its output would lack the member the raw text has.
    if (p - i - 1 === PROTO.length ? this.bytesAre(i + 1, PROTO) : escaped && this.decode(i, p) === "__proto__") unvouched();
    if (b[++p] !== COLON) {
      p = this.ws(p);
      if (b[p] !== COLON) unvouched();
    }
    if ((b[++p] as number) <= 0x20) p = this.ws(p);
    return p;
  }
}
