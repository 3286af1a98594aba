// AssemblyScript, not TypeScript (u8, usize, v128): a spike, not part of the build (README.md beside it).
// Validates the JSON grammar of each NDJSON line in linear memory, without a schema and without writing
// anything: the same job as src/fast/json-skipper.ts run over whole lines. Strings are scanned 16 bytes at a
// time (SIMD) for a quote, a backslash or a control byte. Unlike the JS skipper it does not refuse unpaired
// surrogate escapes, non-finite numbers or `__proto__` keys; a product version would decline those lines.
// Memory: the nesting stack at STACK, the batch at DATA (copied in by the caller), a 0 sentinel after it.
const QUOTE: u8 = 0x22;
const BS: u8 = 0x5c;
const LBRACE: u8 = 0x7b;
const RBRACE: u8 = 0x7d;
const LBRACKET: u8 = 0x5b;
const RBRACKET: u8 = 0x5d;
const COMMA: u8 = 0x2c;
const COLON: u8 = 0x3a;

const STACK: usize = 1024; // nesting stack lives at [STACK, STACK+512)
const DATA: usize = 65536;

export function dataBase(): usize {
  return DATA;
}

@inline function isWs(c: u32): bool {
  return c == 0x20 || c == 0x09 || c == 0x0d;
}

@inline function ws(p: usize): usize {
  while (isWs(load<u8>(p))) p++;
  return p;
}

/** Index of the closing quote of a string whose content starts at p, or 0 on error. */
function stringEnd(p: usize, end: usize): usize {
  const quote = i8x16.splat(0x22);
  const bs = i8x16.splat(0x5c);
  const ctl = i8x16.splat(0x20);
  while (true) {
    if (p + 16 <= end) {
      const v = v128.load(p);
      const m = i8x16.bitmask(v128.or(v128.or(i8x16.eq(v, quote), i8x16.eq(v, bs)), i8x16.lt_u(v, ctl)));
      if (m == 0) {
        p += 16;
        continue;
      }
      p += <usize>ctz(m);
    } else if (p >= end) return 0;
    const c = load<u8>(p);
    if (c == QUOTE) return p;
    if (c == BS) {
      const e = load<u8>(p + 1);
      if (e == 0x75) {
        for (let k: usize = 2; k < 6; k++) {
          const h = load<u8>(p + k);
          if (!((h >= 0x30 && h <= 0x39) || ((h | 0x20) >= 0x61 && (h | 0x20) <= 0x66))) return 0;
        }
        p += 6;
      } else if (e == 0x22 || e == 0x5c || e == 0x2f || e == 0x62 || e == 0x66 || e == 0x6e || e == 0x72 || e == 0x74) p += 2;
      else return 0;
      continue;
    }
    if (c < 0x20) return 0;
    p++;
  }
}

@inline function isDigit(c: u32): bool {
  return c - 0x30 < 10;
}

/** Index after a JSON number starting at p, or 0. */
function numberEnd(p: usize): usize {
  let c = <u32>load<u8>(p);
  if (c == 0x2d) c = load<u8>(++p);
  if (c == 0x30) c = load<u8>(++p);
  else if (isDigit(c)) {
    do c = load<u8>(++p);
    while (isDigit(c));
  } else return 0;
  if (c == 0x2e) {
    c = load<u8>(++p);
    if (!isDigit(c)) return 0;
    do c = load<u8>(++p);
    while (isDigit(c));
  }
  if ((c | 0x20) == 0x65) {
    c = load<u8>(++p);
    if (c == 0x2b || c == 0x2d) c = load<u8>(++p);
    if (!isDigit(c)) return 0;
    do c = load<u8>(++p);
    while (isDigit(c));
  }
  return p;
}

/** Past an object member's key and colon (p at the key's opening quote): its value's index, or 0. */
@inline function memberValue(p: usize, end: usize): usize {
  if (load<u8>(p) != QUOTE) return 0;
  p = stringEnd(p + 1, end);
  if (p == 0) return 0;
  p = ws(p + 1);
  if (load<u8>(p) != COLON) return 0;
  return ws(p + 1);
}

/** Index after one JSON value starting at p (not whitespace), or 0. */
function skipValue(p: usize, end: usize): usize {
  let depth: usize = 0;
  while (true) {
    let c = load<u8>(p);
    if (c == QUOTE) {
      p = stringEnd(p + 1, end);
      if (p == 0) return 0;
      p++;
    } else if (c == LBRACE || c == LBRACKET) {
      const close = c + 2;
      p = ws(p + 1);
      c = load<u8>(p);
      if (c == close) p++;
      else {
        if (depth == 512) return 0;
        store<u8>(STACK + depth++, close);
        if (close == RBRACE) {
          p = memberValue(p, end);
          if (p == 0) return 0;
        }
        continue;
      }
    } else if (c == 0x74) {
      if (load<u32>(p) != 0x65757274) return 0;
      p += 4;
    } else if (c == 0x66) {
      if (load<u32>(p + 1) != 0x65736c61) return 0;
      p += 5;
    } else if (c == 0x6e) {
      if (load<u32>(p) != 0x6c6c756e) return 0;
      p += 4;
    } else {
      p = numberEnd(p);
      if (p == 0) return 0;
    }
    while (true) {
      if (depth == 0) return p;
      p = ws(p);
      c = load<u8>(p);
      const top = load<u8>(STACK + depth - 1);
      if (c == COMMA) {
        p = ws(p + 1);
        if (top == RBRACE) {
          p = memberValue(p, end);
          if (p == 0) return 0;
        }
        break;
      }
      if (c != top) return 0;
      p++;
      depth--;
    }
  }
}

/** Validates each line of [DATA, DATA+len); returns the number of valid lines. */
export function skipLines(len: usize): i32 {
  const end = DATA + len;
  store<u8>(end, 0); // a sentinel so scans stop
  let p = DATA;
  let ok = 0;
  while (p < end) {
    let e = p;
    // find the newline with SIMD
    const nl = i8x16.splat(0x0a);
    while (e + 16 <= end) {
      const m = i8x16.bitmask(i8x16.eq(v128.load(e), nl));
      if (m != 0) {
        e += <usize>ctz(m);
        break;
      }
      e += 16;
    }
    while (e < end && load<u8>(e) != 0x0a) e++;
    const q = ws(p);
    const r = skipValue(q, e);
    if (r != 0 && ws(r) == e) ok++;
    p = e + 1;
  }
  return ok;
}
