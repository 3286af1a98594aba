import type { Format } from "../../../formats/format.js";
import { outputColumns } from "../../../stages/untrusted-policy.js";
import type { UntrustedPolicy } from "../../../stages/untrusted-policy.js";
import { formatInfoOf } from "./format-info-of.js";
import { lineParserOf } from "./line-parser-of.js";
import { parserSchemaFor } from "./parser-schema-for.js";
import type { LineParser } from "./line-parser.js";
import type { SchemaNode } from "./schema-node.js";

export type { LineParser } from "./line-parser.js";

/**
 * Compiles the format's zod schema, the policy and the dataset's column plan into a {@link LineParser}.
 * With `reads` (field paths, as a format's `RECORD_RULES` reads), its skeletons hold just those values. Throws when the
 * schema uses a zod construct the parser cannot mirror exactly, or a path in `reads` does not fit it.
 */
export function compileLineParser(format: Format, policy: UntrustedPolicy, reads?: readonly string[]): LineParser {
  return lineParserOf(compileParserSchema(format, policy), outputColumns(format, policy), reads);
}

/**
 * The half of {@link compileLineParser} that needs zod: the schema tree, annotated with the policy and the
 * plan (see {@link parserSchemaFor}, which builds it from a format's plain data without zod).
 */
export function compileParserSchema(format: Format, policy: UntrustedPolicy): SchemaNode {
  return parserSchemaFor(formatInfoOf(format), policy);
}
