// AssemblyScript (see scan.ts), not TypeScript.
//
// The schema walk, the one implementation of the record schema's byte-level check (issue 33): a line in
// this module's memory (a worker's batch, or a line copied into the spare line), along the schema as a table
// that src/engines/parallel/fast/walk-table.ts lays out here from the format's zod schema. A walk validates the
// whole line first and writes nothing into columns: it leaves a tape of what to write (and what the skeleton
// holds), which fast/line-parser.ts replays into the leaf writers once the line is vouched for. It may decline
// what zod accepts (the slow path, zod itself, then takes the line), never accept what zod refuses: numbers it
// cannot convert exactly go on the tape as text, for the replay to convert and check.

import { textMayMatter } from "./audit";
import { jsonForm } from "./json-form";
import { BACKSLASH, COLON, COMMA, hex4, isDigit, LBRACE, LBRACKET, numberExact, numberMantissa, numberNegative, numberScale, PROTO, QUOTE, RBRACE, RBRACKET, sawEscape, scanNumber, stringEnd, ws } from "./scan";
import { auditedCount, flaggedAt, flaggedCount, skipAudited, skipForm, skippedForm, skipValue } from "./skip";

// A node of the table: NODE_BYTES bytes at its address (see walk-table.ts, which writes them).
const NODE_BYTES: usize = 80;
const KIND = 0;
const FLAGS = 4;
const DEF = 8;
const REP = 12;
const FIELDS = 16; // address of the first field record
const FIELD_COUNT = 20;
const ITEM = 24; // address of the item node, or 0
const REQUIRED = 28;
const FIELD_MASK = 32;
const CHOICES = 36; // address of the first (address, length) record
const CHOICE_COUNT = 40;
const FORBIDDEN = 44;
const FORBIDDEN_COUNT = 48;
const ID = 52;
const MIN = 64;
const MAX = 72;

// Field records: 16 bytes.
const FIELD_BYTES: usize = 16;
const KEY = 0;
const KEY_LENGTH = 4;
const NODE = 8;
const BIT = 12; // the field's bit index, with DROPPED

const DROPPED: u32 = 1 << 8;

// Kinds, as fast/schema-node.ts.
const STRING = 0;
const CHOICE = 1;
const NUMBER = 2;
const BOOLEAN = 3;
const STRUCT = 4;
const LIST = 5;
const MAP = 6;

// Node flags, as walk-table.ts writes them.
const NULLABLE: u32 = 1;
const INT: u32 = 2;
const MIN_INCLUSIVE: u32 = 4;
const MAX_INCLUSIVE: u32 = 8;
const WRITTEN: u32 = 16;
const REDACT: u32 = 32;
const PRUNE_IF_EMPTY: u32 = 64;
const VALUES_DROPPED: u32 = 128;
const SKELETON: u32 = 256;
/** Check the value's bytes (walk-table.ts says for whom): the answer goes in the op's `def` (OP_STR, OP_JSON below). */
const CHECKED: u32 = 512;
/**
 * The text audit reads the value (written as it is): a JSON value (any JSON) is skipped with the audit's pass
 * folded in (skip.ts's skipAudited); a string's text is checked as CHECKED checks it.
 */
const AUDITED: u32 = 1024;
const EMITS: u32 = WRITTEN | SKELETON;

