import type { FormatBasics } from "../formats/format.js";
import { sanitizeText } from "./sanitize-text.js";
import { scanInjection } from "./scan-injection.js";
import { TextAudit } from "./text-audit.js";
import type { PathAudit } from "./text-audit.js";

/**
 * Where the plain (non-view) outputs keep text a model may be trained on, besides the format's untrusted
 * paths: judge evidence and trace steps (SFT), observations and actions (RL), the pair sides (DPO). `*` is any
 * key of a map, `[]` every element of a list.
 */
const TEXT_PATHS: Readonly<Record<string, readonly string[]>> = {
  sft: ["scores.per_trait.*.evidence", "trace_steps"],
  rl: ["tuples[].state.observation", "tuples[].action.content"],
  dpo: ["pairs[].chosen.content", "pairs[].rejected.content"],
};

/** The paths the text scan of a plain output walks: the format's untrusted paths and its {@link TEXT_PATHS}. */
export function textAuditPaths(format: Pick<FormatBasics, "name" | "untrustedPaths">): string[] {
  return [...new Set([...format.untrustedPaths, ...(TEXT_PATHS[format.name] ?? [])])];
}

/**
 * Every string at or below some paths of a record, each with the index of its path: what the text scan
 * reads, in the stages engine (records) and in the parallel engine's workers (skeletons holding the paths).
 */
export class TextWalk {
  readonly #paths: readonly (readonly string[])[];
  #visit: (path: number, text: string) => void = () => undefined;

  constructor(paths: readonly string[]) {
    this.#paths = paths.map((p) => p.split(".").flatMap((step) => (step.endsWith("[]") ? [step.slice(0, -2), "[]"] : [step])));
  }

  /** Calls `visit` with each string of `record` below each path (paths dropped from the record have none). */
  run(record: Readonly<Record<string, unknown>>, visit: (path: number, text: string) => void): void {
    this.#visit = visit;
    for (let i = 0; i < this.#paths.length; i++) this.#walk(record, this.#paths[i] as readonly string[], 0, i);
  }

  #walk(value: unknown, steps: readonly string[], at: number, path: number): void {
    if (value === null || value === undefined) return;
    if (at === steps.length) return this.#leaves(value, path);
    const step = steps[at] as string;
    if (step === "[]") {
      if (Array.isArray(value)) for (const v of value) this.#walk(v, steps, at + 1, path);
      return;
    }
    if (typeof value !== "object" || Array.isArray(value)) return;
    const object = value as Record<string, unknown>;
    if (step === "*") for (const v of Object.values(object)) this.#walk(v, steps, at + 1, path);
    else this.#walk(object[step], steps, at + 1, path);
  }

  /** Every string below a path (free-form values such as observations hold theirs at any depth). */
  #leaves(value: unknown, path: number): void {
    if (typeof value === "string") {
      this.#visit(path, value);
    } else if (Array.isArray(value)) {
      for (const v of value) this.#leaves(v, path);
    } else if (value !== null && typeof value === "object") {
      for (const v of Object.values(value)) this.#leaves(v, path);
    }
  }
}

/**
 * The injection and control-token scan over every text a plain output keeps (issue 18): per path, texts
 * written, texts `sanitize` would change (they hold a chat-template control token or a control, bidi or
 * zero-width character) and texts matching an injection pattern. Rows are not changed: this only counts
 * what the dataset carries. Paths the untrusted policy dropped are gone from the record, so not counted.
 */
export class RecordTextAudit {
  readonly #audit = new TextAudit();
  readonly #names: readonly string[];
  readonly #walk: TextWalk;
  readonly #add = (path: number, text: string): void => this.#audit.add(this.#names[path] as string, sanitizeText(text).changed, scanInjection(text));

  constructor(format: Pick<FormatBasics, "name" | "untrustedPaths">) {
    this.#names = textAuditPaths(format);
    this.#walk = new TextWalk(this.#names);
  }

  add(record: Readonly<Record<string, unknown>>): void {
    this.#walk.run(record, this.#add);
  }

  summary(): Record<string, PathAudit> {
    return this.#audit.summary();
  }
}
