import type { Buffer } from "node:buffer";
import type { LeafWriter } from "../../../parquet/leaf-writer.js";
import { BACKSLASH, COLON, COMMA, FALSE, LBRACE, LBRACKET, NULL, PROTO, QUOTE, RBRACE, RBRACKET, TRUE, unvouched, UNVOUCHED } from "./byte-cursor.js";
import { NO_WRITERS, ScalarWalker } from "./scalar-walker.js";
import { BOOLEAN, CHOICE, LIST, MAP, NUMBER, STRING, STRUCT, structsWithSlots } from "./schema-node.js";
import type { FieldSlot, SchemaNode, SkeletonBuilder } from "./schema-node.js";
import type { WasmWalker } from "./wasm-walker.js";

/**
 * Walks one line along a compiled schema: validates every byte, writes each value into its leaf writer
 * with the Dremel levels `shredRecord` would give the stripped record, and builds the skeleton. Lines in a
 * worker's wasm scan memory take the wasm walk instead ({@link WasmWalker}), which must answer as this does.
 * One instance serves one parser and is not reentrant.
 */
export class LineWalker extends ScalarWalker {
  /** The struct or map walked last is one strip deletes: a drop rule left it without keys. */
  private pruned = false;
  /** Key spans (start, end) of the maps being walked, for the duplicate check; replaced as it grows. */
  private keys = NO_KEYS;
  private keyTop = 0;

  /** Structs whose skeleton slots a walk fills; cleared when a walk is abandoned half way. */
  private readonly slotted: readonly SchemaNode[];

  constructor(private readonly root: SchemaNode) {
    super();
    this.slotted = structsWithSlots(root);
    // Assigned again, so the field is not taken for a constant: docs/decisions.md "hot code shape", changing fields.
    this.keys = new Int32Array(64);
  }

  /**
   * Walks `line` (exactly one line; `clean` when it has no byte below 0x20); returns the skeleton, or null
   * when the line is not vouched for. Bytes handed to `out` are valid only during the call.
   */
  run(line: Buffer, clean: boolean, out: readonly LeafWriter[]): Record<string, unknown> | null {
    this.begin(line, clean);
    this.out = out;
    this.keyTop = 0;
    try {
      let i = this.ws(0);
      if (line[i] !== LBRACE) return null;
      i = this.ws(this.struct(this.root, i, 0));
      return i === line.length ? (this.sk as Record<string, unknown>) : null;
    } catch (error) {
      // Slots of optional fields are cleared as each struct completes; an abandoned walk leaves some set.
      for (const node of this.slotted) node.slots.fill(undefined);
      if (error === UNVOUCHED) return null;
      throw error;
    } finally {
      this.out = NO_WRITERS;
      this.sk = null;
    }
  }

  protected value(node: SchemaNode, i: number, rep: number): number {
    const c = this.b[i];
    if (c === 0x6e) {
      if (!node.nullable) unvouched();
      if (node.written) this.missing(node, node.def - 1, rep);
      this.sk = null;
      this.pruned = false;
      return this.literal(i, NULL);
    }
    switch (node.kind) {
      case STRING:
        return this.string(node, i, rep);
      case CHOICE:
        return this.choice(node, i, rep);
      case NUMBER:
        return this.number(node, i, rep);
      case BOOLEAN: {
        const v = c === 0x74;
        if (!v && c !== 0x66) unvouched();
        if (node.written) (this.out[node.leaf] as LeafWriter).bool(v, rep);
        this.sk = v;
        return this.literal(i, v ? TRUE : FALSE);
      }
      case STRUCT:
        if (c !== LBRACE) unvouched();
        return this.struct(node, i, rep);
      case LIST:
        if (c !== LBRACKET) unvouched();
        return this.list(node, i, rep);
      case MAP:
        if (c !== LBRACE) unvouched();
        return this.map(node, i, rep);
      default:
        return this.json(node, i, rep);
    }
  }

  private struct(node: SchemaNode, i: number, rep: number): number {
    const b = this.b;
    const fields = node.fields;
    const slots = node.slots;
    let seen = 0;
    // Present fields strip deletes: dropped by the policy, or structs and maps it empties.
    let gone = 0;
    let hint = 0;
    if ((b[++i] as number) <= 0x20) i = this.ws(i);
    if (b[i] === RBRACE) i++;
    else {
      for (;;) {
        if (b[i] !== QUOTE) unvouched();
        const start = i + 1;
        // Keys mostly come in schema order: try the expected one before scanning the key.
        const expected = fields[hint];
        let k = hint;
        let end = expected === undefined ? -1 : start + expected.key.length;
        if (expected === undefined || b[end] !== QUOTE || !this.bytesAre(start, expected.key)) {
          end = this.keyEnd(start);
          k = this.fieldIndex(fields, start, end, hint);
        }
        i = end + 1;
        if (b[i] !== COLON) {
          i = this.ws(i);
          if (b[i] !== COLON) unvouched();
        }
        if ((b[++i] as number) <= 0x20) i = this.ws(i);
        if (k < 0) {
          for (const key of node.forbiddenKeys) if (key.length === end - start && this.bytesAre(start, key)) unvouched();
          i = this.skipJson(i);
        } else {
          const f = fields[k] as FieldSlot;
          // JSON.parse keeps the last of duplicate keys; zod would then see a value this walk did not.
          if ((seen & f.bit) !== 0) unvouched();
          seen |= f.bit;
          hint = k + 1 === fields.length ? 0 : k + 1;
          i = this.value(f.node, i, rep);
          if (f.node.skeleton) slots[k] = this.sk;
          if (f.dropped || (f.node.pruneIfEmpty && this.pruned)) gone |= f.bit;
        }
        let c = b[i];
        if (c !== COMMA && c !== RBRACE) {
          i = this.ws(i);
          c = b[i];
        }
        if (c === COMMA) {
          if ((b[++i] as number) <= 0x20) i = this.ws(i);
        } else if (c === RBRACE) break;
        else unvouched();
      }
      i++;
    }
    if ((seen & node.requiredMask) !== node.requiredMask) unvouched();
    if (node.skeleton) this.sk = (node.build as SkeletonBuilder)(slots);
    if (node.pruneIfEmpty && (seen & ~gone) === 0) {
      // Nothing below was written (every present field was dropped or pruned): the parent writes it as absent.
      this.pruned = true;
      return i;
    }
    this.pruned = false;
    const absent = (node.fieldMask & ~seen) | gone;
    if (absent !== 0 && node.written) {
      for (const f of fields) if ((absent & f.bit) !== 0 && f.node.written) this.missing(f.node, f.node.def - 1, rep);
    }
    return i;
  }