// Tape ops: 16 bytes each, a word `op | rep << 8 | def << 16`, the node's id, then two words or a double.
const OP_STR: u32 = 1; // string bytes [a, b), escapes decoded; CHECKED or AUDITED: `def` 1 when audit.ts's byte pass clears the text, 2 when it may matter
const OP_CHOICE: u32 = 2; // choice number `def`, spelled by bytes [a, b) (escapes decoded)
const OP_NUM: u32 = 3; // the double at +8
const OP_NUM_TEXT: u32 = 4; // a number's text [a, b), for the replay to convert and check
const OP_BOOL: u32 = 5;
const OP_NULL: u32 = 6;
const OP_JSON: u32 = 7; // raw JSON text [a, b); CHECKED: `def` 1 + json-form.ts's answer (1 not in JSON.stringify's form, 2 in it, 3 JS must tell; skip.ts's skipForm for any JSON)
const OP_MISSING: u32 = 8; // every leaf below the node misses at `def`
const OP_MAP_KEY: u32 = 9; // key bytes [a, b)
const OP_OPEN: u32 = 10; // a skeleton struct, list or map begins
const OP_CLOSE: u32 = 11;
/** AUDITED: after its OP_JSON (whose `def` is then 1 + its count of strings that are not keys, 0 when the audit must read it), a literal [a, b) of it that may matter. */
const OP_FLAGGED: u32 = 12;
/** The most strings an AUDITED value's `def` can count. */
const MAX_AUDITED: i32 = 0xfffe;

const SAFE_INTEGER: f64 = 9007199254740991;
const POW10 = memory.data<f64>([1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22]);

// The areas the caller set aside (walkAreas), and the state of one walk.
let keysBase: usize = 0;
let keysEnd: usize = 0;
let scratchBase: usize = 0;
let scratchEnd: usize = 0;
let tapeBase: usize = 0;
let tapeEnd: usize = 0;
let lineEnd: usize = 0;
let tapeAt: usize = 0;
let scratchAt: usize = 0;
let keyTop: usize = 0;
/** An area ran out: the line is declined (the slow path takes it). */
let full = false;
/** The struct or map walked last is one strip deletes: a drop rule left it without keys (`pruneIfEmpty`, fast/apply-policy.ts). */
let pruned = false;

/** Where a walk keeps map keys (for the duplicate check), decoded strings and its tape. */
export function walkAreas(keys: usize, keysLength: usize, scratch: usize, scratchLength: usize, tape: usize, tapeLength: usize): void {
  keysBase = keys;
  keysEnd = keys + keysLength;
  scratchBase = scratch;
  scratchEnd = scratch + scratchLength;
  tapeBase = tape;
  tapeEnd = tape + tapeLength;
}

/**
 * Walks the line [p, end) along the table's root node: the number of ops on the tape when the line is
 * vouched for, else -1.
 */
export function walk(root: usize, p: usize, end: usize): i32 {
  lineEnd = end;
  tapeAt = tapeBase;
  scratchAt = scratchBase;
  keyTop = keysBase;
  full = false;
  p = ws(p);
  if (<u32>load<u8>(p) != LBRACE) return -1;
  p = struct(root, p, 0);
  if (p == 0) return -1;
  while (p < end && isSpace(<u32>load<u8>(p))) p++;
  if (p != end || full) return -1;
  return <i32>((tapeAt - tapeBase) >> 4);
}

@inline function isSpace(c: u32): bool {
  return c == 0x20 || c == 0x0a || c == 0x09 || c == 0x0d;
}

function emit(op: u32, rep: i32, def: i32, node: usize, a: usize, b: usize): void {
  const at = tapeAt;
  if (at + 16 > tapeEnd) {
    full = true;
    return;
  }
  store<u32>(at, op | (<u32>rep << 8) | (<u32>def << 16));
  store<i32>(at, load<i32>(node, ID), 4);
  store<u32>(at, <u32>a, 8);
  store<u32>(at, <u32>b, 12);
  tapeAt = at + 16;
}

function emitNumber(rep: i32, node: usize, v: f64): void {
  const at = tapeAt;
  if (at + 16 > tapeEnd) {
    full = true;
    return;
  }
  store<u32>(at, OP_NUM | (<u32>rep << 8));
  store<i32>(at, load<i32>(node, ID), 4);
  store<f64>(at, v, 8);
  tapeAt = at + 16;
}

