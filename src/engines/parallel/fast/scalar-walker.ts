import { Buffer } from "node:buffer";
import type { LeafWriter } from "../../../parquet/leaf-writer.js";
import { redaction } from "../../../stages/strip.js";
import { QUOTE, unvouched } from "./byte-cursor.js";
import { JsonSkipper } from "./json-skipper.js";
import type { SchemaNode } from "./schema-node.js";
import { ShortStrings } from "./short-strings.js";
import { unescape } from "./unescape.js";
import { Utf8Range } from "../../../views/utf8-range.js";

export const NO_WRITERS: readonly LeafWriter[] = [];
const EMPTY = Buffer.alloc(0);

/**
 * The leaves of the walk: strings, enums, numbers and JSON-typed values, each validated as zod would,
 * written into its leaf writer (raw bytes where it can, redacted where the policy says) and kept for the
 * skeleton. {@link LineWalker} adds the structs, lists and maps around them.
 */
export abstract class ScalarWalker extends JsonSkipper {
  protected out: readonly LeafWriter[] = NO_WRITERS;
  /** The skeleton of the value walked last (meaningful only when its node is in the skeleton). */
  protected sk: unknown = null;
  private readonly strings = new ShortStrings();
  /** Where escaped strings are decoded before they are written; reused, so writers copy. */
  private scratch: Buffer = EMPTY;

  constructor() {
    super();
    // Both fields change kind mid-run; changed once here, before any code is compiled: docs/decisions.md
    // "hot code shape", changing fields.
    this.sk = 0;
    this.sk = null;
    this.scratch = Buffer.allocUnsafe(4096);
  }

  /** Walks the value at `i` (not whitespace) along `node`; returns the index after it. */
  protected abstract value(node: SchemaNode, i: number, rep: number): number;

  /** Free text: written as its raw bytes when it has no escapes, decoded into the scratch buffer when it has. */
  protected string(node: SchemaNode, i: number, rep: number): number {
    if (this.b[i] !== QUOTE) unvouched();
    const q = this.quoteEnd(i + 1);
    const escaped = this.escaped;
    let text: string | null = null;
    if (node.written) {
      const w = this.out[node.leaf] as LeafWriter;
      if (node.redact) w.text(redaction((text = this.text(i, q, escaped))), rep);
      else if (escaped) {
        if (this.scratch.length < q - i) this.scratch = Buffer.allocUnsafe(2 * (q - i));
        w.bytes(this.scratch, 0, unescape(this.b, i + 1, q, this.scratch), rep);
      } else w.bytes(this.b, i + 1, q, rep);
    }
    // A string a view takes as bytes (rl-steps' window texts) stays bytes unless it has escapes (the view then checks the string).
    if (node.skeleton) this.sk = text ?? (node.asBytes && !escaped ? new Utf8Range(this.b, i + 1, q) : this.text(i, q, escaped));
    return q + 1;
  }

  /** An enum or literal, matched on its bytes (after decoding, if spelled with escapes). */
  protected choice(node: SchemaNode, i: number, rep: number): number {
    if (this.b[i] !== QUOTE) unvouched();
    const q = this.quoteEnd(i + 1);
    const choices = node.choices;
    let k = -1;
    if (this.escaped) k = node.choiceValues.indexOf(this.decode(i, q));
    else for (let j = 0; j < choices.length && k < 0; j++) if ((choices[j] as Uint8Array).length === q - i - 1 && this.bytesAre(i + 1, choices[j] as Uint8Array)) k = j;
    if (k < 0) unvouched();
    const value = node.choiceValues[k] as string;
    if (node.written) {
      const w = this.out[node.leaf] as LeafWriter;
      if (node.redact) w.text(redaction(value), rep);
      else if (this.escaped) w.text(value, rep);
      else w.bytes(this.b, i + 1, q, rep);
    }
    this.sk = value;
    return q + 1;
  }

  /** A number with zod's checks: finite, `.int()` a safe integer, `.min()` and `.max()` as declared. */
  protected number(node: SchemaNode, i: number, rep: number): number {
    const v = this.readNumber(i);
    // zod: z.number() takes finite numbers only, .int() safe integers only (after JSON.parse's rounding).
    if (node.int ? !Number.isSafeInteger(v) : !Number.isFinite(v)) unvouched();
    if (v < node.min || (v === node.min && !node.minInclusive) || v > node.max || (v === node.max && !node.maxInclusive)) unvouched();
    if (node.written) {
      const w = this.out[node.leaf] as LeafWriter;
      if (node.int) w.int64(v, rep);
      else w.float64(v, rep);
    }
    this.sk = v;
    return this.at;
  }

  /** A JSON-typed value: validated, then written as its raw text (JSON null was handled as a missing value). */
  protected json(node: SchemaNode, i: number, rep: number): number {
    const end = node.item === null ? this.skipJson(i) : this.value(node.item, i, 0);
    if (node.written) {
      const w = this.out[node.leaf] as LeafWriter;
      // strip replaces the value by its redaction string, which the JSON leaf then holds as JSON text.
      if (node.redact) w.text(JSON.stringify(redaction(JSON.parse(this.utf8(i, end)))), rep);
      else w.bytes(this.b, i, end, rep);
    }
    // Only a skeleton that names the value holds it (a training view's `observation`), as its bytes (Utf8Range).
    if (node.skeleton) this.sk = new Utf8Range(this.b, i, end);
    return end;
  }

  /** The string whose quotes are at `open` and `close` as a JS string. */
  protected text(open: number, close: number, escaped: boolean): string {
    return escaped ? this.decode(open, close) : this.strings.get(this.b, open + 1, close);
  }

  /** A missing entry at definition level `def` in every leaf below `node` (null, absent or empty). */
  protected missing(node: SchemaNode, def: number, rep: number): void {
    for (const leaf of node.leaves) (this.out[leaf] as LeafWriter).missing(def, rep);
  }
}
