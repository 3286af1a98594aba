import { Buffer } from "node:buffer";
import { FORMATS } from "../formats/index.js";
import type { Format } from "../formats/format.js";
import { FORMAT_NAMES } from "../formats/format.js";
import { columnPlan } from "../parquet/column-plan.js";
import type { ColumnPlan } from "../parquet/column-plan.js";
import type { LeafWriter } from "../parquet/leaf-writer.js";
import { outputColumns } from "../stages/untrusted-policy.js";
import type { UntrustedPolicy } from "../stages/untrusted-policy.js";
import { applyPolicy } from "./apply-policy.js";
import { bindPlan } from "./bind-plan.js";
import { compileSchema } from "./compile-schema.js";
import { hasControlByte } from "./has-control-byte.js";
import { LineWalker } from "./line-walker.js";
import { markSkeleton } from "./mark-skeleton.js";
import { CHOICE } from "./schema-node.js";

/** A byte-level parser for the lines of one format under one untrusted policy. */
export interface LineParser {
  /** `columnPlan(outputColumns(format, policy))`: the leaves `parse` writes, in writer order. */
  readonly plan: ColumnPlan;
  /**
   * Parses bytes `[start, end)` of `buf` (one line, no line end, valid UTF-8 guaranteed by the caller).
   * When the line is certainly a record of the format at exactly its version that zod accepts, writes one
   * row into `out` (the entries `shredRecord` would write for the stripped record; JSON-typed values as
   * their raw text) and returns the record's skeleton: the zod output (before strip) without JSON-typed
   * values and without free-text strings inside lists, absent optional fields as `undefined`; it is what
   * `format.facts` and `format.check` read (the caller runs them; a `check` fault is not the parser's
   * business). Returns null when it cannot vouch
   * for the line, invalid or merely unusual; the caller then discards what was written for this row and
   * runs the slow path. Writers must copy the bytes they are given before returning (they may point into
   * a scratch buffer). Not reentrant: one parser per thread.
   */
  parse(buf: Uint8Array, start: number, end: number, out: readonly LeafWriter[]): Record<string, unknown> | null;
}

const encoder = new TextEncoder();

/**
 * Compiles the format's zod schema, the policy and the dataset's column plan into a {@link LineParser}.
 * Throws when the schema uses a zod construct the parser cannot mirror exactly.
 */
export function compileLineParser(format: Format, policy: UntrustedPolicy): LineParser {
  const plan = columnPlan(outputColumns(format, policy));
  const root = compileSchema(format.schema);
  const version = root.fields.find((f) => f.name === format.versionField);
  if (version === undefined || version.optional || version.node.kind !== CHOICE || version.node.nullable || version.node.choiceValues.join("\n") !== format.version) {
    throw new Error(`The ${format.name} schema must declare ${format.versionField} as the literal ${JSON.stringify(format.version)}`);
  }
  applyPolicy(root, policy);
  bindPlan(root, plan);
  markSkeleton(root);
  root.skeleton = true;
  // validate() reads these before the schema: another format's version field changes the detected format,
  // and an `error` key may make the line a stream error.
  root.forbiddenKeys = [...FORMAT_NAMES.map((name) => FORMATS[name].versionField).filter((f) => f !== format.versionField), "error"].map((k) => encoder.encode(k));
  const walker = new LineWalker(root);
  return {
    plan,
    parse(buf, start, end, out) {
      const line = Buffer.from(buf.buffer, buf.byteOffset + start, end - start);
      return walker.run(line, !hasControlByte(buf, start, end), out);
    },
  };
}
