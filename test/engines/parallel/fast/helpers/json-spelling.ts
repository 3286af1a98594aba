/** A number written exactly as given, e.g. `1e400`, `-0`, `01` (the last one not even JSON). */
export class RawNumber {
  constructor(readonly text: string) {}
}

/** An object written with exactly these members in this order, so duplicate keys can be spelled. */
export class Members {
  constructor(readonly entries: readonly (readonly [string, unknown])[]) {}
}

/** How freely {@link spell} varies the text; each a probability per opportunity. */
export interface Spelling {
  /** Whitespace between tokens. */
  readonly space: number;
  /** A character of a string value written as an escape. */
  readonly escape: number;
  /** Whether object keys get escapes too (the fast path declines escaped keys). */
  readonly escapeKeys: boolean;
  /** A number written another way with the same value (`1.0`, `1e0`, `1.5E+2`). */
  readonly numbers: number;
}

export const PLAIN: Spelling = { space: 0, escape: 0, escapeKeys: false, numbers: 0 };
export const BENIGN: Spelling = { space: 0.2, escape: 0.05, escapeKeys: false, numbers: 0.3 };
export const WILD: Spelling = { space: 0.3, escape: 0.1, escapeKeys: true, numbers: 0.3 };

/** A small seeded PRNG, so fast-check's seed drives every random choice. */
export { seededRandom as random } from "../../../../helpers/seeded-random.js";

const SHORT: Record<string, string> = { '"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t" };
const SPACES = [" ", "\t", "\r", "\n", "  ", " \t"];

/** Legal JSON text for `value` (RawNumber aside), varied at random as `how` allows: JSON.parse gives the same value. */
export function spell(value: unknown, rnd: () => number, how: Spelling): string {
  const ws = () => (rnd() < how.space ? (SPACES[Math.floor(rnd() * SPACES.length)] as string) : "");
  const write = (v: unknown): string => {
    if (v instanceof RawNumber) return v.text;
    if (v === null || typeof v === "boolean") return String(v);
    if (typeof v === "number") return number(v, rnd, how);
    if (typeof v === "string") return string(v, rnd, how.escape);
    if (Array.isArray(v)) return `[${ws()}${v.map((x) => `${write(x)}${ws()}`).join(`,${ws()}`)}]`;
    const entries = v instanceof Members ? v.entries : Object.entries(v as Record<string, unknown>);
    const members = entries.map(([k, x]) => `${string(k, rnd, how.escapeKeys ? how.escape : 0)}${ws()}:${ws()}${write(x)}${ws()}`);
    return `{${ws()}${members.join(`,${ws()}`)}}`;
  };
  return `${ws()}${write(value)}${ws()}`;
}

function number(v: number, rnd: () => number, how: Spelling): string {
  const plain = JSON.stringify(v);
  if (rnd() >= how.numbers) return plain;
  const exp = v.toExponential();
  const options = [exp, exp.toUpperCase(), exp.replace("e+", "e")];
  if (/^-?\d+$/.test(plain)) options.push(`${plain}.0`, `${plain}.000`, `${plain}e0`, `${plain}E-0`);
  return options[Math.floor(rnd() * options.length)] as string;
}

function hex4(code: number, rnd: () => number): string {
  const h = code.toString(16).padStart(4, "0");
  return `\\u${rnd() < 0.5 ? h : h.toUpperCase()}`;
}

/** A JSON string literal; lone surrogates and control characters are always escaped, others at random. */
function string(s: string, rnd: () => number, escape: number): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const code = s.charCodeAt(i);
    const ch = s[i] as string;
    const next = s.charCodeAt(i + 1);
    const pair = code >= 0xd800 && code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff;
    if (pair) {
      out += rnd() < escape ? `${hex4(code, rnd)}${hex4(next, rnd)}` : s.slice(i, i + 2);
      i++;
    } else if (code >= 0xd800 && code <= 0xdfff) out += hex4(code, rnd);
    else if (SHORT[ch] !== undefined) out += rnd() < escape ? hex4(code, rnd) : SHORT[ch];
    else if (code < 0x20) out += hex4(code, rnd);
    else if (rnd() < escape) out += ch === "/" && rnd() < 0.5 ? "\\/" : hex4(code, rnd);
    else out += ch;
  }
  return `${out}"`;
}

/**
 * Whether a record has what the fast path declines by design even when it is valid: lone surrogates, keys it
 * cannot vouch for, and numbers of 1e308 or more (as {@link spell} writes them, integer digits and exponent
 * add up past 308, where the walk does not tell finite from infinite: src/engines/parallel/wasm/scan.ts).
 */
export function unusual(value: unknown): boolean {
  if (typeof value === "number") return Math.abs(value) >= 1e308;
  if (typeof value === "string") return /[\ud800-\udfff]/.test(value.replace(/[\ud800-\udbff][\udc00-\udfff]/g, ""));
  if (value === null || typeof value !== "object") return false;
  if (Array.isArray(value)) return value.some(unusual);
  return Object.entries(value).some(([k, v]) => /["\\\u0000-\u001f]|^\d+$|^__proto__$/.test(k) || unusual(k) || unusual(v));
}