/** The value at p (not whitespace) along `node`: the address after it, or 0. */
function value(node: usize, p: usize, rep: i32): usize {
  const c = <u32>load<u8>(p);
  const flags = load<u32>(node, FLAGS);
  if (c == 0x6e) {
    if ((flags & NULLABLE) == 0 || load<u32>(p) != 0x6c6c756e) return 0; // "null"
    if ((flags & EMITS) != 0) emit(OP_NULL, rep, 0, node, 0, 0);
    pruned = false;
    return p + 4;
  }
  switch (load<i32>(node, KIND)) {
    case STRING:
      return string(node, flags, p, rep);
    case CHOICE:
      return choice(node, flags, p, rep);
    case NUMBER:
      return number(node, flags, p, rep);
    case BOOLEAN: {
      let v: usize = 1;
      if (c == 0x74) {
        if (load<u32>(p) != 0x65757274) return 0; // "true"
        p += 4;
      } else if (c == 0x66) {
        if (load<u32>(p + 1) != 0x65736c61) return 0; // "alse"
        p += 5;
        v = 0;
      } else return 0;
      if ((flags & EMITS) != 0) emit(OP_BOOL, rep, 0, node, v, 0);
      return p;
    }
    case STRUCT:
      return c == LBRACE ? struct(node, p, rep) : 0;
    case LIST:
      return c == LBRACKET ? list(node, flags, p, rep) : 0;
    case MAP:
      return c == LBRACE ? map(node, flags, p, rep) : 0;
    default:
      return json(node, flags, p, rep);
  }
}

function string(node: usize, flags: u32, p: usize, rep: i32): usize {
  if (<u32>load<u8>(p) != QUOTE) return 0;
  const q = stringEnd(p + 1, lineEnd);
  if (q == 0) return 0;
  if ((flags & EMITS) != 0) {
    if (sawEscape) {
      const start = scratchAt;
      const end = unescape(p + 1, q);
      if (end != 0) emit(OP_STR, rep, textCheck(flags, start, end), node, start, end);
    } else emit(OP_STR, rep, textCheck(flags, p + 1, q), node, p + 1, q);
  }
  return q + 1;
}

function choice(node: usize, flags: u32, p: usize, rep: i32): usize {
  if (<u32>load<u8>(p) != QUOTE) return 0;
  const q = stringEnd(p + 1, lineEnd);
  if (q == 0) return 0;
  let start = p + 1;
  let end = q;
  if (sawEscape) {
    start = scratchAt;
    end = unescape(p + 1, q);
    if (end == 0) return 0;
  }
  const length = end - start;
  const count = load<i32>(node, CHOICE_COUNT);
  let record = load<usize>(node, CHOICES);
  let k = -1;
  for (let j = 0; j < count; j++, record += 8) {
    if (load<usize>(record, 4) == length && same(load<usize>(record), start, length)) {
      k = j;
      break;
    }
  }
  if (k < 0) return 0;
  // The bytes for the column (written as they are, like a string's), the number for the skeleton's value.
  if ((flags & EMITS) != 0) emit(OP_CHOICE, rep, k, node, start, end);
  return q + 1;
}

/** A number as JSON.parse reads it (exact JSON grammar), with zod's checks when its value is exact here. */
function number(node: usize, flags: u32, p: usize, rep: i32): usize {
  const end = scanNumber(p, true);
  if (end == 0) return 0;
  const scale = numberScale;
  if (!numberExact || scale > 22) {
    // Checked and converted by the replay, as JSON.parse would round it; always on the tape, for the check.
    emit(OP_NUM_TEXT, rep, 0, node, p, end);
    return end;
  }
  // Both operands are exact doubles, so the one rounding of the division is JSON.parse's.
  let v = numberMantissa / load<f64>(POW10 + (<usize>scale << 3));
  if (numberNegative) v = -v;
  if ((flags & INT) != 0 && !(Math.floor(v) == v && Math.abs(v) <= SAFE_INTEGER)) return 0;
  const min = load<f64>(node, MIN);
  const max = load<f64>(node, MAX);
  if (v < min || (v == min && (flags & MIN_INCLUSIVE) == 0) || v > max || (v == max && (flags & MAX_INCLUSIVE) == 0)) return 0;
  if ((flags & EMITS) != 0) emitNumber(rep, node, v);
  return end;
}

