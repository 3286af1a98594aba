import { z } from "zod";
import type { ColumnType, Field } from "./column-type.js";

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  additionalProperties?: JsonSchema | boolean;
  anyOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  $ref?: string;
  "x-evalshard-type"?: string;
};

/** Derives typed columns from a zod object schema, through its JSON Schema. */
export function columnsOf(schema: z.ZodType): Field[] {
  const json = z.toJSONSchema(schema, { io: "output", unrepresentable: "any" }) as JsonSchema;
  const type = toColumn(json, "");
  if (type.kind !== "struct") throw new Error("columnsOf needs an object schema");
  return [...type.fields];
}

function toColumn(node: JsonSchema, path: string): ColumnType {
  const { schema } = stripNull(node);
  if (schema["x-evalshard-type"] === "json" || schema.$ref !== undefined) return { kind: "json" };
  if (schema.enum !== undefined || typeof schema.const === "string") return { kind: "string" };
  switch (schema.type) {
    case "string":
      return { kind: "string" };
    case "integer":
      return { kind: "int64" };
    case "number":
      return { kind: "float64" };
    case "boolean":
      return { kind: "bool" };
    case "array":
      if (schema.items === undefined) throw new Error(`array without items at ${path}`);
      return { kind: "list", item: toColumn(schema.items, `${path}[]`) };
    case "object": {
      if (schema.properties !== undefined) {
        const required = new Set(schema.required ?? []);
        const fields = Object.entries(schema.properties).map(([name, child]) => ({
          name,
          type: toColumn(child, path === "" ? name : `${path}.${name}`),
          nullable: !required.has(name) || stripNull(child).nullable,
        }));
        return { kind: "struct", fields };
      }
      if (typeof schema.additionalProperties === "object") {
        return { kind: "map", value: toColumn(schema.additionalProperties, `${path}.*`) };
      }
      return { kind: "json" };
    }
    default:
      return { kind: "json" };
  }
}

function stripNull(node: JsonSchema): { schema: JsonSchema; nullable: boolean } {
  if (Array.isArray(node.type)) {
    const rest = node.type.filter((t) => t !== "null");
    const nullable = rest.length !== node.type.length;
    if (rest.length === 1 && rest[0] !== undefined) return { schema: { ...node, type: rest[0] }, nullable };
    return { schema: { "x-evalshard-type": "json" }, nullable };
  }
  if (node.anyOf === undefined) return { schema: node, nullable: false };
  const rest = node.anyOf.filter((s) => s.type !== "null");
  const nullable = rest.length !== node.anyOf.length;
  if (rest.length === 1 && rest[0] !== undefined) {
    const { schema } = stripNull(rest[0]);
    // Metadata sits on the outer node for `.meta()` applied after `.nullable()`.
    return { schema: { ...schema, ...pick(node) }, nullable };
  }
  return { schema: { "x-evalshard-type": "json" }, nullable };
}

function pick(node: JsonSchema): JsonSchema {
  return node["x-evalshard-type"] === undefined ? {} : { "x-evalshard-type": node["x-evalshard-type"] };
}
