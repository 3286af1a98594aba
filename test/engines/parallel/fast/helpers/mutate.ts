import { Members, RawNumber } from "./json-spelling.js";

type Json = unknown;
type Slot = { readonly parent: Record<string, Json> | Json[]; readonly key: string | number };

/** Values a mutation puts somewhere: other types, edge numbers, nested junk, enum words in the wrong place. */
const VALUES: readonly (() => Json)[] = [
  () => null,
  () => 0,
  () => -1,
  () => 1.5,
  () => -0,
  () => 2 ** 53,
  () => "x",
  () => "",
  () => true,
  () => false,
  () => [],
  () => ({}),
  () => [1, "a", null, { b: [] }],
  () => ({ a: { b: [null, 1e-7, "c"] }, "": 0 }),
  () => "per_seat_trace",
  () => "action",
  () => "1.1",
];

/** Numbers spelled at the edge of JSON grammar and of zod's acceptance. */
export const RAW_NUMBERS = [
  "1.0", "1e2", "1E+2", "-0", "-0.0", "0e5", "1e400", "-1e400", "1e-400", "9007199254740993", "9007199254740991",
  "-9007199254740992", "123456789012345678901234567890", "0.1e1", "2.50", "01", "-01", "1.", ".5", "+1", "1e", "1e+",
  "0x10", "NaN", "Infinity", "-", "--1", "1.5e3.2", "0.30000000000000004", "5e-324", "1.7976931348623157e308", "1.8e308",
];

const KEYS = ["x_new", "__proto__", "12", "0", "4294967295", "01", "", "error", "format_version", "rl_format_version", "dpo_format_version", "constructor", 'a"b', "back\\slash", "ünï", "nul\u0000", "run_id", "kind", "index"];

export const UNICODE = ["naïve café", "日本語テキスト", "emoji 😀 🎉", "\u2028\u2029", "tab\there", "nul\u0000", "lone \ud800", "low \udc00 x", "pair \ud83d\ude00", 'quote " back \\ slash /', "\u007f\u0080\u00ff", "", "\ufeffbom", "\ud83d"];

const pick = <T>(xs: readonly T[], rnd: () => number): T => xs[Math.floor(rnd() * xs.length)] as T;

function slots(value: Json, out: Slot[] = []): Slot[] {
  if (value === null || typeof value !== "object" || value instanceof RawNumber || value instanceof Members) return out;
  if (Array.isArray(value)) {
    value.forEach((v, i) => {
      out.push({ parent: value, key: i });
      slots(v, out);
    });
  } else {
    for (const [k, v] of Object.entries(value)) {
      out.push({ parent: value as Record<string, Json>, key: k });
      slots(v, out);
    }
  }
  return out;
}

function objects(value: Json): Record<string, Json>[] {
  const all = [value, ...slots(value).map((s) => (s.parent as Record<string | number, Json>)[s.key])];
  return all.filter((v): v is Record<string, Json> => v !== null && typeof v === "object" && !Array.isArray(v) && !(v instanceof RawNumber) && !(v instanceof Members));
}

function set(slot: Slot, v: Json): void {
  (slot.parent as Record<string | number, Json>)[slot.key] = v;
}

/** One random change to a record (in place; returns the possibly replaced root). */
const MUTATIONS: readonly ((root: Record<string, Json>, rnd: () => number) => void)[] = [
  // null, or a value of another type, somewhere
  (root, rnd) => {
    const s = slots(root);
    if (s.length > 0) set(pick(s, rnd), pick(VALUES, rnd)());
  },
  // a field removed
  (root, rnd) => {
    const s = slots(root).filter((x) => !Array.isArray(x.parent));
    if (s.length > 0) {
      const slot = pick(s, rnd);
      delete (slot.parent as Record<string, Json>)[slot.key as string];
    }
  },
  // an unknown (or forbidden, or array-index, or __proto__) key with a nested value
  (root, rnd) => {
    const o = pick(objects(root), rnd);
    Object.defineProperty(o, pick(KEYS, rnd), { value: pick(VALUES, rnd)(), enumerable: true, configurable: true, writable: true });
  },
  // an edge number anywhere
  (root, rnd) => {
    const s = slots(root);
    if (s.length > 0) set(pick(s, rnd), new RawNumber(pick(RAW_NUMBERS, rnd)));
  },
  // an edge number where a number is
  (root, rnd) => {
    const s = slots(root).filter((x) => typeof (x.parent as Record<string | number, Json>)[x.key] === "number");
    if (s.length > 0) set(pick(s, rnd), new RawNumber(pick(RAW_NUMBERS, rnd)));
  },
  // a duplicate key, with the same or another value
  (root, rnd) => {
    const slot = pick(slots(root).filter((x) => objects(root).includes((x.parent as Record<string | number, Json>)[x.key] as Record<string, Json>)), rnd);
    const target = slot === undefined ? root : ((slot.parent as Record<string | number, Json>)[slot.key] as Record<string, Json>);
    const entries = Object.entries(target);
    if (entries.length === 0) return;
    const [k, v] = pick(entries, rnd);
    const dup = [...entries, [k, rnd() < 0.5 ? v : pick(VALUES, rnd)()] as const];
    if (rnd() < 0.5) dup.reverse();
    if (slot === undefined) {
      for (const key of Object.keys(root)) delete root[key];
      root["__members__"] = new Members(dup);
    } else set(slot, new Members(dup));
  },
  // unicode, escapes-to-be and surrogates in a string
  (root, rnd) => {
    const s = slots(root).filter((x) => typeof (x.parent as Record<string | number, Json>)[x.key] === "string");
    if (s.length > 0) set(pick(s, rnd), pick(UNICODE, rnd));
  },
];

/** Applies one to three random mutations to a deep copy of `record`. */
export function mutate(record: object, rnd: () => number): Json {
  const root = structuredClone(record) as Record<string, Json>;
  const n = 1 + Math.floor(rnd() * 3);
  for (let k = 0; k < n; k++) pick(MUTATIONS, rnd)(root, rnd);
  // A root replaced by members (a duplicate key at the top) is spelled as those members.
  const members = root["__members__"];
  return members instanceof Members ? members : root;
}

/** Damage to the text itself: truncation, a raw control character, a deleted or inserted character. */
export function damage(line: string, rnd: () => number): string {
  const at = Math.floor(rnd() * (line.length + 1));
  switch (Math.floor(rnd() * 4)) {
    case 0:
      return line.slice(0, at);
    case 1:
      return `${line.slice(0, at)}${String.fromCharCode(Math.floor(rnd() * 0x20))}${line.slice(at)}`;
    case 2:
      return `${line.slice(0, at)}${line.slice(at + 1)}`;
    default:
      return `${line.slice(0, at)}${pick(['"', "\\", "{", "}", "[", "]", ",", ":", "0", "-", "e", ".", " ", "u"], rnd)}${line.slice(at)}`;
  }
}