/** A JSON-typed value: validated (by its item node, or as any JSON), kept as its raw text. */
function json(node: usize, flags: u32, p: usize, rep: i32): usize {
  if ((flags & AUDITED) != 0) return audited(node, p, rep);
  const item = load<usize>(node, ITEM);
  const checked = (flags & CHECKED) != 0;
  if (item == 0 && checked) {
    // Any JSON, its form told on the way.
    const end = skipForm(p, lineEnd);
    if (end == 0) return 0;
    if ((flags & EMITS) != 0) emit(OP_JSON, rep, <i32>skippedForm + 1, node, p, end);
    return end;
  }
  const end = item == 0 ? skipValue(p, lineEnd) : value(item, p, 0);
  if (end == 0) return 0;
  if ((flags & EMITS) != 0) emit(OP_JSON, rep, checked ? <i32>jsonForm(p, end) + 1 : 0, node, p, end);
  return end;
}

/** An AUDITED JSON value: validated as any JSON, its text's audit answer on the tape with it. */
function audited(node: usize, p: usize, rep: i32): usize {
  const end = skipAudited(p, lineEnd);
  if (end == 0) return 0;
  const count = auditedCount;
  if (count < 0 || count > MAX_AUDITED) {
    emit(OP_JSON, rep, 0, node, p, end);
    return end;
  }
  emit(OP_JSON, rep, count + 1, node, p, end);
  for (let k: u32 = 0; k < flaggedCount; k++) {
    const at = flaggedAt(k);
    emit(OP_FLAGGED, rep, 0, node, <usize>load<u32>(at), <usize>load<u32>(at + 4));
  }
  return end;
}

/** A CHECKED or AUDITED string's text [start, end) (its UTF-8, escapes decoded): 1 when the byte pass clears it, 2 when it may matter; 0 unchecked. */
@inline function textCheck(flags: u32, start: usize, end: usize): i32 {
  return (flags & (CHECKED | AUDITED)) == 0 ? 0 : textMayMatter(start, end) ? 2 : 1;
}

function struct(node: usize, p: usize, rep: i32): usize {
  const flags = load<u32>(node, FLAGS);
  const fields = load<usize>(node, FIELDS);
  const n = load<i32>(node, FIELD_COUNT);
  let seen: u32 = 0;
  // Present fields strip deletes: dropped by the policy, or structs and maps it empties.
  let gone: u32 = 0;
  let hint = 0;
  if ((flags & SKELETON) != 0) emit(OP_OPEN, rep, 0, node, 0, 0);
  p = ws(p + 1);
  if (<u32>load<u8>(p) == RBRACE) p++;
  else {
    while (true) {
      if (<u32>load<u8>(p) != QUOTE) return 0;
      const start = p + 1;
      const end = keyEnd(start);
      if (end == 0) return 0;
      const length = end - start;
      // Keys mostly come in schema order: the expected one first.
      let k = -1;
      for (let j = 0, h = hint; j < n; j++) {
        const f = fields + <usize>h * FIELD_BYTES;
        if (load<usize>(f, KEY_LENGTH) == length && same(load<usize>(f, KEY), start, length)) {
          k = h;
          break;
        }
        h = h + 1 == n ? 0 : h + 1;
      }
      p = ws(end + 1);
      if (<u32>load<u8>(p) != COLON) return 0;
      p = ws(p + 1);
      if (k < 0) {
        let key = load<usize>(node, FORBIDDEN);
        for (let j = load<i32>(node, FORBIDDEN_COUNT); j > 0; j--, key += 8) {
          if (load<usize>(key, 4) == length && same(load<usize>(key), start, length)) return 0;
        }
        p = skipValue(p, lineEnd);
        if (p == 0) return 0;
      } else {
        const f = fields + <usize>k * FIELD_BYTES;
        const bits = load<u32>(f, BIT);
        const bit: u32 = 1 << (bits & 31);
        // JSON.parse keeps the last of duplicate keys; zod would then see a value this walk did not.
        if ((seen & bit) != 0) return 0;
        seen |= bit;
        hint = k + 1 == n ? 0 : k + 1;
        const child = load<usize>(f, NODE);
        p = value(child, p, rep);
        if (p == 0) return 0;
        if ((bits & DROPPED) != 0 || ((load<u32>(child, FLAGS) & PRUNE_IF_EMPTY) != 0 && pruned)) gone |= bit;
      }
      p = ws(p);
      const c = <u32>load<u8>(p);
      if (c == COMMA) p = ws(p + 1);
      else if (c == RBRACE) break;
      else return 0;
    }
    p++;
  }
  const required = load<u32>(node, REQUIRED);
  if ((seen & required) != required) return 0;
  if ((flags & SKELETON) != 0) emit(OP_CLOSE, rep, 0, node, 0, 0);
  if ((flags & PRUNE_IF_EMPTY) != 0 && (seen & ~gone) == 0) {
    // Nothing below was written (every present field was dropped or pruned): the parent writes it as absent.
    pruned = true;
    return p;
  }
  pruned = false;
  const absent = (load<u32>(node, FIELD_MASK) & ~seen) | gone;
  if (absent != 0 && (flags & WRITTEN) != 0) {
    for (let j = 0; j < n; j++) {
      const f = fields + <usize>j * FIELD_BYTES;
      const child = load<usize>(f, NODE);
      if ((absent & (1 << (load<u32>(f, BIT) & 31))) != 0 && (load<u32>(child, FLAGS) & WRITTEN) != 0) {
        emit(OP_MISSING, rep, load<i32>(child, DEF) - 1, child, 0, 0);
      }
    }
  }
  return p;
}

