// AssemblyScript (see scan.ts), not TypeScript.
//
// The walk's skip of a JSON value the text audit reads (walk.ts's AUDITED nodes: SFT's trace steps, RL's
// observations), with the audit's JSON pass (audit.ts's auditJson) folded in: each byte of the value is read
// once, where the walk and then the audit read it twice. It accepts exactly what scan.ts's skipValue accepts
// (the same grammar, escapes, nesting limit and `__proto__` rule), and answers what auditJson answers for the
// value: how many strings in it are not keys, and the literals of those that may matter; or that it cannot
// tell (a key twice in an object, a key with an escape, too many keys or flagged literals), for which the
// worker's audit reads the value from its column as before. The two passes must answer alike
// (test/engines/parallel/fast/wasm-audited-skip.test.ts).

import { BACKSLASH_KIND, byteMayMatter, escapeMatters, HIGH, KINDS, LOW, QUOTE_KIND, textStops } from "./audit";
import { BACKSLASH, COMMA, escapeEnd, isProto, LBRACE, LBRACKET, MAX_DEPTH, QUOTE, RBRACE, scalarEnd, splat, stringEnd, ws } from "./scan";

const STACK: usize = memory.data(MAX_DEPTH);
/** Per open object, where its keys start among KEY_START and KEY_END. */
const OBJECTS: usize = memory.data(MAX_DEPTH * 4);
const MAX_KEYS: u32 = 1024;
const KEY_START: usize = memory.data(MAX_KEYS * 4);
const KEY_END: usize = memory.data(MAX_KEYS * 4);
/** The flagged literals of the last value: pairs of addresses [opening quote, after the closing one). */
const MAX_FLAGGED: u32 = 256;
const FLAGGED: usize = memory.data(MAX_FLAGGED * 8);

/** Set by {@link skipAudited}: the value's strings that are not keys, or -1 when the audit must read the value itself. */
export let auditedCount: i32 = 0;
/** Set by {@link skipAudited}: how many flagged literals {@link flaggedAt} holds. */
export let flaggedCount: u32 = 0;
let keyCount: u32 = 0;
/** Set by {@link auditedStringEnd}: the literal's text may matter. */
let flagged = false;

/** The flagged literal `k` of the last value: its opening quote's address; the next word, the address after its closing quote. */
@inline export function flaggedAt(k: u32): usize {
  return FLAGGED + (<usize>k << 3);
}

/** skipValue(p, end), auditing the value's strings on the way (see the file's head). */
export function skipAudited(p: usize, end: usize): usize {
  let depth: u32 = 0;
  let count: i32 = 0;
  let sure = true;
  flaggedCount = 0;
  keyCount = 0;
  while (true) {
    let c = <u32>load<u8>(p);
    if (c == QUOTE) {
      const close = sure ? auditedStringEnd(p + 1, end) : stringEnd(p + 1, end);
      if (close == 0) return 0;
      if (sure) {
        count++;
        if (flagged) {
          if (flaggedCount == MAX_FLAGGED) sure = false;
          else {
            const at = flaggedAt(flaggedCount++);
            store<u32>(at, <u32>p);
            store<u32>(at + 4, <u32>(close + 1));
          }
        }
      }
      p = close + 1;
    } else if (c == LBRACE || c == LBRACKET) {
      const close = c + 2; // `}` and `]` follow their openers by two code points
      p = ws(p + 1);
      if (<u32>load<u8>(p) == close) p++;
      else {
        if (depth == MAX_DEPTH) return 0;
        store<u8>(STACK + depth, <u8>close);
        store<u32>(OBJECTS + (<usize>depth << 2), keyCount);
        depth++;
        if (close == RBRACE) {
          p = member(p, end, depth, sure);
          if (p == 0) return 0;
          if (unsureKey) sure = false;
        }
        continue;
      }
    } else {
      p = scalarEnd(c, p);
      if (p == 0) return 0;
    }
    // After a value: close what ends here, then move on to the next value.
    while (true) {
      if (depth == 0) {
        auditedCount = sure ? count : -1;
        return p <= end ? p : 0;
      }
      p = ws(p);
      c = <u32>load<u8>(p);
      const top = <u32>load<u8>(STACK + depth - 1);
      if (c == COMMA) {
        p = ws(p + 1);
        if (top == RBRACE) {
          p = member(p, end, depth, sure);
          if (p == 0) return 0;
          if (unsureKey) sure = false;
        }
        break;
      }
      if (c != top) return 0;
      depth--;
      keyCount = load<u32>(OBJECTS + (<usize>depth << 2));
      p++;
    }
  }
}

