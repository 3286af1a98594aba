import { JSON_VALUE } from "./schema-node.js";
import type { SchemaNode } from "./schema-node.js";

/** Bytes per node, field and (address, length) record; the layout src/engines/parallel/wasm/walk.ts reads. */
const NODE_BYTES = 80;
const FIELD_BYTES = 16;
const STRING_BYTES = 8;

/** Node flags, as src/engines/parallel/wasm/walk.ts tests them. */
const NULLABLE = 1;
const INT = 2;
const MIN_INCLUSIVE = 4;
const MAX_INCLUSIVE = 8;
const WRITTEN = 16;
const REDACT = 32;
const PRUNE_IF_EMPTY = 64;
const VALUES_DROPPED = 128;
const SKELETON = 256;
/**
 * The walk checks the value's bytes for the view that takes them as bytes (`rl-steps`): a string's text with the
 * view's byte pass, a JSON value's text with the JSON.stringify-form check; the answer rides on the tape.
 */
const CHECKED = 512;
/**
 * The text audit reads the value (schema-node.ts's `auditSlot`): a JSON value is skipped with the audit's pass
 * folded in, a string's text checked as CHECKED checks it.
 */
const AUDITED = 1024;
/** A field record's flag: the policy drops the field. */
const DROPPED = 1 << 8;

/** A compiled schema laid out for the wasm walk, at a given address of the module's memory. */
export interface WalkTable {
  /** The table's bytes, to be copied to the address it was laid out for. */
  readonly bytes: Uint8Array;
  /** The root node's address. */
  readonly root: number;
  /** Nodes by the id the tape names them with. */
  readonly nodes: readonly SchemaNode[];
  /** By node id: the node's field index in its parent struct, or -1. */
  readonly slotOf: Int32Array;
}

/** Choices per enum the tape can name: a choice's number travels in an op's 16-bit `def` field. */
const MAX_CHOICES = 0xffff;

/**
 * Lays out the schema tree under `root` as the wasm walk's table, for memory address `base`: node records
 * (kind, flags, levels, number bounds, where their fields, choices and forbidden keys are), then field and
 * string records, then the key and choice bytes. Every address in it is absolute. Null when the walk cannot
 * take the schema (an enum of more than 65,535 choices): the slow path then takes every line.
 */
export function walkTable(root: SchemaNode, base: number): WalkTable | null {
  const nodes: SchemaNode[] = [];
  const parents: number[] = [];
  const visit = (node: SchemaNode, slot: number): void => {
    nodes.push(node);
    parents.push(slot);
    node.fields.forEach((f, k) => visit(f.node, k));
    if (node.item !== null) visit(node.item, -1);
  };
  visit(root, -1);
  if (nodes.some((node) => node.choices.length > MAX_CHOICES)) return null;
  const fieldCount = nodes.reduce((n, node) => n + node.fields.length, 0);
  const strings = nodes.flatMap((node) => [...node.choices, ...node.forbiddenKeys]);
  const fieldsAt = nodes.length * NODE_BYTES;
  const stringsAt = fieldsAt + fieldCount * FIELD_BYTES;
  let bytesAt = stringsAt + strings.length * STRING_BYTES;
  const size = bytesAt + nodes.reduce((n, node) => n + node.fields.reduce((m, f) => m + f.key.length, 0), 0) + strings.reduce((n, s) => n + s.length, 0);
  const bytes = new Uint8Array(size);
  const view = new DataView(bytes.buffer);
  const address = new Map(nodes.map((node, id) => [node, base + id * NODE_BYTES]));
  const put = (data: Uint8Array): number => {
    bytes.set(data, bytesAt);
    bytesAt += data.length;
    return base + bytesAt - data.length;
  };
  let fieldAt = fieldsAt;
  let stringAt = stringsAt;
  const records = (list: readonly Uint8Array[]): number => {
    const first = base + stringAt;
    for (const s of list) {
      view.setUint32(stringAt, put(s), true);
      view.setUint32(stringAt + 4, s.length, true);
      stringAt += STRING_BYTES;
    }
    return first;
  };
  nodes.forEach((node, id) => {
    const at = id * NODE_BYTES;
    view.setInt32(at, node.kind, true); // the wasm's kind numbers are schema-node.ts's
    view.setUint32(at + 4, flagsOf(node), true);
    view.setInt32(at + 8, node.def, true);
    view.setInt32(at + 12, node.rep, true);
    view.setUint32(at + 16, base + fieldAt, true);
    view.setInt32(at + 20, node.fields.length, true);
    for (const f of node.fields) {
      view.setUint32(fieldAt, put(f.key), true);
      view.setUint32(fieldAt + 4, f.key.length, true);
      view.setUint32(fieldAt + 8, address.get(f.node) as number, true);
      view.setUint32(fieldAt + 12, (31 - Math.clz32(f.bit)) | (f.dropped ? DROPPED : 0), true);
      fieldAt += FIELD_BYTES;
    }
    view.setUint32(at + 24, node.item === null ? 0 : (address.get(node.item) as number), true);
    view.setUint32(at + 28, node.requiredMask >>> 0, true);
    view.setUint32(at + 32, node.fieldMask >>> 0, true);
    view.setUint32(at + 36, records(node.choices), true);
    view.setInt32(at + 40, node.choices.length, true);
    view.setUint32(at + 44, records(node.forbiddenKeys), true);
    view.setInt32(at + 48, node.forbiddenKeys.length, true);
    view.setInt32(at + 52, id, true);
    view.setFloat64(at + 64, node.min, true);
    view.setFloat64(at + 72, node.max, true);
  });
  return { bytes, root: base, nodes, slotOf: Int32Array.from(parents) };
}

function flagsOf(node: SchemaNode): number {
  return (
    (node.nullable ? NULLABLE : 0) |
    (node.int ? INT : 0) |
    (node.minInclusive ? MIN_INCLUSIVE : 0) |
    (node.maxInclusive ? MAX_INCLUSIVE : 0) |
    (node.written ? WRITTEN : 0) |
    (node.redact ? REDACT : 0) |
    (node.pruneIfEmpty ? PRUNE_IF_EMPTY : 0) |
    (node.valuesDropped ? VALUES_DROPPED : 0) |
    (node.skeleton ? SKELETON : 0) |
    (node.asBytes || (node.kind === JSON_VALUE && node.skeleton) ? CHECKED : 0) |
    (node.auditSlot >= 0 ? AUDITED : 0)
  );
}
