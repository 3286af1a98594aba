import type { NodeKind } from "./schema-node.js";
import { SchemaNode } from "./schema-node.js";

/**
 * A compiled schema ({@link SchemaNode} tree, as `compileSchema` leaves it: before the untrusted policy and
 * the Parquet plan) as JSON data, so it can be written at build time and read without zod. Key and choice
 * bytes are left out: they are the UTF-8 of the names and values.
 */
export interface PlainSchemaNode {
  readonly kind: NodeKind;
  readonly nullable: boolean;
  readonly choiceValues?: readonly string[];
  readonly int?: boolean;
  /** null stands for an open end (JSON has no infinities). */
  readonly min?: number | null;
  readonly minInclusive?: boolean;
  readonly max?: number | null;
  readonly maxInclusive?: boolean;
  readonly fields?: readonly PlainField[];
  readonly item?: PlainSchemaNode | null;
}

export interface PlainField {
  readonly name: string;
  readonly optional: boolean;
  readonly node: PlainSchemaNode;
}

const encoder = new TextEncoder();

export function plainSchemaOf(node: SchemaNode): PlainSchemaNode {
  return {
    kind: node.kind,
    nullable: node.nullable,
    ...(node.choiceValues.length === 0 ? {} : { choiceValues: node.choiceValues }),
    ...(node.int ? { int: true } : {}),
    ...(node.min === -Infinity ? {} : { min: node.min, minInclusive: node.minInclusive }),
    ...(node.max === Infinity ? {} : { max: node.max, maxInclusive: node.maxInclusive }),
    ...(node.fields.length === 0 ? {} : { fields: node.fields.map((f) => ({ name: f.name, optional: f.optional, node: plainSchemaOf(f.node) })) }),
    ...(node.item === null ? {} : { item: plainSchemaOf(node.item) }),
  };
}

/** The {@link SchemaNode} tree again, as `compileSchema` made it (a fresh tree: policy and plan annotate it in place). */
export function schemaNodeOf(plain: PlainSchemaNode): SchemaNode {
  const node = new SchemaNode(plain.kind);
  node.nullable = plain.nullable;
  if (plain.choiceValues !== undefined) {
    node.choiceValues = plain.choiceValues;
    node.choices = plain.choiceValues.map((v) => encoder.encode(v));
  }
  node.int = plain.int === true;
  if (plain.min !== undefined) {
    node.min = plain.min ?? -Infinity;
    node.minInclusive = plain.minInclusive !== false;
  }
  if (plain.max !== undefined) {
    node.max = plain.max ?? Infinity;
    node.maxInclusive = plain.maxInclusive !== false;
  }
  node.fields = (plain.fields ?? []).map((f, i) => {
    if (!f.optional) node.requiredMask |= 1 << i;
    node.fieldMask |= 1 << i;
    return { name: f.name, key: encoder.encode(f.name), node: schemaNodeOf(f.node), optional: f.optional, bit: 1 << i, dropped: false, untrusted: false };
  });
  node.item = plain.item === undefined || plain.item === null ? null : schemaNodeOf(plain.item);
  return node;
}
