import type { ColumnPlan, LeafType, PlanField, PlanNode } from "../../../parquet/column-plan.js";
import { BOOLEAN, CHOICE, JSON_VALUE, kindName, LIST, MAP, NUMBER, STRING, STRUCT } from "./schema-node.js";
import type { SchemaNode } from "./schema-node.js";

/**
 * Gives every compiled node that reaches the dataset its Parquet leaves and Dremel levels from the plan.
 * Nodes the policy drops, or the plan leaves out, stay unwritten (validated only). Throws when the plan
 * and the schema disagree, since writing into the wrong leaf would corrupt the file. Without a plan (null:
 * a training view's run, whose rows are the view's), nothing is written: the schema only validates.
 */
export function bindPlan(root: SchemaNode, plan: ColumnPlan | null): void {
  root.written = true;
  bindFields(root, plan?.fields ?? null, "");
}

function bindFields(node: SchemaNode, planFields: readonly PlanField[] | null, path: string): void {
  for (const p of planFields ?? []) {
    if (!node.fields.some((f) => f.name === p.name)) throw mismatch(`a column ${join(path, p.name)} the schema does not declare`);
  }
  for (const f of node.fields) {
    const p = planFields?.find((x) => x.name === f.name);
    if (f.dropped && p !== undefined) throw mismatch(`a column ${join(path, f.name)} the policy drops`);
    bind(f.node, f.dropped ? null : (p?.node ?? null), join(path, f.name));
  }
}

function bind(node: SchemaNode, p: PlanNode | null, path: string): void {
  node.written = p !== null;
  if (p !== null) {
    node.def = p.def;
    node.leaves = p.kind === "leaf" ? [p.leaf.index] : p.leaves;
  }
  switch (node.kind) {
    case STRING:
    case CHOICE:
      return leaf(node, p, "string", path);
    case NUMBER:
      return leaf(node, p, node.int ? "int64" : "float64", path);
    case BOOLEAN:
      return leaf(node, p, "bool", path);
    case JSON_VALUE:
      leaf(node, p, "json", path);
      if (node.item !== null) bind(node.item, null, path);
      return;
    case STRUCT:
      if (p !== null && p.kind !== "struct") throw mismatch(`a ${p.kind} at ${path}, where the schema has an object`);
      return bindFields(node, p?.kind === "struct" ? p.fields : null, path);
    case LIST:
      if (p !== null && p.kind !== "list") throw mismatch(`a ${p.kind} at ${path}, where the schema has an array`);
      node.rep = p?.kind === "list" ? p.rep : 0;
      return bind(node.item as SchemaNode, p?.kind === "list" ? p.item : null, `${path}[]`);
    case MAP: {
      if (p !== null && p.kind !== "map") throw mismatch(`a ${p.kind} at ${path}, where the schema has a record`);
      const [key, value] = p?.kind === "map" ? p.entry.fields : [];
      if (p !== null && (key?.node.kind !== "leaf" || key.node.leaf.type !== "string" || value === undefined)) throw mismatch(`a map at ${path} without a string key`);
      node.rep = p?.kind === "map" ? p.rep : 0;
      node.keyLeaf = key?.node.kind === "leaf" ? key.node.leaf.index : -1;
      return bind(node.item as SchemaNode, node.valuesDropped ? null : (value?.node ?? null), `${path}.*`);
    }
  }
}

function leaf(node: SchemaNode, p: PlanNode | null, type: LeafType, path: string): void {
  if (p === null) return;
  if (p.kind !== "leaf" || p.leaf.type !== type) {
    throw mismatch(`a ${p.kind === "leaf" ? p.leaf.type : p.kind} column at ${path}, where the schema has a ${kindName(node.kind)} (${type})`);
  }
  node.leaf = p.leaf.index;
}

function join(path: string, name: string): string {
  return path === "" ? name : `${path}.${name}`;
}

function mismatch(what: string): Error {
  return new Error(`The column plan does not fit the schema: it has ${what}`);
}
