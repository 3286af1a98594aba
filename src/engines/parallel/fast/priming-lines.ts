import { Buffer } from "node:buffer";
import { LIST, MAP, STRUCT } from "./schema-node.js";
import type { SchemaNode } from "./schema-node.js";
import { tryParseJson } from "../../../core/try-parse-json.js";

/**
 * Lines made from a real one that take the walker's rarely taken paths: the record with every object's
 * keys in reverse order (keys out of schema order are scanned and looked up), and the record without its
 * optional fields and with every map empty (absent and empty values are written as missing). A worker
 * walks them early in its first batch (see UnitConverter), so that rare paths have run before the hot code
 * is compiled: docs/decisions.md "hot code shape", cold paths.
 * Empty when the line is not JSON: the real lines then go their own way.
 */
export function primingLines(root: SchemaNode, line: string): Buffer[] {
  const value = tryParseJson(line);
  if (value === undefined) return [];
  return [reversed(value), withoutOptional(value, root)].map((v) => Buffer.from(JSON.stringify(v)));
}

function reversed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversed);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([k, v]) => [k, reversed(v)]),
  );
}

function withoutOptional(value: unknown, node: SchemaNode): unknown {
  if (value === null || typeof value !== "object") return value;
  if (node.kind === LIST && Array.isArray(value) && node.item !== null) return value.map((v) => withoutOptional(v, node.item as SchemaNode));
  if (node.kind === MAP && !Array.isArray(value)) return {};
  if (node.kind !== STRUCT || Array.isArray(value)) return value;
  const record = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const f of node.fields) if (!f.optional && f.name in record) out[f.name] = withoutOptional(record[f.name], f.node);
  return out;
}
