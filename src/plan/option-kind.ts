import type { z } from "zod";
import { ConfigError } from "../core/errors.js";
import type { LineSource } from "../sources/line-source.js";
import { byteSize, pathPolicy, wholeNumber as wholeNumberText } from "./parse-text.js";
import { isRecord } from "../core/is-record.js";

/** zod's namespace, handed in by whoever has loaded it: this module must not load zod (docs/plan-options.md). */
export type Zod = typeof z;

/**
 * The type of one option and its constraint, stated once: what a library value must be, how a CLI flag's
 * text becomes one, its zod type in a pipeline file, and how a value reads in help. A new kind of value is
 * one function here; a new option of an existing kind is one entry in `options.ts`.
 */
export interface OptionKind<T> {
  /** What a valid value is, as messages say it: "a whole number from 1 and up". */
  readonly expected: string;
  /** Whether a value (from a library call or a pipeline file) is valid. */
  accepts(value: unknown): value is T;
  /** The CLI flag's text as a value, or a ConfigError naming the flag; null: a switch without a value. */
  readonly fromText: ((flag: string) => (text: string, previous?: T) => T) | null;
  /** The value's zod type in a pipeline file; `accepts` is checked on top of it. */
  zod(z: Zod): z.ZodType<T>;
  /** A value as help shows it: `512MiB`, not `536870912`. */
  show(value: T): string;
  /** The only values there are, listed in help and checked by commander. */
  readonly choices?: readonly string[];
  /** A message of its own for a bad value, instead of `Expected <name> to be <expected>, got <value>`. */
  readonly message?: (name: string, value: unknown) => string;
}

/** A value as messages quote it. */
export function shown(value: unknown): string {
  return typeof value === "number" ? String(value) : JSON.stringify(value) ?? String(value);
}

/** A whole number from 1 (or `min`) up, to `max` where given. */
export function wholeNumber({ min = 1, max }: { min?: 0 | 1; max?: number } = {}): OptionKind<number> {
  return {
    expected: max === undefined ? `a whole number from ${min} and up` : `a whole number from ${min} to ${max}`,
    accepts: (v): v is number => Number.isSafeInteger(v) && (v as number) >= min && (max === undefined || (v as number) <= max),
    fromText: (flag) => wholeNumberText(flag, min, max),
    zod: (z) => z.number(),
    show: String,
  };
}

const BINARY_UNITS: readonly [number, string][] = [
  [1024 ** 3, "GiB"],
  [1024 ** 2, "MiB"],
  [1024, "KiB"],
];

/** A size in bytes: `512MiB` on the command line, a whole number in library calls and pipeline files. */
export function bytes(): OptionKind<number> {
  const whole = wholeNumber();
  return {
    ...whole,
    fromText: byteSize,
    show: (n) => {
      const unit = BINARY_UNITS.find(([size]) => n % size === 0);
      return unit === undefined ? String(n) : `${n / unit[0]}${unit[1]}`;
    },
  };
}

/** A ratio from 0 to 1, e.g. `--max-quarantined 0.05`. */
export function ratio(): OptionKind<number> {
  return numberKind("a ratio from 0 to 1", (n) => n >= 0 && n <= 1);
}

/** Numbers `within` takes; a flag's text is read as `Number` reads it. */
function numberKind(expected: string, within: (n: number) => boolean): OptionKind<number> {
  const accepts = (v: unknown): v is number => typeof v === "number" && within(v);
  return {
    expected,
    accepts,
    fromText: (flag) => (text) => {
      const n = Number(text);
      if (text.trim() === "" || !accepts(n)) throw new ConfigError(`Expected ${flag} to be ${expected}, got ${JSON.stringify(text)}`);
      return n;
    },
    zod: (z) => z.number(),
    show: String,
  };
}

export function choice<const V extends readonly [string, ...string[]]>(values: V): OptionKind<V[number]> {
  return {
    expected: `one of ${values.join(", ")}`,
    accepts: (v): v is V[number] => typeof v === "string" && values.includes(v),
    fromText: null, // commander checks `choices` and lists them in help
    // A string checked by `accepts`, so a pipeline file's bad value is named as the library's and the CLI's are.
    zod: (z) => z.string() as unknown as z.ZodType<V[number]>,
    show: String,
    choices: values,
  };
}

