// AssemblyScript (see scan.ts), not TypeScript.
//
// The skip of a JSON value, written once: {@link skip} holds its grammar (scan.ts's tokens, a nesting stack of
// MAX_DEPTH, a `__proto__` key declining), run four ways, each compiled from that one source
// with `kind` a constant (an @inline function, as scan.ts's scanNumber is), so no test of the kind is left at
// run time:
// - skipValue: where the value ends, no more (every unknown key of every line, a typed JSON value).
// - skipForm: with json-form.ts's JSON.stringify-form check on the way (walk.ts's CHECKED JSON nodes: rl-steps'
//   observations): what jsonForm answers for the value, the first thing in it that decides, in byte order,
//   deciding; but for a value nested deeper than jsonForm's areas, which this stack holds and so tells (jsonForm
//   leaves it to JS). Held to jsonForm by test/engines/parallel/fast/wasm-skip-form.test.ts.
// - skipAudited: with the text audit (audit.ts's rule) on the way (walk.ts's AUDITED nodes:
//   SFT's trace steps, RL's observations), each byte read once: how many strings in the value are not keys, and
//   the literals of those that may matter; or that it cannot tell (a key twice in an object, a key with an
//   escape, too many keys or flagged literals), for which the worker's audit reads the value from its column.
// - the column pass (auditJson): skipAudited over a column's JSON values, which the worker's audit reads when the
//   walk did not tell. Its strings take what JSON.parse takes: a lone surrogate's `\u` escape too, which the
//   walk refuses, so a value with one that a line's fallback stored is still told here.
//   Both are held to a JSON.parse reference by test/engines/parallel/fast/wasm-audited-skip.test.ts and
//   wasm-audit.test.ts.
// Each answers 0 where skipValue does (COLUMN: but for a lone surrogate), and ends where it ends.

import { BACKSLASH_KIND, byteMayMatter, escapeMatters, HIGH, KINDS, LOW, newKey, QUOTE_KIND, setAuditStop, textStops } from "./audit";
import { FORM, formEscapeEnd, keyForm, NOT_FORM, numberForm, UNSURE } from "./json-form";
import { BACKSLASH, COLON, COMMA, escapeEnd, hex4, isDigit, isProto, LBRACE, LBRACKET, MAX_DEPTH, QUOTE, RBRACE, sawEscape, scalarEnd, splat, stringEnd, ws } from "./scan";

const PLAIN: u32 = 0;
const FORMED: u32 = 1;
const AUDITED: u32 = 2;
const COLUMN: u32 = 3;

/** The nesting stack, one closing byte per open container. */
const STACK: usize = memory.data(MAX_DEPTH);
/** Per open container, where its keys start (FORMED: among json-form.ts's, AUDITED: among audit.ts's). */
const OBJECTS: usize = memory.data(MAX_DEPTH * 4);
let keyCount: u32 = 0;

/** The index after the JSON value starting at p (not whitespace), if it ends at or before `end`; else 0. */
export function skipValue(p: usize, end: usize): usize {
  return skip(PLAIN, p, end);
}

/** Set by {@link skipForm}: jsonForm's answer for the value it skipped (NOT_FORM, FORM or UNSURE). */
export let skippedForm: u32 = FORM;

/** skipValue(p, end), setting {@link skippedForm} on the way (see the file's head). */
export function skipForm(p: usize, end: usize): usize {
  return skip(FORMED, p, end);
}

/** {@link skippedForm}, for the module's caller. */
export function skipFormAnswer(): u32 {
  return skippedForm;
}

/** Set by {@link skipAudited}: the value's strings that are not keys, or -1 when the audit must read the value itself. */
export let auditedCount: i32 = 0;
/** Set by {@link skipAudited}: how many flagged literals {@link flaggedAt} holds. */
export let flaggedCount: u32 = 0;
/** The flagged literals of the last value: pairs of addresses [opening quote, after the closing one). */
const MAX_FLAGGED: u32 = 256;
const FLAGGED: usize = memory.data(MAX_FLAGGED * 8);

/** skipValue(p, end), auditing the value's strings on the way (see the file's head). */
export function skipAudited(p: usize, end: usize): usize {
  return skip(AUDITED, p, end);
}

/**
 * JSON values: for each whole value in [p, end) (a column's: a u32 length, then that many bytes), from `out`
 * on, three words: the number of strings in it that are not keys, the number of those that may matter, and the
 * value's address; then that many pairs of addresses, each such string's literal [opening quote, after its
 * closing quote). A value the audited skip cannot tell (see the file's head), or whose pairs would pass
 * `outEnd`, gets -1 and 0: the caller reads it with JSON.parse, as unit-text-audit.ts does. Returns the
 * address past the last word; audit.ts's auditStop says where the values taken end.
 */
export function auditJson(p: usize, end: usize, out: usize, outEnd: usize): usize {
  while (p + 4 <= end && out + 12 <= outEnd) {
    const start = p + 4;
    const last = start + <usize>load<u32>(p);
    if (last > end) break;
    store<u32>(out + 8, <u32>start);
    const told = skip(COLUMN, start, last) == last && auditedCount >= 0 && out + 12 + (<usize>flaggedCount << 3) <= outEnd;
    store<i32>(out, told ? auditedCount : -1);
    store<u32>(out + 4, told ? flaggedCount : 0);
    out += 12;
    if (told) {
      memory.copy(out, FLAGGED, <usize>flaggedCount << 3);
      out += <usize>flaggedCount << 3;
    }
    p = last;
  }
  setAuditStop(p);
  return out;
}

/** The flagged literal `k` of the last value: its opening quote's address; the next word, the address after its closing quote. */
@inline export function flaggedAt(k: u32): usize {
  return FLAGGED + (<usize>k << 3);
}

