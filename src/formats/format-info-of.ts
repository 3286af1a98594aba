import { compileSchema } from "../fast/compile-schema.js";
import { plainSchemaOf } from "../fast/plain-schema.js";
import type { Format } from "./format.js";
import type { FormatInfo } from "./format-info.js";

/** A format's {@link FormatInfo}, derived from its zod schema (the build writes these to `format-info.json`). */
export function formatInfoOf(format: Format): FormatInfo {
  return {
    name: format.name,
    versionField: format.versionField,
    version: format.version,
    untrustedPaths: format.untrustedPaths,
    columns: format.columns,
    parserSchema: plainSchemaOf(compileSchema(format.schema)),
  };
}
