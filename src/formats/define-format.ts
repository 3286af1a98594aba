import { z } from "zod";
import { columnsOf } from "../schema/columns-of.js";
import { parsePath, typeAt } from "../schema/field-path.js";
import type { Format, FormatName, FormatRules } from "./format.js";
import { VERSION_FIELDS } from "./format.js";

/** The record schema of one format version: its version field as the literal version, then its fields. */
export type RecordSchema<N extends FormatName, V extends string, F extends z.ZodRawShape> = z.ZodObject<{ [K in (typeof VERSION_FIELDS)[N]]: z.ZodLiteral<V> } & F>;

/** One format version, as its author states it: everything else a {@link Format} holds is derived. */
export interface FormatDefinition<N extends FormatName, V extends string, F extends z.ZodRawShape, U extends string = string> {
  readonly name: N;
  /** `major.minor`, e.g. "1.1". */
  readonly version: V;
  /** The record's fields, without the version field: defineFormat puts it first, as the literal `version`. */
  readonly fields: F;
  /** Paths the spec calls untrusted (LLM-generated or operator text), in path syntax. */
  readonly untrustedPaths: readonly U[];
  /** `facts`, `check` and `prune`, kept zod-free in record-rules.ts so worker threads can run them without zod. */
  readonly rules: FormatRules<z.output<RecordSchema<N, V, F>>>;
}

/**
 * A format version from its definition: the schema with the version literal, the same schema accepting any
 * version string (a later minor, under `acceptLaterMinor`), and the typed columns derived from the schema.
 */
export function defineFormat<const N extends FormatName, const V extends string, F extends z.ZodRawShape, const U extends string = string>(
  definition: FormatDefinition<N, V, F, U>,
): Format<RecordSchema<N, V, F>, U> {
  const { name, version, fields, untrustedPaths, rules } = definition;
  const versionField = VERSION_FIELDS[name];
  if (!/^\d+\.\d+$/.test(version)) throw new Error(`Format ${name} version ${JSON.stringify(version)} is not major.minor`);
  if (versionField in fields) throw new Error(`Format ${name} ${version} lists its version field ${versionField} among its fields: defineFormat adds it`);
  // The computed key hides the shape from TypeScript: RecordSchema states it.
  const schema = z.object({ [versionField]: z.literal(version), ...fields }) as unknown as RecordSchema<N, V, F>;
  const anyVersionSchema = z.object({ [versionField]: z.string(), ...fields }) as unknown as z.ZodType<z.output<RecordSchema<N, V, F>>>;
  const columns = columnsOf(schema);
  // A misspelt untrusted path would leave that text in every dataset, unnoticed.
  const undeclared = untrustedPaths.filter((path) => typeAt(columns, parsePath(path)) === null);
  if (undeclared.length > 0) throw new Error(`Format ${name} ${version} calls untrusted the paths ${undeclared.join(", ")}, which its schema does not declare`);
  return { name, versionField, version, schema, anyVersionSchema, untrustedPaths, columns, facts: rules.facts, check: rules.check, prune: rules.prune ?? (() => null) };
}