/** The closing quote of a key whose content starts at p, or 0: keys with escapes could spell a declared key. */
function keyEnd(p: usize): usize {
  while (true) {
    const c = <u32>load<u8>(p);
    if (c == QUOTE) return p;
    if (c == BACKSLASH || c < 0x20) return 0;
    p++;
  }
}

function list(node: usize, flags: u32, p: usize, rep: i32): usize {
  const item = load<usize>(node, ITEM);
  if ((flags & SKELETON) != 0) emit(OP_OPEN, rep, 0, node, 0, 0);
  p = ws(p + 1);
  if (<u32>load<u8>(p) == RBRACKET) {
    if ((flags & WRITTEN) != 0) emit(OP_MISSING, rep, load<i32>(node, DEF), node, 0, 0);
    if ((flags & SKELETON) != 0) emit(OP_CLOSE, rep, 0, node, 0, 0);
    return p + 1;
  }
  const itemRep = load<i32>(node, REP);
  for (let r = rep; ; r = itemRep) {
    p = value(item, p, r);
    if (p == 0) return 0;
    p = ws(p);
    const c = <u32>load<u8>(p);
    if (c == COMMA) p = ws(p + 1);
    else if (c == RBRACKET) break;
    else return 0;
  }
  if ((flags & SKELETON) != 0) emit(OP_CLOSE, rep, 0, node, 0, 0);
  return p + 1;
}

function map(node: usize, flags: u32, p: usize, rep: i32): usize {
  const item = load<usize>(node, ITEM);
  // Keys are written where values are (unless a drop rule takes every value), and named in the skeleton.
  const keys = ((flags & WRITTEN) != 0 && (flags & VALUES_DROPPED) == 0) || (flags & SKELETON) != 0;
  const base = keyTop;
  let count = 0;
  if ((flags & SKELETON) != 0) emit(OP_OPEN, rep, 0, node, 0, 0);
  p = ws(p + 1);
  if (<u32>load<u8>(p) == RBRACE) p++;
  else {
    const itemRep = load<i32>(node, REP);
    for (let r = rep; ; r = itemRep) {
      if (<u32>load<u8>(p) != QUOTE) return 0;
      const start = p + 1;
      const end = keyEnd(start);
      if (end == 0 || !mapKey(start, end, base)) return 0;
      p = ws(end + 1);
      if (<u32>load<u8>(p) != COLON) return 0;
      p = ws(p + 1);
      if (keys) emit(OP_MAP_KEY, r, 0, node, start, end);
      p = value(item, p, r);
      if (p == 0) return 0;
      count++;
      p = ws(p);
      const c = <u32>load<u8>(p);
      if (c == COMMA) p = ws(p + 1);
      else if (c == RBRACE) break;
      else return 0;
    }
    p++;
  }
  keyTop = base;
  if ((flags & SKELETON) != 0) emit(OP_CLOSE, rep, 0, node, 0, 0);
  if (count == 0 || (flags & VALUES_DROPPED) != 0) {
    if ((flags & PRUNE_IF_EMPTY) != 0) {
      pruned = true;
      return p;
    }
    if ((flags & WRITTEN) != 0) emit(OP_MISSING, rep, load<i32>(node, DEF), node, 0, 0);
  }
  pruned = false;
  return p;
}

