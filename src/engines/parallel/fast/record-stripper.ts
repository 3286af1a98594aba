import { redaction } from "../../../stages/redaction.js";
import { LIST, MAP, STRUCT } from "./schema-node.js";
import type { SchemaNode } from "./schema-node.js";

/** Strips one record in place. */
export type RecordStripper = (record: Record<string, unknown>) => void;

/**
 * What the policy's marks on a compiled schema (`applyPolicy`) do to a record, the walk's rule applied to a
 * JS value: dropped fields and map values deleted, redacted values replaced by their `redaction`, and a
 * struct or map marked `pruneIfEmpty` deleted from its struct once nothing is left in it. A value that does
 * not fit the schema where it lies (a quarantined line's) is left as it is there.
 */
export function recordStripper(root: SchemaNode): RecordStripper {
  const marked = new Set<SchemaNode>();
  markedBelow(root, marked);
  return marked.has(root) ? (record) => void stripValue(root, record, marked) : () => {};
}

/** Adds `node` to `marked` when a mark lies at or below it: the walk enters only those. */
function markedBelow(node: SchemaNode, marked: Set<SchemaNode>): boolean {
  let any = node.redact || node.pruneIfEmpty || node.valuesDropped;
  for (const field of node.fields) any = markedBelow(field.node, marked) || field.dropped || any;
  if (node.item !== null) any = markedBelow(node.item, marked) || any;
  if (any) marked.add(node);
  return any;
}

/** Strips `value` along `node`; true when it is a struct or map to delete: `pruneIfEmpty`, and left without keys. */
function stripValue(node: SchemaNode, value: unknown, marked: ReadonlySet<SchemaNode>): boolean {
  if (value === null || typeof value !== "object") return false;
  if (node.kind === LIST) {
    if (Array.isArray(value) && node.item !== null) for (const item of value) stripValue(node.item, item, marked);
    return false;
  }
  const object = value as Record<string, unknown>;
  if (node.kind === STRUCT) {
    for (const field of node.fields) if (field.name in object) stripAt(object, field.name, field.dropped, field.node, marked);
  } else if (node.kind === MAP && node.item !== null) {
    for (const key of Object.keys(object)) stripAt(object, key, node.valuesDropped, node.item, marked);
  }
  return node.pruneIfEmpty && Object.keys(object).length === 0;
}

function stripAt(object: Record<string, unknown>, key: string, dropped: boolean, node: SchemaNode, marked: ReadonlySet<SchemaNode>): void {
  const value = object[key];
  if (dropped) delete object[key];
  else if (node.redact) {
    if (value !== null && value !== undefined) object[key] = redaction(value);
  } else if (marked.has(node) && stripValue(node, value, marked)) delete object[key];
}
