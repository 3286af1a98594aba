import { FORMATS } from "../formats/index.js";
import type { Format } from "../formats/format.js";
import { FORMAT_NAMES } from "../formats/format.js";
import { columnPlan } from "../parquet/column-plan.js";
import { outputColumns } from "../stages/untrusted-policy.js";
import type { UntrustedPolicy } from "../stages/untrusted-policy.js";
import { applyPolicy } from "./apply-policy.js";
import { bindPlan } from "./bind-plan.js";
import { compileSchema } from "./compile-schema.js";
import { lineParserOf } from "./line-parser-of.js";
import type { LineParser } from "./line-parser-of.js";
import { CHOICE } from "./schema-node.js";
import type { SchemaNode } from "./schema-node.js";

export type { LineParser } from "./line-parser-of.js";

const encoder = new TextEncoder();

/**
 * Compiles the format's zod schema, the policy and the dataset's column plan into a {@link LineParser}.
 * Throws when the schema uses a zod construct the parser cannot mirror exactly.
 */
export function compileLineParser(format: Format, policy: UntrustedPolicy): LineParser {
  return lineParserOf(compileParserSchema(format, policy), outputColumns(format, policy));
}

/**
 * The half of {@link compileLineParser} that needs zod: the schema tree, annotated with the policy and the
 * plan. It is plain data: the parallel engine compiles it once and sends it to its workers, which then
 * never load zod (~0.1 s per thread) unless a line needs the slow path.
 */
export function compileParserSchema(format: Format, policy: UntrustedPolicy): SchemaNode {
  const plan = columnPlan(outputColumns(format, policy));
  const root = compileSchema(format.schema);
  const version = root.fields.find((f) => f.name === format.versionField);
  if (version === undefined || version.optional || version.node.kind !== CHOICE || version.node.nullable || version.node.choiceValues.join("\n") !== format.version) {
    throw new Error(`The ${format.name} schema must declare ${format.versionField} as the literal ${JSON.stringify(format.version)}`);
  }
  applyPolicy(root, policy);
  bindPlan(root, plan);
  // validate() reads these before the schema: another format's version field changes the detected format,
  // and an `error` key may make the line a stream error.
  root.forbiddenKeys = [...FORMAT_NAMES.map((name) => FORMATS[name].versionField).filter((f) => f !== format.versionField), "error"].map((k) => encoder.encode(k));
  return root;
}
