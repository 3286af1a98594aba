import { Buffer } from "node:buffer";
import type { ColumnPlan } from "../../../parquet/column-plan.js";
import type { LeafWriter } from "../../../parquet/leaf-writer.js";
import { redaction } from "../../../stages/redaction.js";
import { Utf8Ranges } from "../../../views/utf8-range.js";
import { primingLines } from "./priming-lines.js";
import { JSON_VALUE, LIST, MAP, STRING, STRUCT, structsWithSlots } from "./schema-node.js";
import type { SchemaNode, SkeletonBuilder } from "./schema-node.js";
import { ShortStrings } from "./short-strings.js";
import { spareLine, WASM_SCAN } from "./wasm-scan.js";
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
 * A byte-level parser for the lines of one format under one untrusted policy (made by `lineParserOf`): the
 * thread's wasm scan module walks a line along the schema's table and leaves a tape (wasm/walk.ts), which
 * this replays into the leaf writers and the skeleton. Its answers are zod's, which the differential tests
 * check. Not reentrant: one parser per thread.
 */
export class LineParser {
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
  /** The string node {@link parseRouted} reads a line's route key from, and its id on the tape (-1: none). */
  readonly #routeNode: SchemaNode | null;
  #routeId = -1;

  /**
   * `plan`: `columnPlan(outputColumns(format, policy))`, the leaves {@link parse} writes, in writer order.
   * `routeNode`: the string node {@link parseRouted} routes rows by.
   */
  constructor(
    root: SchemaNode,
    readonly plan: ColumnPlan,
    routeNode: SchemaNode | null = null,
  ) {
    this.#root = root;
    this.#slotted = structsWithSlots(root);
    this.#routeNode = routeNode;
  }

  /** Whether the walk can take lines in this thread's scan memory: there is some, and the table fits it. */
  ready(): boolean {
    return WASM_SCAN.tableOwner === this || (this.#unfitFor !== WASM_SCAN.exports && this.#load());
  }

  /**
   * Parses bytes `[start, end)` of `buf` (one line, no line end, valid UTF-8 guaranteed by the caller).
   * When the line is certainly a record of the format at exactly its version that zod accepts, writes one
   * row into `out` (the entries `shredRecord` would write for the stripped record; JSON-typed values as
   * their raw text) and returns the record's skeleton: the zod output (before strip) without JSON-typed
   * values, free-text strings inside lists and the text the spec calls untrusted (or, for a parser made with
   * `reads`, with just those paths), absent optional fields as `undefined`; it is what `format.facts` and
   * `format.check` read (the caller runs them; a `check` fault is not the parser's business). Returns null
   * when it cannot vouch for the line, invalid or merely unusual; the caller then discards what was written
   * for this row and runs the slow path. Bytes handed to `out` are valid only during the call. `audit` gets
   * the answers of the values {@link auditWhileWalking} took, when the walk vouches for the line.
   */
  parse(buf: Uint8Array, start: number, end: number, out: readonly LeafWriter[], audit: WalkAudit | null = null): Record<string, unknown> | null {
    const ops = this.#walk(buf, start, end);
    if (ops < 0) return null;
    audit?.walked();
    return this.#replay(ops, out, audit);
  }

  /**
   * {@link parse}, writing the row where `route` picks (called once, before anything is written) from the
   * line's string at the parser's route path, read off the tape before the replay writes anything (the key
   * is a top-level string or one in a struct near the line's start: a few ops in); for a parser made
   * without one, or a line the walk declines, the key is null.
   */
  parseRouted(buf: Uint8Array, start: number, end: number, route: RowRoute): Record<string, unknown> | null {
    const ops = this.#walk(buf, start, end);
    route.pick(ops < 0 ? null : this.#routeKey(ops));
    if (ops < 0) return null;
    route.audit?.walked();
    return this.#replay(ops, route.out, route.audit);
  }

  /**
   * Of the text and JSON leaves the text audit reads (`leaves`), the ones the wasm walk audits as it walks them
   * (free text and any JSON, written as they are; JSON not in the skeleton), in slot order (see {@link WalkAudit}).
   * Before the first parse.
   */
  auditWhileWalking(leaves: readonly number[]): number[] {
    const taken: number[] = [];
    const visit = (node: SchemaNode): void => {
      const json = node.kind === JSON_VALUE && node.item === null && !node.skeleton;
      if ((json || node.kind === STRING) && node.written && !node.redact && leaves.includes(node.leaf)) node.auditSlot = taken.push(node.leaf) - 1;
      for (const f of node.fields) visit(f.node);
      if (node.item !== null) visit(node.item);
    };
    visit(this.#root);
    return taken;
  }

  /** Lines made from `line` that take the parser's rarely taken paths, to walk once before real work (see {@link primingLines}). */
  primingLines(line: string): Buffer[] {
    return primingLines(this.#root, line);
  }

  /**
   * The walk of the line `[start, end)` of `buf`: its tape's op count, or -1 when it is not vouched for. A line
   * in this thread's scan memory (a worker's batch) is walked where it lies; any other is copied into its spare
   * line first (none: too long for it, and the slow path takes the line).
   */
  #walk(buf: Uint8Array, start: number, end: number): number {
    const line = buf.buffer === WASM_SCAN.buffer ? buf : spareLine(buf.subarray(start, end));
    if (line === null || !this.ready()) return -1;
    const from = line === buf ? start : 0;
    return WASM_SCAN.exports.walk(this.#rootAt, line.byteOffset + from, line.byteOffset + from + end - start);
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
