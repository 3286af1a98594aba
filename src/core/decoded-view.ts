/**
 * A text with one more escape layer undone and its line breaks removed, and how to find where each of
 * its characters came from. A secret that a server echoed JSON-escaped (`\u0041`, doubly `\\u0041`),
 * percent-encoded (`%41`, `%2541`), as HTML entities (`&#65;`, `&#x41;`, `&amp;#x41;`, `&sol;`) or in
 * base64 wrapped over lines reads in some layer as it was, so a match there names the stretch to remove.
 */
export interface DecodedView {
  readonly text: string;
  /** The layer this one was decoded from (the text itself for the first). */
  readonly from: string;
  /** `from` with its escapes undone, line breaks still in. */
  readonly unescaped: string;
}

/** Escape layers undone at most: enough for `&amp;#x25;41` style nesting, bounded for hostile input. */
const MAX_LAYERS = 4;

/**
 * One escape. Backslashes: a run of them before `u` + 4 hex digits, `x` + 2, or a letter escape is
 * that character (an escape escaped again is still the character) when the run is as long as some
 * nesting depth makes it; a longer one also holds a backslash of the text (see {@link decodeOne}). A run
 * of two or more before anything else is one backslash escaped some number of times. A lone one is left as is.
 */
const ESCAPE = /\\+(?:u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|[nrtbfv/"'`])|\\{2,}|%[0-9a-fA-F]{2}|&#[xX][0-9a-fA-F]{1,6};?|&#\d{1,7};?|&[a-zA-Z]{1,18};/g;
/** A line break with the indentation around it: base64 wrapped at any width, with \n or \r\n, indented or not. */
const BREAK = /[ \t]*[\r\n]+[ \t]*/g;
/** Cheap tests first: most texts hold no escape and no line break, and a test costs a fraction of a replace. */
const HAS_ESCAPE = /[\\%&]/;
const HAS_BREAK = /[\r\n]/;

/** Named HTML entities of the visible ASCII characters (the ones a token can hold). */
const NAMED: Readonly<Record<string, string>> = {
  excl: "!", quot: '"', QUOT: '"', num: "#", dollar: "$", percnt: "%", amp: "&", AMP: "&", apos: "'", lpar: "(", rpar: ")", ast: "*", midast: "*",
  plus: "+", comma: ",", hyphen: "-", dash: "-", period: ".", sol: "/", colon: ":", semi: ";", lt: "<", LT: "<", equals: "=", gt: ">", GT: ">",
  quest: "?", commat: "@", lsqb: "[", lbrack: "[", bsol: "\\", rsqb: "]", rbrack: "]", Hat: "^", lowbar: "_", UnderBar: "_", grave: "`",
  DiacriticalGrave: "`", lcub: "{", lbrace: "{", verbar: "|", vert: "|", VerticalLine: "|", rcub: "}", rbrace: "}", tilde: "~", DiacriticalTilde: "~",
};

/** JSON and C escapes of one letter. */
const LETTER: Readonly<Record<string, string>> = { n: "\n", r: "\r", t: "\t", b: "\b", f: "\f", v: "\v", "/": "/", '"': '"', "'": "'", "`": "`" };

/**
 * The layers of `text`: one, two, ... escape layers undone (line breaks dropped from the first on), up
 * to the one where nothing more decodes. Each layer is scanned on its own: undoing one more may fold
 * what was a secret's own `\` or `%` into an escape of the text around it.
 */
export function decodedViews(text: string): DecodedView[] {
  const views: DecodedView[] = [];
  let from = text;
  for (let layer = 0; layer < MAX_LAYERS; layer++) {
    const unescaped = HAS_ESCAPE.test(from) ? from.replace(ESCAPE, decodeOne) : from;
    const next = HAS_BREAK.test(unescaped) ? unescaped.replace(BREAK, "") : unescaped;
    if (next === from) break;
    views.push({ text: next, from, unescaped });
    from = next;
  }
  return views;
}

/** `text` with every escape layer undone and line breaks dropped (itself when nothing decodes). */
export function decodedText(text: string): string {
  return decodedViews(text).at(-1)?.text ?? text;
}

/**
 * For each character of `view.text`, the stretch of `view.from` it came from: `starts[i]` to `ends[i]`
 * (exclusive). Worked out only for a view that holds a match, so the common case pays for one replace.
 */
export function sourceSpans(view: DecodedView): { starts: Int32Array; ends: Int32Array } {
  const spaced = spansOf(view.from, view.unescaped, ESCAPE, decodeOne);
  const bare = spansOf(view.unescaped, view.text, BREAK, () => "");
  return { starts: bare.starts.map((at) => spaced.starts[at] as number), ends: bare.ends.map((at) => spaced.ends[at - 1] as number) };
}

/** Where each character of `to` (`from` with each match of `pattern` replaced by `decode` of it) came from in `from`. */
function spansOf(from: string, to: string, pattern: RegExp, decode: (match: string) => string): { starts: Int32Array; ends: Int32Array } {
  const starts = new Int32Array(to.length);
  const ends = new Int32Array(to.length);
  const matches = new RegExp(pattern.source, "g");
  let out = 0;
  let at = 0;
  const literal = (until: number) => {
    for (; at < until; at++, out++) {
      starts[out] = at;
      ends[out] = at + 1;
    }
  };
  for (let m = matches.exec(from); m !== null; m = matches.exec(from)) {
    literal(m.index);
    const decoded = decode(m[0]);
    if (decoded === m[0]) {
      literal(m.index + m[0].length);
      continue;
    }
    for (let k = 0; k < decoded.length; k++, out++) {
      starts[out] = m.index;
      ends[out] = m.index + m[0].length;
    }
    at = m.index + m[0].length;
  }
  literal(from.length);
  return { starts, ends };
}

/** The characters a string encoder escapes as themselves, so each nesting adds their backslashes again. */
const QUOTES = "\"'/`";

/**
 * What `run` backslashes before an escaped `char` read as. Nesting doubles a letter escape's backslashes
 * (`\n`, `\\n`) and makes a quote's 2^d - 1 (`\"`, `\\\"`); a run of another length also escapes a
 * backslash of the text, as in `\\\\\"` (a string ending in `\` stringified twice), which reads as `\` and
 * the character, so a secret that ends in `\` still shows in the next layer.
 */
function nested(run: number, char: string, quote: boolean): string {
  const depthful = quote ? (run + 1) & run : run & (run - 1);
  return depthful === 0 ? char : `\\${char}`;
}

/** What one match of {@link ESCAPE} reads as; itself when it is no escape after all. */
function decodeOne(match: string): string {
  const c = match.charCodeAt(0);
  let decoded: string | undefined;
  if (c === 92) {
    const last = match[match.length - 1] as string;
    const u = match.lastIndexOf("u");
    const x = match.lastIndexOf("x");
    if (last === "\\") decoded = "\\";
    else if (u > 0 && u === match.length - 5) decoded = nested(u, String.fromCharCode(parseInt(match.slice(u + 1), 16)), false);
    else if (x > 0 && x === match.length - 3) decoded = nested(x, String.fromCharCode(parseInt(match.slice(x + 1), 16)), false);
    else if (LETTER[last] !== undefined) decoded = nested(match.length - 1, LETTER[last], QUOTES.includes(last));
  } else if (c === 37) {
    decoded = String.fromCharCode(parseInt(match.slice(1), 16));
  } else if (c === 38) {
    const hex = match[2] === "x" || match[2] === "X";
    const code = match[1] === "#" ? parseInt(match.slice(hex ? 3 : 2), hex ? 16 : 10) : -1;
    decoded = match[1] !== "#" ? NAMED[match.slice(1, -1)] : code <= 0xffff ? String.fromCharCode(code) : undefined;
  }
  // A line break an escape stands for (base64 wrapped with `\n` escapes in a JSON string) goes with BREAK.
  return decoded ?? match;
}