/** A switch: present or not on the command line. */
export function flag(): OptionKind<boolean> {
  return { expected: "true or false", accepts: (v): v is boolean => typeof v === "boolean", fromText: null, zod: (z) => z.boolean(), show: String };
}

/** A non-empty string, optionally of a pattern. */
export function text(expected = "a non-empty string", pattern?: RegExp): OptionKind<string> {
  return {
    expected,
    accepts: (v): v is string => typeof v === "string" && v !== "" && (pattern === undefined || pattern.test(v)),
    fromText: () => (t) => t,
    zod: (z) => z.string(),
    show: String,
  };
}

export function url(): OptionKind<string> {
  return {
    ...text("a URL"),
    accepts: (v): v is string => typeof v === "string" && URL.canParse(v),
  };
}

/**
 * `k/N`: this job's share of N parallel jobs; `auto` or `auto/N`: k (and N) from the scheduler's environment
 * when the job starts. In a pipeline file "" (an unset `${VAR:-}`) means none.
 */
export function partition(): OptionKind<string | undefined> {
  const valid = (v: unknown): v is string => {
    if (v === "auto") return true;
    const m = typeof v === "string" ? /^(\d+|auto)\/(\d+)$/.exec(v) : null;
    return m !== null && Number(m[2]) >= 1 && (m[1] === "auto" || Number(m[1]) < Number(m[2]));
  };
  return {
    expected: 'a partition "k/N" with k below N, e.g. "0/4", or "auto" or "auto/N" (k, and N, from the scheduler)',
    accepts: (v): v is string | undefined => v === undefined || valid(v),
    fromText: () => (t) => t,
    zod: (z) => z.string().transform((s) => (s === "" ? undefined : s)) as unknown as z.ZodType<string | undefined>,
    show: String,
  };
}

/** A split name: a letter, then letters, digits and "_" (dot-separated parts), as Hugging Face split names are. */
const SPLIT_NAME = /^[A-Za-z]\w*(\.\w+)*$/;

/**
 * Named fractions that sum to 1, in the order given (`--split train=0.9,validation=0.05,test=0.05`; an object
 * in library calls and pipeline files). The order matters: it lays the fractions out along [0, 1).
 */
export function fractions(): OptionKind<Readonly<Record<string, number>>> {
  const problem = (v: unknown): string | null => {
    if (!isRecord(v)) return "not an object of name -> fraction";
    const entries = Object.entries(v);
    if (entries.length === 0) return "no split named";
    const badName = entries.find(([name]) => !SPLIT_NAME.test(name));
    if (badName !== undefined) return `split name ${JSON.stringify(badName[0])} is not a letter followed by letters, digits and "_"`;
    const badShare = entries.find(([, f]) => typeof f !== "number" || !(f > 0 && f <= 1));
    if (badShare !== undefined) return `the fraction of ${JSON.stringify(badShare[0])} is ${shown(badShare[1])}, not above 0 and at most 1`;
    const sum = entries.reduce((n, [, f]) => n + (f as number), 0);
    return Math.abs(sum - 1) > 1e-9 ? `the fractions sum to ${sum}, not 1` : null;
  };
  return {
    expected: "split names with fractions that sum to 1, e.g. train=0.9,validation=0.05,test=0.05",
    accepts: (v): v is Readonly<Record<string, number>> => problem(v) === null,
    fromText: (flag) => (text) => {
      const out: Record<string, number> = {};
      for (const part of text.split(",")) {
        const m = /^\s*([^=\s]+)\s*=\s*([^=\s]+)\s*$/.exec(part);
        if (m === null || !SPLIT_NAME.test(m[1] as string) || Object.hasOwn(out, m[1] as string) || Number.isNaN(Number(m[2]))) {
          throw new ConfigError(`Expected ${flag} to be NAME=FRACTION pairs, each name a letter followed by letters, digits and "_", once (e.g. train=0.9,validation=0.05,test=0.05), got ${JSON.stringify(text)}`);
        }
        out[m[1] as string] = Number(m[2]);
      }
      const why = problem(out);
      if (why !== null) throw new ConfigError(`Expected ${flag} to be split names with fractions that sum to 1: ${why}, in ${JSON.stringify(text)}`);
      return out;
    },
    zod: (z) => z.record(z.string(), z.number()),
    show: (v) => Object.entries(v).map(([name, f]) => `${name}=${f}`).join(","),
    message: (name, value) => `Expected ${name} to be split names with fractions that sum to 1: ${problem(value) ?? "invalid"}, got ${shown(value)}`,
  };
}

