/** What a {@link SchemaNode} accepts. Plain numbers (not an enum): the wasm walk's table carries them as they are (walk-table.ts). */
export type NodeKind = typeof STRING | typeof CHOICE | typeof NUMBER | typeof BOOLEAN | typeof STRUCT | typeof LIST | typeof MAP | typeof JSON_VALUE;
/** Any string: free text. */
export const STRING = 0;
/** One of a fixed set of strings (`z.enum`, a string `z.literal`). */
export const CHOICE = 1;
export const NUMBER = 2;
export const BOOLEAN = 3;
/** `z.object` in zod's default strip mode. */
export const STRUCT = 4;
export const LIST = 5;
/** `z.record(z.string(), value)`. */
export const MAP = 6;
/** A JSON-typed value, kept as its raw JSON text; `item` validates it, or null for any JSON (`z.json()`). */
export const JSON_VALUE = 7;

/** Makes a struct's skeleton object from its fields' skeleton values (by field index). */
export type SkeletonBuilder = (slots: readonly unknown[]) => Record<string, unknown>;

/** A declared key of a struct. */
export interface FieldSlot {
  readonly name: string;
  /** The key's UTF-8 bytes, compared against the line's raw key bytes. */
  readonly key: Uint8Array;
  readonly node: SchemaNode;
  readonly optional: boolean;
  /** This field's bit in the struct's masks. */
  readonly bit: number;
  /** The untrusted policy drops the field: validated, never written, and gone from the stripped record. */
  dropped: boolean;
  /** The spec calls the field's text untrusted (LLM-generated or operator text): no record rule reads it. */
  untrusted: boolean;
}

/**
 * One position of a record schema, compiled from zod and then annotated with the untrusted policy and the
 * Parquet plan. Every node has every property (one object shape: docs/decisions.md "hot code shape", one
 * shape); the ones a kind does not use keep their defaults.
 */
export class SchemaNode {
  /** Accepts JSON null (`.nullable()`, or any JSON). */
  nullable = false;

  // CHOICE
  choices: readonly Uint8Array[] = [];
  choiceValues: readonly string[] = [];

  // NUMBER: zod's checks, inclusive or not.
  int = false;
  min = -Infinity;
  minInclusive = true;
  max = Infinity;
  maxInclusive = true;

  // STRUCT
  fields: readonly FieldSlot[] = [];
  /** Bits of the fields that must be present. */
  requiredMask = 0;
  /** Bits of all fields. */
  fieldMask = 0;
  /** Unknown keys that make the line unusual (other formats' version fields, `error`); root only. */
  forbiddenKeys: readonly Uint8Array[] = [];

  /** LIST item, MAP value, or the validator of a JSON_VALUE (null: any JSON). */
  item: SchemaNode | null = null;

  // Untrusted policy (apply-policy.ts); the wasm walk and record-stripper.ts follow these marks.
  /** Write `redaction(value)` instead of the value. */
  redact = false;
  /** A drop rule passes through this struct or map, so strip deletes it from its parent when it ends up empty. */
  pruneIfEmpty = false;
  /** MAP whose values a drop rule (`path.*`) removes: every entry is deleted. */
  valuesDropped = false;

  // Parquet plan.
  /** The node has a place in the plan and its value survives the policy. */
  written = false;
  /** Leaf index of a written STRING, CHOICE, NUMBER, BOOLEAN or JSON_VALUE; -1 otherwise. */
  leaf = -1;
  /** Definition level of a present value. */
  def = 0;
  /** LIST, MAP: repetition level of every item after the first. */
  rep = 0;
  /** Every leaf index below, for absent, null and empty values. */
  leaves: readonly number[] = [];
  /** MAP: the leaf of entry keys. */
  keyLeaf = -1;

  /** The value appears in the skeleton handed to `facts` and `check`. */
  skeleton = false;
  /** STRING in the skeleton: there as its UTF-8 bytes (a `Utf8Range`), not a JS string, for a view that writes them. */
  asBytes = false;
  /**
   * STRING or JSON_VALUE (any JSON, not in the skeleton), written as it is, whose text the plain run's audit
   * reads: its slot among the values the wasm walk audits as it walks them (walk-audit.ts); -1 otherwise.
   */
  auditSlot = -1;
  /** STRUCT in the skeleton: the skeleton values of its fields, by field index, while it is walked. */
  slots: unknown[] = [];
  /** STRUCT in the skeleton: makes its skeleton object from {@link slots}, and clears the slots of optional fields. */
  build: SkeletonBuilder | null = null;

  constructor(readonly kind: NodeKind) {}
}

/** The node's kind as a word, for compile-time error messages. */
export function kindName(kind: NodeKind): string {
  return ["string", "enum", "number", "boolean", "object", "array", "record", "json"][kind] ?? String(kind);
}

/** The structs below `node` (itself included) whose skeleton slots a walk fills. */
export function structsWithSlots(node: SchemaNode, out: SchemaNode[] = []): SchemaNode[] {
  if (node.build !== null) out.push(node);
  for (const f of node.fields) structsWithSlots(f.node, out);
  if (node.item !== null) structsWithSlots(node.item, out);
  return out;
}