/** Set by {@link member}: the audit can no longer tell (the key repeats or holds an escape, or there are too many). */
let unsureKey = false;

/**
 * After an object's key and colon (p at the key's quote; the object is open at `depth`): where the value
 * starts, or 0 (as scan.ts's memberValue). While the audit is `sure`, checks the key (see {@link unsureKey}).
 */
function member(p: usize, end: usize, depth: u32, sure: bool): usize {
  if (load<u8>(p) != QUOTE) return 0;
  const close = stringEnd(p + 1, end);
  if (close == 0 || isProto(p + 1, close)) return 0;
  unsureKey = sure && !newKey(p, close, load<u32>(OBJECTS + (<usize>(depth - 1) << 2)));
  p = ws(close + 1);
  if (load<u8>(p) != 0x3a) return 0;
  return ws(p + 1);
}

/** Whether the key quoted at [open, close] is plainly new in its object (whose keys start at `from`); adds it. */
function newKey(open: usize, close: usize, from: u32): bool {
  if (sawEscapeKey(open, close) || keyCount == MAX_KEYS) return false;
  const length = close - open;
  for (let k = from; k < keyCount; k++) {
    const at = <usize>load<u32>(KEY_START + (<usize>k << 2));
    if (<usize>load<u32>(KEY_END + (<usize>k << 2)) - at == length && memory.compare(at, open, length) == 0) return false;
  }
  store<u32>(KEY_START + (<usize>keyCount << 2), <u32>open);
  store<u32>(KEY_END + (<usize>keyCount << 2), <u32>close);
  keyCount++;
  return true;
}

/** Whether the key literal [open, close] holds a backslash (which may spell another key). */
@inline function sawEscapeKey(open: usize, close: usize): bool {
  for (let i = open + 1; i < close; i++) if (<u32>load<u8>(i) == BACKSLASH) return true;
  return false;
}

/**
 * stringEnd(p, end) of a string that is not a key (p: its first content byte), setting {@link flagged} as
 * audit.ts's stringClose does: 16 bytes a step while none is a byte either looks at (the audit's stops hold
 * the walk's: quotes, backslashes, controls); once the literal is flagged, only the walk's.
 */
function auditedStringEnd(p: usize, end: usize): usize {
  flagged = false;
  const quote = splat(QUOTE);
  const backslash = splat(BACKSLASH);
  const controls = splat(0x1f);
  // textStops's constants, held in locals through the loop.
  const lowTable = v128.load(LOW), highTable = v128.load(HIGH), nibble = splat(0x0f), fold = splat(0x20), zero = splat(0), g = splat(0x67);
  const n = splat(0x6e), o = splat(0x6f), a = splat(0x61), r = splat(0x72), e = splat(0x65), t = splat(0x74);
  const start = p;
  let i = p;
  let next = p;
  for (; i + 16 <= end; i = max(i + 16, next)) {
    let stops = 0;
    if (flagged) {
      const v = v128.load(i);
      stops = i8x16.bitmask(v128.or(v128.or(i8x16.eq(v, quote), i8x16.eq(v, backslash)), i8x16.eq(i8x16.min_u(v, controls), v)));
    } else stops = textStops(i, lowTable, highTable, nibble, fold, zero, g, n, o, a, r, e, t);
    for (; stops != 0; stops &= stops - 1) {
      const at = i + <usize>ctz(stops);
      if (at < next) continue;
      const b = <u32>load<u8>(at);
      const kind = load<u8>(KINDS + <usize>b);
      if (kind == QUOTE_KIND) return at;
      if (kind == BACKSLASH_KIND) {
        next = escapeEnd(at);
        if (next == 0) return 0;
        if (!flagged && escapeMatters(at)) flagged = true;
      } else if (b < 0x20) return 0;
      else if (kind != 0 && !flagged && byteMayMatter(start, at, end)) flagged = true;
    }
  }
  for (i = max(i, next); i < end; ) {
    const b = <u32>load<u8>(i);
    const kind = load<u8>(KINDS + <usize>b);
    if (kind == QUOTE_KIND) return i;
    if (kind == BACKSLASH_KIND) {
      const after = escapeEnd(i);
      if (after == 0) return 0;
      if (!flagged && escapeMatters(i)) flagged = true;
      i = after;
    } else if (b < 0x20) return 0;
    else {
      if (kind != 0 && !flagged && byteMayMatter(start, i, end)) flagged = true;
      i++;
    }
  }
  return 0;
}
