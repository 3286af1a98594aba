import { z } from "zod";
import type { FieldSlot, NodeKind } from "./schema-node.js";
import { BOOLEAN, CHOICE, JSON_VALUE, LIST, MAP, NUMBER, SchemaNode, STRING, STRUCT } from "./schema-node.js";

/** The parts of zod's internal definition this compiler reads; everything else is rejected. */
interface ZodDef {
  readonly type: string;
  readonly checks?: readonly Check[];
  readonly coerce?: boolean;
  readonly innerType?: Schema;
  readonly shape?: Readonly<Record<string, Schema>>;
  readonly catchall?: Schema;
  readonly element?: Schema;
  readonly keyType?: Schema;
  readonly valueType?: Schema;
  readonly values?: readonly unknown[];
  readonly entries?: Readonly<Record<string, unknown>>;
  readonly options?: readonly Schema[];
  readonly getter?: () => unknown;
  readonly mode?: string;
  /** A schema that is its own check, like `z.int()` (`check: "number_format"`, `format: "safeint"`). */
  readonly check?: string;
  readonly format?: string;
}
interface CheckDef {
  readonly check: string;
  readonly format?: string;
  readonly value?: unknown;
  readonly inclusive?: boolean;
}
interface Check {
  readonly _zod: { readonly def: CheckDef };
}
interface Schema {
  readonly _zod: { readonly def: ZodDef; readonly innerType?: Schema };
}

const MAX_FIELDS = 31;

/**
 * The definition properties each zod type may have for this compiler to mirror it; any other one (a
 * string format, a pattern, a record mode...) changes what zod accepts, so it is refused.
 */
const KNOWN_DEF_KEYS: Readonly<Record<string, readonly string[]>> = {
  string: ["checks"],
  number: ["checks", "check", "format", "abort"],
  boolean: [],
  literal: ["values"],
  enum: ["entries"],
  object: ["shape"],
  array: ["element", "checks"],
  record: ["keyType", "valueType", "checks"],
  optional: ["innerType"],
  nullable: ["innerType"],
  lazy: ["getter"],
};
const encoder = new TextEncoder();

/**
 * Compiles a zod object schema into the tree of {@link SchemaNode}s the wasm walk's table is made from. Throws
 * on any zod construct it cannot mirror exactly (unions, transforms, refinements, string checks, strict or
 * passthrough objects...), so a schema change can never make the fast path silently disagree with zod.
 */
export function compileSchema(schema: z.ZodType): SchemaNode {
  const { node, optional } = compile(schema as unknown as Schema, "");
  if (node.kind !== STRUCT || node.nullable || optional) throw unsupported("a record schema that is not a plain object", "(root)");
  return node;
}

function compile(schema: Schema, path: string): { node: SchemaNode; optional: boolean } {
  let optional = false;
  let nullable = false;
  let s = schema;
  for (;;) {
    if (isJsonMarked(s)) {
      const node = new SchemaNode(JSON_VALUE);
      if (!isAnyJson(s)) node.item = compileShape(s, `${path}`, false);
      node.nullable = nullable || node.item === null || node.item.nullable;
      return { node, optional };
    }
    const def = s._zod.def;
    if (def.type !== "optional" && def.type !== "nullable") break;
    if (def.type === "optional") optional = true;
    else nullable = true;
    if (def.innerType === undefined) throw unsupported(`${def.type} without an inner type`, path);
    s = def.innerType;
  }
  const node = compileShape(s, path, true);
  node.nullable ||= nullable;
  return { node, optional };
}

/** Compiles a schema past its wrappers; `marks` says whether a JSON mark on it still counts. */
function compileShape(schema: Schema, path: string, marks: boolean): SchemaNode {
  if (!marks) {
    // The JSON mark sits on this very schema: compile what it validates, wrappers included.
    const def = schema._zod.def;
    if (def.type === "optional" || def.type === "nullable") {
      const inner = compile(def.innerType as Schema, path).node;
      inner.nullable ||= def.type === "nullable";
      return inner;
    }
  }
  const def = schema._zod.def;
  const known = KNOWN_DEF_KEYS[def.type] ?? [];
  const unknown = Object.keys(def).filter((k) => k !== "type" && k !== "error" && !(k === "coerce" && def.coerce !== true) && !known.includes(k));
  if (unknown.length > 0) throw unsupported(`z.${def.type}() with ${unknown.join(", ")}`, path);
  const self: Check[] = def.check === undefined ? [] : [{ _zod: { def: { check: def.check, ...(def.format === undefined ? {} : { format: def.format }) } } }];
  const checks = [...self, ...(def.checks ?? [])];
  switch (def.type) {
    case "string":
      if (checks.length > 0) throw unsupported("string checks", path);
      return new SchemaNode(STRING);
    case "boolean":
      if (checks.length > 0) throw unsupported("boolean checks", path);
      return new SchemaNode(BOOLEAN);
    case "number":
      return numberNode(checks, path);
    case "literal":
    case "enum": {
      const values = def.type === "literal" ? (def.values ?? []) : Object.values(def.entries ?? {});
      if (values.length === 0 || !values.every((v): v is string => typeof v === "string")) throw unsupported(`a non-string ${def.type}`, path);
      const node = new SchemaNode(CHOICE);
      node.choiceValues = values;
      node.choices = values.map((v) => encoder.encode(v));
      return node;
    }
    case "object":
      return structNode(def, path);
    case "array": {
      if (checks.length > 0 || def.element === undefined) throw unsupported("array checks", path);
      return withItem(LIST, compile(def.element, `${path}[]`).node);
    }
    case "record": {
      const key = def.keyType?._zod.def;
      if (checks.length > 0 || key?.type !== "string" || (key.checks ?? []).length > 0 || def.mode !== undefined || def.valueType === undefined) {
        throw unsupported("a record whose keys are not plain strings", path);
      }
      return withItem(MAP, compile(def.valueType, `${path}.*`).node);
    }
    case "lazy":
      if (isAnyJson(schema)) {
        const node = new SchemaNode(JSON_VALUE);
        node.nullable = true;
        return node;
      }
      throw unsupported("z.lazy other than z.json()", path);
    default:
      throw unsupported(`z.${def.type}()`, path);
  }
}

