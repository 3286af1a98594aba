// AssemblyScript (see scan.ts), not TypeScript.
//
// The walk's skip of a JSON value whose text a view writes as it is (walk.ts's CHECKED JSON nodes: rl-steps'
// observations), with json-form.ts's JSON.stringify-form check folded in: one pass over the value, where the
// walk skipped it and then checked it again. It accepts exactly what scan.ts's skipValue accepts (the same
// grammar, escapes, nesting limit and `__proto__` rule), and answers what jsonForm answers for the value, the
// first thing in it that decides, in byte order, deciding: but for a value nested deeper than jsonForm's
// areas, which this one's stack holds and so tells (jsonForm leaves it to JS). The two must agree
// (test/engines/parallel/fast/wasm-skip-form.test.ts).

import { FORM, formEscapeEnd, keyForm, NOT_FORM, numberForm, UNSURE } from "./json-form";
import { BACKSLASH, COLON, COMMA, isDigit, isProto, LBRACE, LBRACKET, MAX_DEPTH, QUOTE, RBRACE, sawEscape, scalarEnd, stringEnd, ws } from "./scan";

const STACK: usize = memory.data(MAX_DEPTH);
/** Per open container, where its keys start among json-form.ts's (keyForm's). */
const OBJECTS: usize = memory.data(MAX_DEPTH * 4);

/** Set by {@link skipForm}: jsonForm's answer for the value it skipped (NOT_FORM, FORM or UNSURE). */
export let skippedForm: u32 = FORM;
let keyCount: u32 = 0;

/** {@link skippedForm}, for the module's caller. */
export function skipFormAnswer(): u32 {
  return skippedForm;
}

/** skipValue(p, end), setting {@link skippedForm} on the way (see the file's head). */
export function skipForm(p: usize, end: usize): usize {
  let depth: u32 = 0;
  skippedForm = FORM;
  keyCount = 0;
  while (true) {
    let c = <u32>load<u8>(p);
    if (c == QUOTE) {
      const close = stringEnd(p + 1, end);
      if (close == 0) return 0;
      if (sawEscape && skippedForm == FORM && !escapesForm(p + 1, close)) skippedForm = NOT_FORM;
      p = close + 1;
    } else if (c == LBRACE || c == LBRACKET) {
      const close = c + 2; // `}` and `]` follow their openers by two code points
      p = gap(p + 1);
      if (<u32>load<u8>(p) == close) p++;
      else {
        if (depth == MAX_DEPTH) return 0;
        store<u8>(STACK + depth, <u8>close);
        store<u32>(OBJECTS + (<usize>depth << 2), keyCount);
        depth++;
        if (close == RBRACE) {
          p = member(p, end, depth);
          if (p == 0) return 0;
        }
        continue;
      }
    } else {
      const start = p;
      p = scalarEnd(c, p);
      if (p == 0) return 0;
      if (skippedForm == FORM && (c == 0x2d || isDigit(c)) && !numberForm(start, p)) skippedForm = UNSURE;
    }
    // After a value: close what ends here, then move on to the next value.
    while (true) {
      if (depth == 0) return p <= end ? p : 0;
      p = gap(p);
      c = <u32>load<u8>(p);
      const top = <u32>load<u8>(STACK + depth - 1);
      if (c == COMMA) {
        p = gap(p + 1);
        if (top == RBRACE) {
          p = member(p, end, depth);
          if (p == 0) return 0;
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

/** ws(p): JSON.stringify writes no whitespace, so any is not its form. */
@inline function gap(p: usize): usize {
  const q = ws(p);
  if (q != p && skippedForm == FORM) skippedForm = NOT_FORM;
  return q;
}

/**
 * After an object's key and colon (p at the key's quote; the object is open at `depth`): where the value
 * starts, or 0 (as scan.ts's memberValue), the key checked as jsonForm checks it.
 */
function member(p: usize, end: usize, depth: u32): usize {
  if (load<u8>(p) != QUOTE) return 0;
  const close = stringEnd(p + 1, end);
  if (close == 0 || isProto(p + 1, close)) return 0;
  if (skippedForm == FORM) {
    skippedForm = keyForm(p + 1, close, sawEscape, load<u32>(OBJECTS + (<usize>(depth - 1) << 2)), keyCount);
    if (skippedForm == FORM) keyCount++;
  }
  p = gap(close + 1);
  if (<u32>load<u8>(p) != COLON) return 0;
  return gap(p + 1);
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
