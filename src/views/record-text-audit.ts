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

/**
 * The injection and control-token scan over every text a plain output keeps (issue 18): per path, texts
 * written, texts `sanitize` would change (they hold a chat-template control token or a control, bidi or
 * zero-width character) and texts matching an injection pattern. Rows are not changed: this only counts
 * what the dataset carries. Paths the untrusted policy dropped are gone from the record, so not counted.
 */
export class RecordTextAudit {
  readonly #audit = new TextAudit();
  readonly #paths: readonly (readonly string[])[];
  readonly #names: readonly string[];

  constructor(format: Pick<FormatBasics, "name" | "untrustedPaths">) {
    const names = [...new Set([...format.untrustedPaths, ...(TEXT_PATHS[format.name] ?? [])])];
    this.#names = names;
    this.#paths = names.map((p) => p.split(".").flatMap((step) => (step.endsWith("[]") ? [step.slice(0, -2), "[]"] : [step])));
  }

  add(record: Readonly<Record<string, unknown>>): void {
    this.#paths.forEach((steps, i) => this.#walk(record, steps, 0, this.#names[i] as string));
  }

  summary(): Record<string, PathAudit> {
    return this.#audit.summary();
  }

  #walk(value: unknown, steps: readonly string[], at: number, path: string): void {
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
  #leaves(value: unknown, path: string): void {
    if (typeof value === "string") {
      this.#audit.add(path, sanitizeText(value).changed, scanInjection(value));
    } else if (Array.isArray(value)) {
      for (const v of value) this.#leaves(v, path);
    } else if (value !== null && typeof value === "object") {
      for (const v of Object.values(value)) this.#leaves(v, path);
    }
  }
}