/** `path -> action` for untrusted paths; repeatable `--untrusted PATH=ACTION` on the command line. */
export function pathPolicies(actions: readonly [string, ...string[]]): OptionKind<Readonly<Record<string, string>>> {
  return {
    expected: `an object of path -> ${actions.join(", ")}`,
    accepts: (v): v is Readonly<Record<string, string>> =>
      isRecord(v) && Object.values(v).every((a) => typeof a === "string" && actions.includes(a)),
    fromText: () => pathPolicy,
    zod: (z) => z.record(z.string(), z.string()),
    show: (v) => JSON.stringify(v),
    message: (name, value) => {
      const bad = value !== null && typeof value === "object" ? Object.entries(value).find(([, a]) => !actions.includes(a as string)) : undefined;
      return bad === undefined
        ? `Expected ${name} to be an object of path -> ${actions.join(", ")}, got ${shown(value)}`
        : `Unknown untrusted policy ${JSON.stringify(bad[1])} for ${JSON.stringify(bad[0])}: expected ${actions.slice(0, -1).join(", ")} or ${actions.at(-1)}`;
    },
  };
}

/** Rules that are on unless switched off: `--no-<prefix>-<rule>` each on the command line. */
export function switches<const R extends readonly string[]>(rules: R, prefix: string): OptionKind<Partial<Record<R[number], boolean>>> & { readonly rules: R; readonly prefix: string } {
  return {
    expected: `an object of ${rules.join(", ")} -> true or false`,
    accepts: (v): v is Partial<Record<R[number], boolean>> =>
      isRecord(v) && Object.entries(v).every(([k, b]) => rules.includes(k) && typeof b === "boolean"),
    fromText: null,
    zod: (z) => z.partialRecord(z.enum(rules as unknown as [string, ...string[]]), z.boolean()) as unknown as z.ZodType<Partial<Record<R[number], boolean>>>,
    show: (v) => JSON.stringify(v),
    rules,
    prefix,
  };
}

/** Paths (files or directories), repeatable on the command line: `--context a b --context c`. */
export function pathList(): OptionKind<readonly string[]> {
  return { ...textList("a non-empty list of paths"), zod: (z) => z.array(z.string().min(1)) };
}

/** Export files, directories, "-" for stdin or, in library calls, ready sources. */
export function inputs(): OptionKind<readonly (string | LineSource)[]> {
  return {
    expected: "a non-empty list of paths",
    accepts: (v): v is readonly (string | LineSource)[] =>
      Array.isArray(v) && v.length > 0 && v.every((i) => (typeof i === "string" && i !== "") || (i !== null && typeof i === "object")),
    fromText: null, // a variadic argument
    zod: (z) => z.array(z.string().min(1)),
    show: (v) => v.join(" "),
    message: (name, value) =>
      Array.isArray(value) && value.length === 0 ? "No inputs: name at least one file, directory or - for stdin" : `Expected ${name} to be a non-empty list of paths, got ${shown(value)}`,
  };
}

/** A library-only value the plan passes on unchecked (e.g. a stream). */
export function opaque<T>(expected: string): OptionKind<T> {
  return {
    expected,
    accepts: (v): v is T => v !== null && typeof v === "object",
    fromText: null,
    zod: (z) => z.custom<T>(),
    show: () => expected,
  };
}

/** Any finite number, e.g. a score threshold (`--min-composite 3.5`). */
export function finiteNumber(): OptionKind<number> {
  return numberKind("a number", Number.isFinite);
}

/** Opaque strings (identifiers, names), repeatable on the command line: `--role a --role b`. */
export function textList(expected = "a non-empty list of non-empty strings"): OptionKind<readonly string[]> {
  return {
    expected,
    accepts: (v): v is readonly string[] => Array.isArray(v) && v.length > 0 && v.every((p) => typeof p === "string" && p !== ""),
    fromText: () => (t, previous) => [...(previous ?? []), t],
    zod: (z) => z.array(z.string()),
    show: (v) => v.join(" "),
  };
}

/** A duration in whole seconds from 0 (none) up to `max`, e.g. `--snapshot-grace 30`: a flag's text read as a whole number's. */
export function seconds({ max }: { max: number }): OptionKind<number> {
  return { ...wholeNumber({ min: 0, max }), expected: `a whole number of seconds from 0 to ${max}` };
}
