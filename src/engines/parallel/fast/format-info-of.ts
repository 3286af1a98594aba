import type { Format } from "../../../formats/format.js";
import { compileSchema } from "./compile-schema.js";
import type { FormatInfo } from "./format-info.js";
import { plainSchemaOf } from "./plain-schema.js";

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