  /** The index of the field whose key is bytes `[start, end)`, trying `hint` first (keys tend to come in order). */
  private fieldIndex(fields: readonly FieldSlot[], start: number, end: number, hint: number): number {
    const n = fields.length;
    for (let k = 0, j = hint; k < n; k++, j = j + 1 === n ? 0 : j + 1) {
      const key = (fields[j] as FieldSlot).key;
      if (key.length === end - start && this.bytesAre(start, key)) return j;
    }
    return -1;
  }

  /** The closing quote of a key whose content starts at `i`. Keys with escapes could spell a declared key: not vouched for. */
  private keyEnd(i: number): number {
    const b = this.b;
    for (;;) {
      const c = b[i] as number;
      if (c === QUOTE) return i;
      if (c === BACKSLASH || !(c >= 0x20)) unvouched();
      i++;
    }
  }

  private list(node: SchemaNode, i: number, rep: number): number {
    const b = this.b;
    const item = node.item as SchemaNode;
    const items: unknown[] | null = node.skeleton ? [] : null;
    if ((b[++i] as number) <= 0x20) i = this.ws(i);
    if (b[i] === RBRACKET) {
      if (node.written) this.missing(node, node.def, rep);
      this.sk = items;
      return i + 1;
    }
    for (let r = rep; ; r = node.rep) {
      i = this.value(item, i, r);
      if (items !== null) items.push(this.sk);
      let c = b[i];
      if (c !== COMMA && c !== RBRACKET) {
        i = this.ws(i);
        c = b[i];
      }
      if (c === COMMA) {
        if ((b[++i] as number) <= 0x20) i = this.ws(i);
      } else if (c === RBRACKET) break;
      else unvouched();
    }
    this.sk = items;
    return i + 1;
  }

  private map(node: SchemaNode, i: number, rep: number): number {
    const b = this.b;
    const value = node.item as SchemaNode;
    const sk: Record<string, unknown> | null = node.skeleton ? {} : null;
    const writes = node.written && !node.valuesDropped;
    const base = this.keyTop;
    let count = 0;
    i = this.ws(i + 1);
    if (b[i] === RBRACE) i++;
    else {
      for (let r = rep; ; r = node.rep) {
        if (b[i] !== QUOTE) unvouched();
        const start = i + 1;
        const end = this.keyEnd(start);
        this.mapKey(start, end, base);
        i = this.ws(end + 1);
        if (b[i] !== COLON) unvouched();
        i = this.ws(i + 1);
        if (writes) (this.out[node.keyLeaf] as LeafWriter).bytes(b, start, end, r);
        i = this.value(value, i, r);
        if (sk !== null) sk[this.text(start - 1, end, false)] = this.sk;
        count++;
        i = this.ws(i);
        const c = b[i];
        if (c === COMMA) i = this.ws(i + 1);
        else if (c === RBRACE) break;
        else unvouched();
      }
      i++;
    }
    this.keyTop = base;
    this.sk = sk;
    if (count === 0 || node.valuesDropped) {
      if (node.pruneIfEmpty) {
        this.pruned = true;
        return i;
      }
      if (node.written) this.missing(node, node.def, rep);
    }
    this.pruned = false;
    return i;
  }

  /**
   * Refuses map keys whose entry order or presence would differ after JSON.parse and zod: duplicates
   * (the last wins), array indexes (JavaScript lists them first) and `__proto__` (zod skips it). Records the key.
   */
  private mapKey(start: number, end: number, base: number): void {
    const b = this.b;
    const length = end - start;
    if (length === PROTO.length && this.bytesAre(start, PROTO)) unvouched();
    let digits = length > 0;
    for (let p = start; p < end && digits; p++) digits = (b[p] as number) >= 0x30 && (b[p] as number) <= 0x39;
    if (digits) unvouched();
    const keys = this.keys;
    for (let k = base; k < this.keyTop; k += 2) {
      const s = keys[k] as number;
      if ((keys[k + 1] as number) - s === length && sameBytes(b, start, s, length)) unvouched();
    }
    if (this.keyTop + 2 > keys.length) {
      this.keys = new Int32Array(keys.length * 2);
      this.keys.set(keys);
    }
    this.keys[this.keyTop++] = start;
    this.keys[this.keyTop++] = end;
  }
}

const NO_KEYS = new Int32Array(0);

/** Whether `b` holds the same `length` bytes at `x` and at `y`. A loop, not `Buffer#compare`: map keys are short. */
function sameBytes(b: Uint8Array, x: number, y: number, length: number): boolean {
  for (let i = 0; i < length; i++) if (b[x + i] !== b[y + i]) return false;
  return true;
}
