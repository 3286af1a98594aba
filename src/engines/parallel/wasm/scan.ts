// AssemblyScript (compiled by `asc` in `npm run build`, see scripts/build-wasm.mjs), not TypeScript.
//
// The byte scans of the fast path that need no schema, over a line in this module's memory: where a JSON
// value ends (skip.ts), and the token scans the schema walk (walk.ts) is made of. An answer accepts exactly
// what `z.json()` accepts after JSON.parse but numbers that may not be finite (whose integer digits and
// exponent add up past 308): those decline, and the line goes to the slow path as any line the walk declines does.
// A value is accepted only if it ends by `end`; the caller keeps a 0 after the batch's last line, so a scan
// that reads on past a line end (a malformed line) stops there at the latest.

/** The deepest a value may nest: a skip (skip.ts) declines deeper ones. */
export const MAX_DEPTH: u32 = 512;

export const QUOTE: u32 = 0x22;
export const BACKSLASH: u32 = 0x5c;
export const COLON: u32 = 0x3a;
export const COMMA: u32 = 0x2c;
export const LBRACE: u32 = 0x7b;
export const RBRACE: u32 = 0x7d;
export const LBRACKET: u32 = 0x5b;
export const RBRACKET: u32 = 0x5d;
/** A number below 10^308 is finite: its integer digits plus its exponent may add up to this many. */
const FINITE_DIGITS: i32 = 308;
/** "__proto__", the key zod's record skips: its output would lack the member the raw text has. */
export const PROTO = memory.data<u8>([0x5f, 0x5f, 0x70, 0x72, 0x6f, 0x74, 0x6f, 0x5f, 0x5f]);

/**
 * `i8x16.splat(b)` for every byte b, read with {@link splat} into a local before a loop, so that the loop
 * keeps it in a register instead of building the constant at each use (docs/decisions.md, "The wasm module's
 * SIMD constants are loaded from memory before each loop").
 */
const SPLATS: usize = memory.data(256 * 16, 16);
for (let b: u32 = 0; b < 256; b++) v128.store(SPLATS + (<usize>b << 4), i8x16.splat(<i8>b));

/** `i8x16.splat(b)`, loaded from {@link SPLATS}: call it before a loop, not in it. */
@inline export function splat(b: u32): v128 {
  return v128.load(SPLATS + (<usize>b << 4));
}

/** The first address the caller may use: everything this module keeps lies below it. */
export function heapEnd(): usize {
  return __heap_base;
}

/**
 * JSON whitespace. A batch's line end counts too: a value is accepted only if it ends
 * by `end`, so reading on past a line end can only make a scan decline.
 */
@inline export function ws(p: usize): usize {
  while (true) {
    const c = load<u8>(p);
    if (c != 0x20 && c != 0x0a && c != 0x09 && c != 0x0d) return p;
    p++;
  }
}

@inline export function isDigit(c: u32): bool {
  return c - 0x30 < 10;
}

@inline function hexValue(c: u32): i32 {
  if (isDigit(c)) return <i32>(c - 0x30);
  const l = c | 0x20;
  return l - 0x61 < 6 ? <i32>(l - 0x61 + 10) : -1;
}

/** The value of the four hex digits at p, or -1. */
export function hex4(p: usize): i32 {
  let v = 0;
  for (let k: usize = 0; k < 4; k++) {
    const h = hexValue(load<u8>(p + k));
    if (h < 0) return -1;
    v = (v << 4) | h;
  }
  return v;
}

/** After the escape at p (a backslash): its end, or 0. Surrogates only as a high-low pair (zod's JSON refuses a lone one). */
export function escapeEnd(p: usize): usize {
  const c = <u32>load<u8>(p + 1);
  if (c == QUOTE || c == BACKSLASH || c == 0x2f || c == 0x62 || c == 0x66 || c == 0x6e || c == 0x72 || c == 0x74) return p + 2;
  if (c != 0x75) return 0;
  const v = hex4(p + 2);
  if (v < 0) return 0;
  if (v < 0xd800 || v > 0xdfff) return p + 6;
  if (v > 0xdbff || load<u8>(p + 6) != BACKSLASH || load<u8>(p + 7) != 0x75) return 0;
  const low = hex4(p + 8);
  return low >= 0xdc00 && low <= 0xdfff ? p + 12 : 0;
}

/** Set by {@link stringEnd}: the string it scanned last holds an escape. */
export let sawEscape = false;

/**
 * The closing quote of the string whose content starts at p, or 0 (a control byte, a bad escape, or no
 * quote before `end`). 16 bytes a step while none is a quote, a backslash or a control byte.
 */
