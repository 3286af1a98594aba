import type { ColumnPlan, LeafType, PlanNode } from "./column-plan.js";
import { CompactType } from "./thrift-writer.js";
import type { ThriftWriter } from "./thrift-writer.js";

/** One Parquet SchemaElement, before serialization. */
export interface SchemaElement {
  readonly name: string;
  /** Physical type of a leaf (parquet.thrift `Type`); undefined for groups. */
  readonly type?: number;
  /** `FieldRepetitionType`: 0 required, 1 optional, 2 repeated. */
  readonly repetition: number;
  readonly numChildren?: number;
  /** `ConvertedType`. */
  readonly convertedType?: number;
  /** Writes the LogicalType union's member, e.g. `t.emptyStruct(1)` for STRING. */
  readonly logicalType?: (t: ThriftWriter) => void;
}

const REQUIRED = 0;
const OPTIONAL = 1;
const REPEATED = 2;
/** ConvertedType values. */
const UTF8 = 0;
const LIST = 3;
const INT_64 = 18;

/** Physical type, converted type and logical type of each leaf type, as DuckDB writes them (json aside). */
const LEAVES: Readonly<Record<LeafType, Pick<SchemaElement, "type" | "convertedType" | "logicalType">>> = {
  string: { type: 6, convertedType: UTF8, logicalType: (t) => t.emptyStruct(1) },
  // JSON text as a plain string, not the JSON logical type: readers disagreed on that one (pyarrow's arrow.json
  // extension, DuckDB's JSON, polars' Binary, datasets' Json feature), while every reader reads a string as a
  // string (docs/decisions.md).
  json: { type: 6, convertedType: UTF8, logicalType: (t) => t.emptyStruct(1) },
  int64: { type: 2, convertedType: INT_64, logicalType: (t) => t.struct(10).byte(1, 64).bool(2, true).end() },
  float64: { type: 5 },
  bool: { type: 0 },
};

/** The Parquet physical type (parquet.thrift `Type`) of a leaf type. */
export function physicalType(type: LeafType): number {
  return LEAVES[type].type as number;
}

/**
 * The plan's schema as Parquet's flat, depth-first list of elements: the root ("schema", required, as
 * DuckDB and Arrow write it), every field optional, lists in the 3-level layout with a repeated `list`
 * group, and maps as lists of `{key, value}` structs (no MAP annotation, which `datasets` cannot load).
 */
export function schemaElements(plan: ColumnPlan): SchemaElement[] {
  const elements: SchemaElement[] = [{ name: "schema", repetition: REQUIRED, numChildren: plan.fields.length }];
  const visit = (name: string, node: PlanNode): void => {
    switch (node.kind) {
      case "leaf":
        elements.push({ name, repetition: OPTIONAL, ...LEAVES[node.leaf.type] });
        return;
      case "struct":
        elements.push({ name, repetition: OPTIONAL, numChildren: node.fields.length });
        for (const f of node.fields) visit(f.name, f.node);
        return;
      case "list":
      case "map":
        elements.push({ name, repetition: OPTIONAL, numChildren: 1, convertedType: LIST, logicalType: (t) => t.emptyStruct(3) });
        elements.push({ name: "list", repetition: REPEATED, numChildren: 1 });
        visit("element", node.kind === "list" ? node.item : node.entry);
        return;
    }
  };
  for (const f of plan.fields) visit(f.name, f.node);
  return elements;
}

/** Writes `elements` as FileMetaData field 2, `list<SchemaElement>`. */
export function writeSchemaElements(t: ThriftWriter, elements: readonly SchemaElement[]): void {
  t.list(2, CompactType.STRUCT, elements.length);
  for (const e of elements) {
    t.itemStruct();
    if (e.type !== undefined) t.i32(1, e.type);
    t.i32(3, e.repetition).string(4, e.name);
    if (e.numChildren !== undefined) t.i32(5, e.numChildren);
    if (e.convertedType !== undefined) t.i32(6, e.convertedType);
    if (e.logicalType !== undefined) {
      t.struct(10);
      e.logicalType(t);
      t.end();
    }
    t.end();
  }
}