/**
 * Refuses map keys whose entry order or presence would differ after JSON.parse and zod: duplicates (the
 * last wins), array indexes (JavaScript lists them first) and `__proto__` (zod skips it). Records the key.
 */
function mapKey(start: usize, end: usize, base: usize): bool {
  const length = end - start;
  if (length == 9 && same(PROTO, start, 9)) return false;
  let digits = length > 0;
  for (let p = start; p < end && digits; p++) digits = isDigit(<u32>load<u8>(p));
  if (digits) return false;
  for (let k = base; k < keyTop; k += 8) {
    const s = load<usize>(k);
    if (load<usize>(k, 4) - s == length && same(s, start, length)) return false;
  }
  if (keyTop + 8 > keysEnd) {
    full = true;
    return false;
  }
  store<usize>(keyTop, start);
  store<usize>(keyTop, end, 4);
  keyTop += 8;
  return true;
}

/** Whether `length` bytes at a and at b are the same. */
function same(a: usize, b: usize, length: usize): bool {
  for (let k: usize = 0; k < length; k++) if (load<u8>(a + k) != load<u8>(b + k)) return false;
  return true;
}

/**
 * Decodes the string content [p, end) (escapes already checked: surrogates only in pairs) as UTF-8 into the
 * scratch area; returns the end of what it wrote and moves the scratch pointer there, or 0 when the area is full.
 */
function unescape(p: usize, end: usize): usize {
  let out = scratchAt;
  if (out + (end - p) > scratchEnd) {
    full = true;
    return 0;
  }
  while (p < end) {
    let c = <u32>load<u8>(p);
    if (c != BACKSLASH) {
      store<u8>(out++, <u8>c);
      p++;
      continue;
    }
    c = <u32>load<u8>(p + 1);
    if (c != 0x75) {
      store<u8>(out++, <u8>(c == 0x62 ? 0x08 : c == 0x66 ? 0x0c : c == 0x6e ? 0x0a : c == 0x72 ? 0x0d : c == 0x74 ? 0x09 : c));
      p += 2;
      continue;
    }
    let v = <u32>hex4(p + 2);
    p += 6;
    if (v >= 0xd800 && v <= 0xdbff) {
      v = 0x10000 + ((v - 0xd800) << 10) + (<u32>hex4(p + 2) - 0xdc00);
      p += 6;
    }
    if (v < 0x80) store<u8>(out++, <u8>v);
    else if (v < 0x800) {
      store<u8>(out++, <u8>(0xc0 | (v >> 6)));
      store<u8>(out++, <u8>(0x80 | (v & 0x3f)));
    } else if (v < 0x10000) {
      store<u8>(out++, <u8>(0xe0 | (v >> 12)));
      store<u8>(out++, <u8>(0x80 | ((v >> 6) & 0x3f)));
      store<u8>(out++, <u8>(0x80 | (v & 0x3f)));
    } else {
      store<u8>(out++, <u8>(0xf0 | (v >> 18)));
      store<u8>(out++, <u8>(0x80 | ((v >> 12) & 0x3f)));
      store<u8>(out++, <u8>(0x80 | ((v >> 6) & 0x3f)));
      store<u8>(out++, <u8>(0x80 | (v & 0x3f)));
    }
  }
  scratchAt = out;
  return out;
}
