import { Buffer } from "node:buffer";
import type { LeafWriter } from "../../../parquet/leaf-writer.js";
import { redaction } from "../../../stages/redaction.js";
import { Utf8Ranges } from "../../../views/utf8-range.js";
import { LIST, MAP, STRUCT, structsWithSlots } from "./schema-node.js";
import type { SchemaNode, SkeletonBuilder } from "./schema-node.js";
import { ShortStrings } from "./short-strings.js";
import { WASM_SCAN } from "./wasm-scan.js";
import { walkTable } from "./walk-table.js";
import type { WalkAudit } from "./walk-audit.js";
import type { RowRoute } from "./row-route.js";

// The tape's ops, as wasm/walk.ts writes them.
const OP_STR = 1;
const OP_CHOICE = 2;
const OP_NUM = 3;
const OP_NUM_TEXT = 4;
const OP_BOOL = 5;
const OP_NULL = 6;
const OP_JSON = 7;
const OP_MISSING = 8;
const OP_MAP_KEY = 9;
const OP_OPEN = 10;
const OP_CLOSE = 11;
const OP_FLAGGED = 12;

/** The walk's form check of a skeleton JSON value (src/engines/parallel/wasm/walk.ts's OP_JSON), as `Utf8Range.checked`. */
const JSON_FORM: readonly (boolean | null)[] = [null, false, true, null];

/** Node's Buffer has these since forever; `toString` ends up calling them, after argument checks that cost more. */
interface Slicer {
  utf8Slice(start: number, end: number): string;
  latin1Slice(start: number, end: number): string;
}

/**
 * The fast parser's walk for lines in this thread's wasm scan memory (a worker's batch, or the spare line):
 * the wasm module walks the line along the schema's table and leaves a tape (wasm/walk.ts), which this
 * replays into the leaf writers and the skeleton. Its answers are zod's, which the differential tests check.
 */
export class WasmWalker {
  readonly #root: SchemaNode;
  #rootAt = 0;
  /** The module instance this schema's table did not fit, or any when the walk cannot take it (the slow path then takes every line). */
  #unfitFor: object | null = null;
  #nodes: readonly SchemaNode[] = [];
  #slotOf: Int32Array<ArrayBufferLike> = new Int32Array(0);
  #words: Int32Array<ArrayBufferLike> = new Int32Array(0);
  #doubles: Float64Array<ArrayBufferLike> = new Float64Array(0);
  #memory: Buffer = Buffer.alloc(0);
  readonly #strings = new ShortStrings();
  /** The skeleton's byte ranges (a view's texts and JSON values), reused line after line. */
  readonly #ranges = new Utf8Ranges();
  readonly #slotted: readonly SchemaNode[];
  // The skeleton's open structs, lists and maps: the node, a list's array or a map's object, a map's key.
  readonly #open: SchemaNode[] = [];
  readonly #made: unknown[] = [];
  readonly #keys: string[] = [];
  /** The string node {@link runRouted} reads a line's route key from, and its id on the tape (-1: none). */
  readonly #routeNode: SchemaNode | null;
  #routeId = -1;

  constructor(root: SchemaNode, routeNode: SchemaNode | null = null) {
    this.#root = root;
    this.#slotted = structsWithSlots(root);
    this.#routeNode = routeNode;
  }

