/**
 * The ways a hostile or careless server may write a secret back, and an oracle that undoes all of them
 * (written apart from src/core/decoded-view.ts, with regular expressions, so the two do not share a bug).
 */

const NAMED: Readonly<Record<string, string>> = { "&": "amp", "<": "lt", ">": "gt", '"': "quot", "'": "apos", "/": "sol", "+": "plus", "=": "equals", "_": "lowbar", "-": "hyphen", ".": "period", "~": "tilde", ":": "colon" };

const wrap = (text: string, width: number, eol: string) => text.match(new RegExp(`.{1,${width}}`, "gs"))?.join(eol) ?? text;
const everyChar = (text: string, one: (c: string) => string) => [...text].map(one).join("");
const hex2 = (c: string) => c.charCodeAt(0).toString(16).padStart(2, "0");
const hex4 = (c: string) => c.charCodeAt(0).toString(16).padStart(4, "0");

/** Encodings by name; each takes the text that holds the secret (the secret with whatever surrounds it). */
export const ENCODINGS: Readonly<Record<string, (text: string) => string>> = {
  plain: (t) => t,
  base64: (t) => Buffer.from(t).toString("base64"),
  base64url: (t) => Buffer.from(t).toString("base64url"),
  "base64 wrapped at 76, \\r\\n": (t) => wrap(Buffer.from(t).toString("base64"), 76, "\r\n"),
  "base64 wrapped at 7, \\n": (t) => wrap(Buffer.from(t).toString("base64"), 7, "\n"),
  "base64url wrapped at 1": (t) => wrap(Buffer.from(t).toString("base64url"), 1, "\n"),
  url: (t) => encodeURIComponent(t),
  "url, every character, lower case": (t) => everyChar(t, (c) => `%${hex2(c)}`),
  "url, twice": (t) => encodeURIComponent(everyChar(t, (c) => `%${hex2(c).toUpperCase()}`)),
  hex: (t) => Buffer.from(t).toString("hex"),
  "hex upper": (t) => Buffer.from(t).toString("hex").toUpperCase(),
  "json \\u": (t) => everyChar(t, (c) => `\\u${hex4(c)}`),
  "json \\u upper": (t) => everyChar(t, (c) => `\\u${hex4(c).toUpperCase()}`),
  "json \\\\u (doubly escaped)": (t) => everyChar(t, (c) => `\\\\u${hex4(c)}`),
  "json stringified twice": (t) => JSON.stringify(JSON.stringify(everyChar(t, (c) => (/[a-z]/.test(c) ? `\\u${hex4(c)}` : c)))),
  "html decimal": (t) => everyChar(t, (c) => `&#${c.charCodeAt(0)};`),
  "html hex": (t) => everyChar(t, (c) => `&#x${hex2(c).toUpperCase()};`),
  "html named": (t) => everyChar(t, (c) => (NAMED[c] === undefined ? c : `&${NAMED[c]};`)),
  "html, escaped again": (t) => everyChar(t, (c) => `&amp;#${c.charCodeAt(0)};`),
};

const NAMED_BACK: Readonly<Record<string, string>> = Object.fromEntries(Object.entries(NAMED).map(([c, n]) => [n, c]));

/** The text with the escapes (JSON at any depth, URL, HTML) undone once, twice, ... until nothing changes. */
function unescaped(text: string): string[] {
  const rounds: string[] = [];
  let t = text;
  const steps: [RegExp, (...m: string[]) => string][] = [
    [/\\+u([0-9a-fA-F]{4})/g, (_, h = "") => String.fromCharCode(parseInt(h, 16))],
    [/\\+([/"'\\])/g, (_, c = "") => c],
    [/%([0-9a-fA-F]{2})/g, (_, h = "") => String.fromCharCode(parseInt(h, 16))],
    [/&#[xX]([0-9a-fA-F]+);?/g, (_, h = "") => String.fromCharCode(parseInt(h, 16))],
    [/&#(\d+);?/g, (_, d = "") => String.fromCharCode(Number(d))],
    [/&([a-zA-Z]+);/g, (all = "", n = "") => NAMED_BACK[n] ?? all],
  ];
  // Each step's result is a reading of its own: a later step may fold a secret's own `\` or `%` away.
  for (let round = 0; round < 6; round++) {
    const before = t;
    for (const [pattern, replace] of steps) {
      const next = t.replace(pattern, replace);
      if (next !== t) rounds.push((t = next));
    }
    if (t === before) break;
  }
  return rounds;
}

/** The text and every reading of it an attacker could try. */
export function readings(text: string): string[] {
  const out = [text, text.replace(/\s+/g, "")];
  out.push(...unescaped(text).map((t) => t.replace(/\s+/g, "")));
  for (const view of out.slice(1)) {
    for (const run of view.match(/[0-9A-Fa-f]{8,}/g) ?? []) for (const at of [0, 1]) out.push(Buffer.from(run.slice(at), "hex").toString("latin1"));
    for (const run of view.match(/[A-Za-z0-9+/_-]{8,}/g) ?? []) {
      for (let at = 0; at < 4; at++) out.push(Buffer.from(run.slice(at).replace(/-/g, "+").replace(/_/g, "/"), "base64").toString("latin1"));
    }
  }
  return out;
}

/** The first piece of `secret` of `length` characters that some reading of `text` shows, or null. */
export function leakedPiece(secret: string, text: string, length: number): string | null {
  const views = readings(text);
  for (let i = 0; i + length <= secret.length; i++) {
    const piece = secret.slice(i, i + length);
    if (views.some((v) => v.includes(piece))) return piece;
  }
  return null;
}
