import { FORMAT_NAMES, VERSION_FIELDS } from "../../../formats/format.js";
import type { FormatInfo } from "./format-info.js";
import { columnPlan } from "../../../parquet/column-plan.js";
import type { ColumnPlan } from "../../../parquet/column-plan.js";
import { outputColumns } from "../../../stages/untrusted-policy.js";
import type { UntrustedPolicy } from "../../../stages/untrusted-policy.js";
import { applyPolicy, markUntrusted } from "./apply-policy.js";
import { bindPlan } from "./bind-plan.js";
import { schemaNodeOf } from "./plain-schema.js";
import { CHOICE } from "./schema-node.js";
import type { SchemaNode } from "./schema-node.js";

const encoder = new TextEncoder();

/**
 * The fast parser's schema tree for a run: the format's compiled schema annotated with the policy and the
 * plan. Plain data, and zod-free: the parallel engine builds it once in main and sends it to its workers.
 * A training view's run binds no plan (null): the parser then validates only, and the view's rows are shredded.
 */
export function parserSchemaFor(format: FormatInfo, policy: UntrustedPolicy, plan: ColumnPlan | null = columnPlan(outputColumns(format, policy))): SchemaNode {
  const root = schemaNodeOf(format.parserSchema);
  const version = root.fields.find((f) => f.name === format.versionField);
  if (version === undefined || version.optional || version.node.kind !== CHOICE || version.node.nullable || version.node.choiceValues.join("\n") !== format.version) {
    throw new Error(`The ${format.name} schema must declare ${format.versionField} as the literal ${JSON.stringify(format.version)}`);
  }
  applyPolicy(root, policy);
  markUntrusted(root, format.untrustedPaths);
  bindPlan(root, plan);
  // validate() reads these before the schema: another format's version field changes the detected format,
  // and an `error` key may make the line a stream error.
  root.forbiddenKeys = [...FORMAT_NAMES.map((name) => VERSION_FIELDS[name]).filter((f) => f !== format.versionField), "error"].map((k) => encoder.encode(k));
  return root;
}