function numberNode(checks: readonly Check[], path: string): SchemaNode {
  const node = new SchemaNode(NUMBER);
  for (const check of checks) {
    const c = check._zod.def;
    if (c.check === "number_format" && c.format === "safeint") node.int = true;
    else if (c.check === "greater_than" && typeof c.value === "number" && node.min === -Infinity) {
      node.min = c.value;
      node.minInclusive = c.inclusive === true;
    } else if (c.check === "less_than" && typeof c.value === "number" && node.max === Infinity) {
      node.max = c.value;
      node.maxInclusive = c.inclusive === true;
    } else throw unsupported(`the number check ${JSON.stringify(c.check)}${c.format === undefined ? "" : ` (${c.format})`}`, path);
  }
  return node;
}

function structNode(def: ZodDef, path: string): SchemaNode {
  if (def.catchall !== undefined) throw unsupported("a strict, passthrough or catchall object", path);
  if ((def.checks ?? []).length > 0) throw unsupported("object refinements", path);
  const entries = Object.entries(def.shape ?? {});
  if (entries.length > MAX_FIELDS) throw unsupported(`an object with more than ${MAX_FIELDS} fields`, path);
  if (entries.some(([name]) => name === "__proto__")) throw unsupported("a field named __proto__", path);
  const node = new SchemaNode(STRUCT);
  node.fields = entries.map(([name, child], i): FieldSlot => {
    const { node: compiled, optional } = compile(child, path === "" ? name : `${path}.${name}`);
    if (!optional) node.requiredMask |= 1 << i;
    node.fieldMask |= 1 << i;
    return { name, key: encoder.encode(name), node: compiled, optional, bit: 1 << i, dropped: false, untrusted: false };
  });
  return node;
}

function withItem(kind: NodeKind, item: SchemaNode): SchemaNode {
  const node = new SchemaNode(kind);
  node.item = item;
  return node;
}

/** Marked `.meta({"x-evalshard-type": "json"})`: stored as JSON text. */
function isJsonMarked(schema: Schema): boolean {
  const meta = z.globalRegistry.get(schema as unknown as z.ZodType) as Record<string, unknown> | undefined;
  return meta?.["x-evalshard-type"] === "json" || isAnyJson(schema);
}

/**
 * Recognises `z.json()`: a lazy union of string, number, boolean, null, array of itself and record of
 * itself, with no checks anywhere. Any other lazy schema is refused, since it could accept less.
 */
function isAnyJson(schema: Schema): boolean {
  const def = schema._zod.def;
  if (def.type !== "lazy") return false;
  const union = schema._zod.innerType?._zod.def;
  const options = union?.type === "union" ? (union.options ?? []) : [];
  const types = options.map((o) => o._zod.def.type).join(",");
  if (types !== "string,number,boolean,null,array,record") return false;
  if (options.slice(0, 4).some((o) => (o._zod.def.checks ?? []).length > 0 || o._zod.def.coerce === true)) return false;
  const array = options[4]?._zod.def;
  const record = options[5]?._zod.def;
  const key = record?.keyType?._zod.def;
  const self = array?.element?._zod.def;
  return (
    array?.element !== undefined &&
    array.element === record?.valueType &&
    (array.checks ?? []).length === 0 &&
    key?.type === "string" &&
    (key.checks ?? []).length === 0 &&
    record.mode === undefined &&
    self?.type === "lazy" &&
    self.getter === def.getter
  );
}

function unsupported(what: string, path: string): Error {
  return new Error(`The fast line parser cannot compile ${what} at ${path === "" ? "(root)" : path}; extend src/engines/parallel/fast/compile-schema.ts or keep this format on the slow path`);
}