export function stringEnd(p: usize, end: usize): usize {
  sawEscape = false;
  const quote = splat(QUOTE);
  const backslash = splat(BACKSLASH);
  // A byte below 0x20 is its minimum with 0x1f: two instructions, where `lt_u` takes four on x64.
  const controls = splat(0x1f);
  while (true) {
    if (p + 16 <= end) {
      const v = v128.load(p);
      const stops = i8x16.bitmask(v128.or(v128.or(i8x16.eq(v, quote), i8x16.eq(v, backslash)), i8x16.eq(i8x16.min_u(v, controls), v)));
      if (stops == 0) {
        p += 16;
        continue;
      }
      p += <usize>ctz(stops);
    } else if (p >= end) return 0;
    const c = <u32>load<u8>(p);
    if (c == QUOTE) return p;
    if (c != BACKSLASH) {
      if (c < 0x20) return 0;
      p++;
      continue;
    }
    sawEscape = true;
    p = escapeEnd(p);
    if (p == 0) return 0;
  }
}

/** Whether the key whose content is [p, close) (escapes checked) spells `__proto__`, escaped or not. */
export function isProto(p: usize, close: usize): bool {
  let k: usize = 0;
  while (p < close) {
    let c = <u32>load<u8>(p);
    if (c == BACKSLASH) {
      const e = <u32>load<u8>(p + 1);
      if (e == 0x75) {
        c = <u32>hex4(p + 2); // a surrogate or anything past ASCII: no byte of "__proto__"
        p += 6;
      } else {
        c = e == 0x62 ? 0x08 : e == 0x66 ? 0x0c : e == 0x6e ? 0x0a : e == 0x72 ? 0x0d : e == 0x74 ? 0x09 : e; // `\"`, `\\`, `\/`: themselves
        p += 2;
      }
    } else p++;
    if (k == 9 || c != <u32>load<u8>(PROTO + k)) return false;
    k++;
  }
  return k == 9;
}

/** Set by {@link scanNumber}: the number's integer digits plus its positive exponent (see FINITE_DIGITS). */
export let numberDigits: i32 = 0;
/**
 * Set by {@link scanNumber}: its digits as an integer (up to 15 of them), with the count of those after the
 * point; `numberExact` when that is the whole number (no digit dropped, no exponent).
 */
export let numberMantissa: f64 = 0;
export let numberScale: i32 = 0;
export let numberExact = false;
export let numberNegative = false;

/**
 * After the JSON number at p (exact JSON grammar), or 0; sets `numberDigits`, and with `value` the other
 * `number...` globals. The one reading of a number's grammar: the skipper keeps the ends of numbers that are
 * surely finite, the walk their values. Inlined with `value` a constant, so the skipper's copy accumulates nothing.
 */
@inline export function scanNumber(p: usize, value: bool): usize {
  let c = <u32>load<u8>(p);
  const minus = c == 0x2d;
  if (minus) c = load<u8>(++p);
  if (value) numberNegative = minus;
  let digits = 0;
  let mantissa: f64 = 0;
  let scale = 0;
  let exact = true;
  if (c == 0x30) c = load<u8>(++p);
  else if (c - 0x31 < 9) {
    do {
      digits++;
      if (value) {
        if (mantissa < 9e14) mantissa = mantissa * 10 + <f64>(c - 0x30);
        else exact = false;
      }
      c = load<u8>(++p);
    } while (isDigit(c));
  } else return 0;
  if (c == 0x2e) {
    c = load<u8>(++p);
    if (!isDigit(c)) return 0;
    do {
      if (value) {
        if (mantissa < 9e14) {
          mantissa = mantissa * 10 + <f64>(c - 0x30);
          scale++;
        } else exact = false;
      }
      c = load<u8>(++p);
    } while (isDigit(c));
  }
  if ((c | 0x20) == 0x65) {
    exact = false;
    c = load<u8>(++p);
    let negative = false;
    if (c == 0x2b || c == 0x2d) {
      negative = c == 0x2d;
      c = load<u8>(++p);
    }
    if (!isDigit(c)) return 0;
    let exponent = 0;
    do {
      if (exponent < 100000) exponent = exponent * 10 + <i32>(c - 0x30);
      c = load<u8>(++p);
    } while (isDigit(c));
    if (!negative) digits += exponent;
  }
  numberDigits = digits;
  if (value) {
    numberMantissa = mantissa;
    numberScale = scale;
    numberExact = exact;
  }
  return p;
}

/** After the JSON number at p, or 0; numbers that might not be finite decline. */
function numberEnd(p: usize): usize {
  p = scanNumber(p, false);
  return p == 0 || numberDigits > FINITE_DIGITS ? 0 : p;
}

/** After the literal or number at p, whose first byte is c, or 0. */
@inline export function scalarEnd(c: u32, p: usize): usize {
  if (c == 0x74) return load<u32>(p) == 0x65757274 ? p + 4 : 0; // "true"
  if (c == 0x66) return load<u32>(p + 1) == 0x65736c61 ? p + 5 : 0; // "alse"
  if (c == 0x6e) return load<u32>(p) == 0x6c6c756e ? p + 4 : 0; // "null"
  return numberEnd(p);
}
