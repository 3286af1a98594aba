import type { FormatBasics } from "../../../formats/format.js";
import type { PlainSchemaNode } from "./plain-schema.js";

/**
 * Everything the parallel engine's main thread needs of a format, as data: the basics and the fast
 * parser's compiled schema. Written at build time (`load-format-info.ts`), so main need not load zod.
 */
export interface FormatInfo extends FormatBasics {
  readonly parserSchema: PlainSchemaNode;
}