/** One loop with an explicit stack, so no line can exhaust the call stack; `kind` says what it tells on the way. */
@inline function skip(kind: u32, p: usize, end: usize): usize {
  let depth: u32 = 0;
  // AUDITED: the strings that are not keys so far, and whether the audit can still tell.
  let count: i32 = 0;
  let sure = true;
  if (kind == FORMED) skippedForm = FORM;
  if (kind >= AUDITED) flaggedCount = 0;
  if (kind != PLAIN) keyCount = 0;
  while (true) {
    let c = <u32>load<u8>(p);
    if (c == QUOTE) {
      const close = kind >= AUDITED && sure ? auditedStringEnd(p + 1, end, kind == COLUMN) : stringEnd(p + 1, end);
      if (close == 0) return 0;
      if (kind == FORMED && sawEscape && skippedForm == FORM && !escapesForm(p + 1, close)) skippedForm = NOT_FORM;
      if (kind >= AUDITED && sure) {
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
      p = space(kind, p + 1);
      if (<u32>load<u8>(p) == close) p++;
      else {
        if (depth == MAX_DEPTH) return 0;
        store<u8>(STACK + depth, <u8>close);
        if (kind != PLAIN) store<u32>(OBJECTS + (<usize>depth << 2), keyCount);
        depth++;
        if (close == RBRACE) {
          p = member(kind, p, end, depth, sure);
          if (p == 0) return 0;
          if (kind >= AUDITED && unsureKey) sure = false;
        }
        continue;
      }
    } else {
      const start = p;
      p = scalarEnd(c, p);
      if (p == 0) return 0;
      if (kind == FORMED && skippedForm == FORM && (c == 0x2d || isDigit(c)) && !numberForm(start, p)) skippedForm = UNSURE;
    }
    // After a value: close what ends here, then move on to the next value.
    while (true) {
      if (depth == 0) {
        if (kind >= AUDITED) auditedCount = sure ? count : -1;
        return p <= end ? p : 0;
      }
      p = space(kind, p);
      c = <u32>load<u8>(p);
      const top = <u32>load<u8>(STACK + depth - 1);
      if (c == COMMA) {
        p = space(kind, p + 1);
        if (top == RBRACE) {
          p = member(kind, p, end, depth, sure);
          if (p == 0) return 0;
          if (kind >= AUDITED && unsureKey) sure = false;
        }
        break;
      }
      if (c != top) return 0;
      depth--;
      if (kind != PLAIN) keyCount = load<u32>(OBJECTS + (<usize>depth << 2));
      p++;
    }
  }
}

/** Set by {@link member} (AUDITED): the audit can no longer tell (the key repeats or holds an escape, or there are too many). */
let unsureKey = false;

/**
 * After an object's key and colon (p at the key's quote; the object is open at `depth`): where the value
 * starts, or 0. FORMED checks the key as jsonForm does; AUDITED, while it is `sure`, sets {@link unsureKey}.
 */
@inline function member(kind: u32, p: usize, end: usize, depth: u32, sure: bool): usize {
  if (load<u8>(p) != QUOTE) return 0;
  const close = stringEnd(p + 1, end);
  if (close == 0 || isProto(p + 1, close)) return 0;
  if (kind == FORMED && skippedForm == FORM) {
    skippedForm = keyForm(p + 1, close, sawEscape, load<u32>(OBJECTS + (<usize>(depth - 1) << 2)), keyCount);
    if (skippedForm == FORM) keyCount++;
  }
  if (kind >= AUDITED) {
    unsureKey = sure && !newKey(p, close, sawEscape, load<u32>(OBJECTS + (<usize>(depth - 1) << 2)), keyCount);
    if (sure && !unsureKey) keyCount++;
  }
  p = space(kind, close + 1);
  if (<u32>load<u8>(p) != COLON) return 0;
  return space(kind, p + 1);
}

/** ws(p); FORMED: JSON.stringify writes no whitespace, so any is not its form. */
@inline function space(kind: u32, p: usize): usize {
  const q = ws(p);
  if (kind == FORMED && q != p && skippedForm == FORM) skippedForm = NOT_FORM;
  return q;
}

/** Whether every escape of the string content [p, close) (escapes already checked) is one JSON.stringify writes. */
function escapesForm(p: usize, close: usize): bool {
  while (p < close) {
    if (<u32>load<u8>(p) != BACKSLASH) p++;
    else {
      p = formEscapeEnd(p);
      if (p == 0) return false;
    }
  }
  return true;
}

/** Set by {@link auditedStringEnd}: the literal's text may matter. */
let flagged = false;

/**
 * stringEnd(p, end) of a string that is not a key (p: its first content byte), setting {@link flagged} as
 * audit.ts's textMayMatter would for its text (`loose`: a lone surrogate's escape taken): 16 bytes a step while none is a byte either looks at (the audit's stops hold
 * the walk's: quotes, backslashes, controls); once the literal is flagged, only the walk's.
 */
function auditedStringEnd(p: usize, end: usize, loose: bool): usize {
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
        if (next == 0 && (!loose || (next = surrogateEnd(at)) == 0)) return 0;
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
      let after = escapeEnd(i);
      if (after == 0 && (!loose || (after = surrogateEnd(i)) == 0)) return 0;
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

/** Where the escape at `at` ends if it is a `\uXXXX` (escapeEnd refused it: a lone surrogate, which JSON.parse takes); else 0. */
function surrogateEnd(at: usize): usize {
  return <u32>load<u8>(at + 1) == 0x75 && hex4(at + 2) >= 0 ? at + 6 : 0;
}
