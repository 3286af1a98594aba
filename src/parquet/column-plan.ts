import { ConfigError } from "../core/errors.js";
import type { ColumnType, Field } from "../schema/column-type.js";

/** The value kinds a Parquet leaf column holds. `json` is JSON text in a BYTE_ARRAY, typed as a string. */
export type LeafType = "string" | "int64" | "float64" | "bool" | "json";

/** One leaf (primitive) column of the Parquet schema, in schema order. */
export interface Leaf {
  /** Position among the leaves; the index of its {@link LeafWriter}. */
  readonly index: number;
  /** Path in the Parquet schema, including the `list`/`element` levels, e.g. ["tuples", "list", "element", "index"]. */
  readonly path: readonly string[];
  readonly type: LeafType;
  readonly maxDef: number;
  readonly maxRep: number;
}

/**
 * A node of the record tree, annotated with the Dremel levels of its Parquet layout. Every node is
 * optional, as DuckDB writes them, so a present value raises the definition level by one at each level.
 * `def` is the definition level reached when the node's value is present (not null).
 */
export type PlanNode = LeafNode | StructNode | ListNode | MapNode;

export interface LeafNode {
  readonly kind: "leaf";
  readonly def: number;
  readonly leaf: Leaf;
}

export interface StructNode {
  readonly kind: "struct";
  readonly def: number;
  readonly fields: readonly PlanField[];
  /** Indexes of every leaf below. */
  readonly leaves: readonly number[];
}

/**
 * A list in the 3-level layout `optional group name (LIST) { repeated group list { optional element } }`.
 * `def` is reached by a present list, `def + 1` by a non-empty one, `item.def === def + 2` by a present item.
 */
export interface ListNode {
  readonly kind: "list";
  readonly def: number;
  /** Repetition level of every item after the first. */
  readonly rep: number;
  readonly item: PlanNode;
  readonly leaves: readonly number[];
}

/**
 * A map written as a list of `{key, value}` structs (the layout Hugging Face `datasets` loads); the levels
 * are those of a list whose item is `entry`.
 */
export interface MapNode {
  readonly kind: "map";
  readonly def: number;
  readonly rep: number;
  /** The `{key, value}` struct: `entry.fields[0]` is the key (a string leaf), `entry.fields[1]` the value. */
  readonly entry: StructNode;
  readonly leaves: readonly number[];
}

export interface PlanField {
  readonly name: string;
  readonly node: PlanNode;
}

/** The record tree of a dataset's columns with its Parquet leaves. */
export interface ColumnPlan {
  readonly fields: readonly PlanField[];
  readonly leaves: readonly Leaf[];
  /** The columns the plan was made from. */
  readonly columns: readonly Field[];
}

/** Lays out columns as Parquet leaves with their definition and repetition levels. */
export function columnPlan(columns: readonly Field[]): ColumnPlan {
  if (columns.length === 0) throw new ConfigError("Cannot lay out a Parquet file without columns");
  const leaves: Leaf[] = [];

  const node = (type: ColumnType, path: readonly string[], def: number, rep: number): PlanNode => {
    switch (type.kind) {
      case "struct": {
        if (type.fields.length === 0) throw new ConfigError(`${path.join(".")} is a struct without fields, which Parquet cannot store`);
        const first = leaves.length;
        const fields = type.fields.map((f) => ({ name: f.name, node: node(f.type, [...path, f.name], def + 1, rep) }));
        return { kind: "struct", def, fields, leaves: range(first, leaves.length) };
      }
      case "list": {
        const first = leaves.length;
        const item = node(type.item, [...path, "list", "element"], def + 2, rep + 1);
        return { kind: "list", def, rep: rep + 1, item, leaves: range(first, leaves.length) };
      }
      case "map": {
        const first = leaves.length;
        const at = [...path, "list", "element"];
        const entryDef = def + 2;
        const key = node({ kind: "string" }, [...at, "key"], entryDef + 1, rep + 1);
        const value = node(type.value, [...at, "value"], entryDef + 1, rep + 1);
        const entry: StructNode = {
          kind: "struct",
          def: entryDef,
          fields: [
            { name: "key", node: key },
            { name: "value", node: value },
          ],
          leaves: range(first, leaves.length),
        };
        return { kind: "map", def, rep: rep + 1, entry, leaves: entry.leaves };
      }
      default: {
        const leaf: Leaf = { index: leaves.length, path, type: type.kind, maxDef: def, maxRep: rep };
        leaves.push(leaf);
        return { kind: "leaf", def, leaf };
      }
    }
  };

  const fields = columns.map((f) => ({ name: f.name, node: node(f.type, [f.name], 1, 0) }));
  return { fields, leaves, columns };
}

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from }, (_, i) => from + i);
}
