import { BUILT_IN_CONTROL_TOKENS, BUILT_IN_NUMBERED_TOKENS } from "./control-tokens.js";

/** A numbered token: `prefix`, 1 to `MAX_DIGITS` ASCII digits, `suffix`. */
export interface NumberedToken {
  readonly prefix: string;
  readonly suffix: string;
}

/** The digits a numbered token may have: the largest number a tokenizer gives one is 201 087 (gpt-oss). */
export const MAX_DIGITS = 6;

/** The tokens one `sanitize` policy removes: the built-in table's and a tokenizer's own. */
export interface ControlTokenSet {
  /** Exact tokens, each once. */
  readonly tokens: readonly string[];
  readonly numbered: readonly NumberedToken[];
  /** A regex source matching any of them (longest exact token first at a position). */
  readonly source: string;
  /** The code units a token can begin with: the text prefilters' table. */
  readonly firstUnits: readonly number[];
  /**
   * The length of a token that `units[0, n)` ends with, or 0: the stack scan's test, answered for the same
   * language as {@link source}.
   */
  endsWithToken(units: Uint16Array, n: number): number;
}

/**
 * The built-in control tokens (every family of `CONTROL_TOKEN_FAMILIES`) and `extra`, a tokenizer's own
 * special tokens, matched exactly as given. Callers check `extra` first (`sanitizePolicy` does).
 */
export function controlTokenSet(extra: readonly string[] = []): ControlTokenSet {
  const tokens = [...new Set([...BUILT_IN_CONTROL_TOKENS, ...extra])];
  const numbered = BUILT_IN_NUMBERED_TOKENS.map(parseNumbered);
  const byLastUnit = new Map<number, (string | NumberedToken)[]>();
  const add = (unit: number, t: string | NumberedToken): void => {
    byLastUnit.set(unit, [...(byLastUnit.get(unit) ?? []), t]);
  };
  for (const t of tokens) add(t.charCodeAt(t.length - 1), t);
  for (const t of numbered) add(t.suffix.charCodeAt(t.suffix.length - 1), t);
  const source = trieSource([...tokens.map((t) => [...t]), ...numbered.map((t) => [...t.prefix, DIGITS, ...t.suffix])]);
  const firstUnits = [...new Set([...tokens, ...numbered.map((t) => t.prefix)].map((t) => t.charCodeAt(0)))];
  return {
    tokens,
    numbered,
    source,
    firstUnits,
    endsWithToken(units, n) {
      const candidates = byLastUnit.get(units[n - 1] as number);
      if (candidates === undefined) return 0;
      for (const t of candidates) {
        const length = typeof t === "string" ? (endsWith(units, n, t) ? t.length : 0) : endsWithNumbered(units, n, t);
        if (length > 0) return length;
      }
      return 0;
    },
  };
}

function parseNumbered(template: string): NumberedToken {
  const at = template.indexOf("{N}");
  return { prefix: template.slice(0, at), suffix: template.slice(at + 3) };
}

function endsWith(units: Uint16Array, n: number, token: string): boolean {
  if (n < token.length) return false;
  const start = n - token.length;
  for (let k = 0; k < token.length; k++) if (units[start + k] !== token.charCodeAt(k)) return false;
  return true;
}

function endsWithNumbered(units: Uint16Array, n: number, t: NumberedToken): number {
  if (!endsWith(units, n, t.suffix)) return 0;
  const end = n - t.suffix.length;
  for (let d = 1; d <= MAX_DIGITS && end - d >= 0; d++) {
    const c = units[end - d] as number;
    if (c < 0x30 || c > 0x39) break;
    if (endsWith(units, end - d, t.prefix)) return t.prefix.length + d + t.suffix.length;
  }
  return 0;
}

/** A trie symbol: the number of a numbered token. */
const DIGITS = "{N}";

/**
 * The tokens (each a list of characters, {@link DIGITS} for a number) as one regex over their trie: hundreds of
 * alternatives that mostly begin `<|` would each be tried at every `<`; the trie tries each next character
 * once. A token that is a prefix of another is an optional tail, greedy, so the longer one wins, as
 * longest-first alternation does.
 */
function trieSource(tokens: readonly (readonly string[])[]): string {
  interface Node {
    end: boolean;
    next: Map<string, Node>;
  }
  const root: Node = { end: false, next: new Map() };
  for (const token of tokens) {
    let node = root;
    for (const c of token) {
      let child = node.next.get(c);
      if (child === undefined) node.next.set(c, (child = { end: false, next: new Map() }));
      node = child;
    }
    node.end = true;
  }
  const render = (node: Node): string => {
    const branches = [...node.next].map(([c, child]) => (c === DIGITS ? `[0-9]{1,${MAX_DIGITS}}` : escape(c)) + render(child));
    if (branches.length === 0) return "";
    const body = branches.length === 1 ? (branches[0] as string) : `(?:${branches.join("|")})`;
    return node.end ? `(?:${body})?` : body;
  };
  return `(?:${render(root)})`;
}

function escape(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/-]/g, "\\$&");
}
