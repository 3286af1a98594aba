import type { ColumnPlan, PlanNode } from "./column-plan.js";
import type { LeafWriter } from "./leaf-writer.js";

/**
 * Writes one record (a validated, stripped JS object) into the leaf writers: the Dremel shredding of the
 * record along the plan. Absent and null fields are the same to Parquet. JSON leaves get `JSON.stringify`.
 */
export function shredRecord(plan: ColumnPlan, record: Readonly<Record<string, unknown>>, out: readonly LeafWriter[]): void {
  for (const { name, node } of plan.fields) shredValue(node, record[name], 0, out);
}

/** Writes one value at `node` of the plan, its first entries at repetition level `rep`: the shredding of any part of a record. */
export function shredValue(node: PlanNode, value: unknown, rep: number, out: readonly LeafWriter[]): void {
  if (value === null || value === undefined) {
    missing(node.kind === "leaf" ? [node.leaf.index] : node.leaves, node.def - 1, rep, out);
    return;
  }
  switch (node.kind) {
    case "leaf": {
      const w = out[node.leaf.index] as LeafWriter;
      switch (node.leaf.type) {
        case "string":
          w.text(value as string, rep);
          return;
        case "json":
          w.text(JSON.stringify(value), rep);
          return;
        case "int64":
          w.int64(value as number | bigint, rep);
          return;
        case "float64":
          w.float64(value as number, rep);
          return;
        case "bool":
          w.bool(value as boolean, rep);
          return;
      }
      return;
    }
    case "struct": {
      const object = value as Readonly<Record<string, unknown>>;
      for (const { name, node: child } of node.fields) shredValue(child, object[name], rep, out);
      return;
    }
    case "list": {
      const items = value as readonly unknown[];
      if (items.length === 0) {
        missing(node.leaves, node.def, rep, out);
        return;
      }
      for (let i = 0; i < items.length; i++) shredValue(node.item, items[i], i === 0 ? rep : node.rep, out);
      return;
    }
    case "map": {
      const entries = Object.entries(value as Readonly<Record<string, unknown>>);
      if (entries.length === 0) {
        missing(node.leaves, node.def, rep, out);
        return;
      }
      for (let i = 0; i < entries.length; i++) {
        const [key, v] = entries[i] as [string, unknown];
        shredValue(node.entry, { key, value: v }, i === 0 ? rep : node.rep, out);
      }
      return;
    }
  }
}

function missing(leaves: readonly number[], def: number, rep: number, out: readonly LeafWriter[]): void {
  for (const i of leaves) (out[i] as LeafWriter).missing(def, rep);
}