  /** Whether the walk can take lines in this thread's scan memory: there is some, and the table fits it. */
  ready(): boolean {
    return WASM_SCAN.tableOwner === this || (this.#unfitFor !== WASM_SCAN.exports && this.#load());
  }

  /**
   * Walks the line `[start, end)` of `buf` (a view of the scan memory; {@link ready} said so): the skeleton,
   * or null when the line is not vouched for. Bytes handed to `out` are valid only during the call. `audit`
   * gets the answers of the values the walk audits (schema-node.ts's `auditSlot`).
   */
  run(buf: Uint8Array, start: number, end: number, out: readonly LeafWriter[], audit: WalkAudit | null = null): Record<string, unknown> | null {
    const ops = WASM_SCAN.exports.walk(this.#rootAt, buf.byteOffset + start, buf.byteOffset + end);
    if (ops < 0) return null;
    audit?.walked();
    return this.#replay(ops, out, audit);
  }

  /**
   * {@link run}, writing where `route` picks from the line's route key, read off the tape before the replay
   * writes anything (the key is a top-level string or one in a struct near the line's start: a few ops in).
   */
  runRouted(buf: Uint8Array, start: number, end: number, route: RowRoute): Record<string, unknown> | null {
    const ops = WASM_SCAN.exports.walk(this.#rootAt, buf.byteOffset + start, buf.byteOffset + end);
    if (ops < 0) {
      route.pick(null);
      return null;
    }
    route.pick(this.#routeKey(ops));
    const audit = route.audit;
    audit?.walked();
    return this.#replay(ops, route.out, audit);
  }

  /**
   * The route key on the tape of `ops` ops: the first op of the route's node, if a string. A function of its
   * own, so its loop is compiled apart from the replay: docs/decisions.md "hot code shape", compile size.
   */
  #routeKey(ops: number): string | null {
    const words = this.#words;
    const id = this.#routeId;
    for (let k = WASM_SCAN.walk.tape >> 2, stop = k + 4 * ops; k < stop; k += 4) {
      if (words[k + 1] !== id) continue;
      return ((words[k] as number) & 0xff) === OP_STR ? this.#strings.get(this.#memory, words[k + 2] as number, words[k + 3] as number) : null;
    }
    return null;
  }

  #load(): boolean {
    const { table: at, tableBytes } = WASM_SCAN.walk;
    if (tableBytes === 0) return false;
    const table = walkTable(this.#root, at);
    if (table === null || table.bytes.length > tableBytes) {
      this.#unfitFor = WASM_SCAN.exports;
      return false;
    }
    const buffer = WASM_SCAN.buffer as ArrayBuffer;
    new Uint8Array(buffer, at, table.bytes.length).set(table.bytes);
    this.#rootAt = table.root;
    this.#nodes = table.nodes;
    this.#slotOf = table.slotOf;
    this.#routeId = this.#routeNode === null ? -1 : table.nodes.indexOf(this.#routeNode);
    this.#words = new Int32Array(buffer);
    this.#doubles = new Float64Array(buffer);
    this.#memory = Buffer.from(buffer);
    WASM_SCAN.tableOwner = this;
    return true;
  }

  #replay(ops: number, out: readonly LeafWriter[], audit: WalkAudit | null): Record<string, unknown> | null {
    const words = this.#words;
    const nodes = this.#nodes;
    const mem = this.#memory;
    const ranges = this.#ranges;
    let result: unknown = null;
    let top = -1;
    ranges.reset();
    for (let k = WASM_SCAN.walk.tape >> 2, stop = k + 4 * ops; k < stop; k += 4) {
      const word = words[k] as number;
      const rep = (word >>> 8) & 0xff;
      const id = words[k + 1] as number;
      const node = nodes[id] as SchemaNode;
      const start = words[k + 2] as number;
      const end = words[k + 3] as number;
      // What the op writes, done after the switch: one call site per writer (docs/decisions.md "hot code shape", compile size).
      let bytesTo = -1;
      let missingAt = -1;
      let value: unknown = null;
      let skeleton = false;
      switch (word & 0xff) {
        case OP_STR:
          if (node.written) {
            if (!node.redact) bytesTo = node.leaf;
            else (out[node.leaf] as LeafWriter).text(redaction((value = (mem as unknown as Slicer).utf8Slice(start, end))), rep);
          }
          // Escapes are decoded on the tape: a string a view takes as bytes (rl-steps' window texts) is always its
          // UTF-8, with the walk's byte check (`def` 1: cleared, 2: may matter).
          if ((skeleton = node.skeleton)) value ??= node.asBytes ? ranges.next(mem, start, end, word >>> 16 === 1) : this.#strings.get(mem, start, end);
          // An audited text: one value; the audit decodes it only if the walk's check says it may matter.
          if (node.auditSlot >= 0 && audit !== null) {
            audit.value(node.auditSlot, 2);
            if (word >>> 16 === 2) audit.flagged(node.auditSlot, (mem as unknown as Slicer).utf8Slice(start, end));
          }
          break;
        case OP_CHOICE:
          value = node.choiceValues[word >>> 16] as string;
          if (node.written) {
            if (!node.redact) bytesTo = node.leaf;
            else (out[node.leaf] as LeafWriter).text(redaction(value), rep);
          }
          skeleton = node.skeleton;
          break;
        case OP_JSON:
          // strip replaces the value by its redaction string, which the JSON leaf then holds as JSON text.
          if (!node.written) {
            // On the tape for the skeleton alone (a training view reads it).
          } else if (!node.redact) bytesTo = node.leaf;
          else (out[node.leaf] as LeafWriter).text(JSON.stringify(redaction(JSON.parse((mem as unknown as Slicer).utf8Slice(start, end)))), rep);
          // In the skeleton as its JSON text's bytes (valid while the view reads this line); the view parses it if it must.
          // With the walk's form check: `def` 1 not JSON.stringify's text, 2 it is, 3 JS must tell.
          if ((skeleton = node.skeleton)) value = ranges.next(mem, start, end, JSON_FORM[word >>> 16] as boolean | null);
          else if (node.auditSlot >= 0) audit?.value(node.auditSlot, word >>> 16);
          break;
        case OP_FLAGGED:
          audit?.flagged(node.auditSlot, JSON.parse((mem as unknown as Slicer).utf8Slice(start, end)) as string);
          break;
        case OP_MAP_KEY:
          if (node.written && !node.valuesDropped) bytesTo = node.keyLeaf;
          if (node.skeleton) this.#keys[top] = this.#strings.get(mem, start, end);
          break;
        case OP_NUM:
        case OP_NUM_TEXT: {
          const v = (word & 0xff) === OP_NUM ? (this.#doubles[(k >> 1) + 1] as number) : this.#checked(node, start, end);
          if (v === undefined) return this.#decline();
          if (node.written) {
            const w = out[node.leaf] as LeafWriter;
            if (node.int) w.int64(v, rep);
            else w.float64(v, rep);
          }
          value = v;
          skeleton = node.skeleton;
          break;
        }
        case OP_BOOL:
          value = start === 1;
          if (node.written) (out[node.leaf] as LeafWriter).bool(value as boolean, rep);
          skeleton = node.skeleton;
          break;
        case OP_NULL:
          if (node.written) missingAt = node.def - 1;
          skeleton = node.skeleton;
          break;
        case OP_MISSING:
          missingAt = word >>> 16;
          break;
        case OP_OPEN:
          this.#open[++top] = node;
          this.#made[top] = node.kind === LIST ? [] : node.kind === MAP ? {} : null;
          break;
        case OP_CLOSE:
          value = node.kind === STRUCT ? (node.build as SkeletonBuilder)(node.slots) : this.#made[top];
          this.#made[top--] = null;
          if (top < 0) result = value;
          else skeleton = true;
          break;
        default:
          throw new Error(`Internal error: op ${word & 0xff} on the walk's tape`);
      }
      if (bytesTo >= 0) (out[bytesTo] as LeafWriter).bytes(mem, start, end, rep);
      else if (missingAt >= 0) for (const leaf of node.leaves) (out[leaf] as LeafWriter).missing(missingAt, rep);
      if (!skeleton) continue;
      // A skeleton value, for the innermost open struct, list or map.
      const parent = this.#open[top] as SchemaNode;
      if (parent.kind === STRUCT) parent.slots[this.#slotOf[id] as number] = value;
      else if (parent.kind === LIST) (this.#made[top] as unknown[]).push(value);
      else (this.#made[top] as Record<string, unknown>)[this.#keys[top] as string] = value;
    }
    return result as Record<string, unknown>;
  }

  /** A number whose text the walk left to JS: its value, as JSON.parse gives it, if zod's checks pass. */
  #checked(node: SchemaNode, start: number, end: number): number | undefined {
    const v = Number((this.#memory as unknown as Slicer).latin1Slice(start, end));
    if (node.int ? !Number.isSafeInteger(v) : !Number.isFinite(v)) return undefined;
    if (v < node.min || (v === node.min && !node.minInclusive) || v > node.max || (v === node.max && !node.maxInclusive)) return undefined;
    return v;
  }

  /** Abandons a replay half way: slots of optional fields are cleared as each struct completes, so some are set. */
  #decline(): null {
    for (const node of this.#slotted) node.slots.fill(undefined);
    this.#made.fill(null);
    return null;
  }
}
