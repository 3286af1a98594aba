/**
 * JSON with integers beyond 2^53 kept exactly where the spec gives a field no range: `scenario.seed` (spec 4.8,
 * 4.9, 4.10). JSON.parse rounds such a literal to the nearest double, so zod's `.int()` refused it as "Too big"
 * and a seed of 2^53 + 1 could not be told from 2^53. Here it becomes a bigint, written as INT64 (Parquet) and as
 * its digits (JSONL); docs/decisions.md says why int64 and not a decimal string. Every other number parses as
 * JSON.parse parses it.
 */
const MARK = "\u0000evalshard-int:";
const MARKED = /"\\u0000evalshard-int:(-?\d+)"/g;
/** Where an exact integer is kept, as paths of object keys. */
const EXACT_PATHS = [["scenario", "seed"]] as const;
const INTEGER = /^-?(0|[1-9]\d*)$/;

/** JSON.parse, but an integer literal beyond 2^53 at an exact path becomes a bigint. */
export function parseExact(text: string): unknown {
  // The marks are strings starting with U+0000, which JSON text can only spell as an escape: with one there,
  // a mark could be the input's own text, so the line is parsed as JSON.parse parses it.
  if (!/\d{16}/.test(text) || /\\u0000/i.test(text)) return JSON.parse(text);
  let marked = "";
  let last = 0;
  for (let i = 0; i < text.length; ) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      for (i++; i < text.length && text.charCodeAt(i) !== 0x22; i += text.charCodeAt(i) === 0x5c ? 2 : 1);
      i++;
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      let end = i + 1;
      while (end < text.length && /[0-9.eE+-]/.test(text[end] as string)) end++;
      const literal = text.slice(i, end);
      if (literal.length >= 16 && INTEGER.test(literal) && !Number.isSafeInteger(Number(literal))) {
        marked += `${text.slice(last, i)}"\\u0000evalshard-int:${literal}"`;
        last = end;
      }
      i = end;
    } else i++;
  }
  if (last === 0) return JSON.parse(text);
  return unmark(JSON.parse(marked + text.slice(last)), 0, EXACT_PATHS.map(() => true));
}

/** Turns marks back: a bigint at an exact path, elsewhere the double JSON.parse would have given. */
function unmark(value: unknown, depth: number, exact: readonly boolean[]): unknown {
  if (typeof value === "string") {
    if (!value.startsWith(MARK)) return value;
    const digits = value.slice(MARK.length);
    return exact.some((e, i) => e && EXACT_PATHS[i]?.length === depth) ? BigInt(digits) : Number(digits);
  }
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = unmark(value[i], depth + 1, EXACT_PATHS.map(() => false));
    return value;
  }
  for (const key of Object.keys(value)) {
    const next = EXACT_PATHS.map((path, i) => (exact[i] ?? false) && path[depth] === key);
    const v = (value as Record<string, unknown>)[key];
    const u = unmark(v, depth + 1, next);
    // defineProperty, not assignment: a `__proto__` key is data here, never the prototype.
    if (u !== v) Object.defineProperty(value, key, { value: u, writable: true, enumerable: true, configurable: true });
  }
  return value;
}

/** JSON.stringify, with bigints written as their digits (JSON numbers). */
export function stringifyExact(value: unknown): string {
  let big = false;
  const text = JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v !== "bigint") return v;
    big = true;
    return `${MARK}${v}`;
  });
  return big ? text.replace(MARKED, "$1") : text;
}

/** The int64 range, which Parquet's INT64 holds: an exact integer outside it cannot be written. */
export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;
