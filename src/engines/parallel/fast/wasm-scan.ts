import { Buffer } from "node:buffer";
import { scanModule, WASM } from "../../../core/scan-module.js";

/** The exports of `src/engines/parallel/wasm/index.ts` (addresses are byte offsets into its memory). */
interface ScanExports {
  heapEnd(): number;
  skipValue(p: number, end: number): number;
  walkAreas(keys: number, keysLength: number, scratch: number, scratchLength: number, tape: number, tapeLength: number): void;
  /** The number of tape ops, or -1: see src/engines/parallel/wasm/walk.ts. */
  walk(root: number, p: number, end: number): number;
  /** The text audit's byte pass: see src/engines/parallel/wasm/audit.ts. */
  auditTexts(p: number, end: number, out: number): number;
  auditText(start: number, end: number): number;
  auditJson(p: number, end: number, out: number, outEnd: number): number;
  auditStop(): number;
  /** src/core/line-digest.ts's lineHash: see src/engines/parallel/wasm/digest.ts. */
  lineHash(p: number, end: number): number;
  /** src/views/is-stringify-form.ts's check: see src/engines/parallel/wasm/json-form.ts (0 no, 1 yes, 2 JS must tell). */
  jsonForm(start: number, end: number): number;
  /** skipValue with jsonForm's answer on the way (then in skipFormAnswer): see src/engines/parallel/wasm/skip.ts. */
  skipForm(p: number, end: number): number;
  skipFormAnswer(): number;
}

/** Where a schema walk's own data lies in the module's memory, past the batch region. */
export interface WalkAreas {
  /** Where a walker copies its schema table (fast/walk-table.ts), and how many bytes fit. */
  readonly table: number;
  readonly tableBytes: number;
  /** Room for one line from elsewhere, as long as the region holds (see {@link spareLine}), and the 0 after it. */
  readonly spare: number;
  readonly spareBytes: number;
  /** The walk's tape of ops, 16 bytes each, and its size. */
  readonly tape: number;
  readonly tapeBytes: number;
  /** The walk's decoded strings, and their size; between walks, the text audit's copy of a column's values (fast/wasm-audit.ts). */
  readonly scratch: number;
  readonly scratchBytes: number;
}

const { Instance, Memory } = WASM;

/** Where a region starts in the module's memory: above its own static data (checked when it is made). */
const REGION_BASE = 1 << 16;
const PAGE = 1 << 16;
/** Bytes of memory past a region's last byte: the 0 after it, and room for a 4-byte read that starts before it. */
const SLACK = 16;
const TABLE_BYTES = 64 << 10;
/** Map keys being checked for duplicates, 8 bytes each. */
const KEYS_BYTES = 64 << 10;
/** The region {@link spareLine} makes on a thread that has none. */
const FIRST_REGION = 1 << 20;

/**
 * This thread's scan module, for the schema walk and the text audit: they take a line where it lies in
 * `buffer` (a region made by {@link scanRegion}: a worker's batch), or copied into its spare line
 * ({@link spareLine}). One object whose fields are replaced in place, so the hot paths read one shape;
 * `buffer` starts as an ArrayBuffer no line is in.
 */
export const WASM_SCAN: { buffer: ArrayBufferLike; exports: ScanExports; walk: WalkAreas; tableOwner: object | null } = {
  buffer: new ArrayBuffer(0),
  exports: { heapEnd: () => 0, skipValue: () => 0, walkAreas: () => undefined, walk: () => -1, auditTexts: () => 0, auditText: () => 1, auditJson: () => 0, auditStop: () => 0, lineHash: () => 0, jsonForm: () => 2, skipForm: () => 0, skipFormAnswer: () => 2 },
  walk: { table: 0, tableBytes: 0, spare: 0, spareBytes: 0, tape: 0, tapeBytes: 0, scratch: 0, scratchBytes: 0 },
  /** The walker whose schema table the memory holds (a thread may have several parsers: tests do). */
  tableOwner: null,
};

/**
 * A buffer of `capacity` bytes in the memory of a new instance of the scan module, which becomes this
 * thread's {@link WASM_SCAN}. One byte past `capacity` stays writable: whoever fills the region keeps a 0
 * there after the last line, so the module's scans stop at a line end without knowing where the batch ends.
 * A few bytes more lie behind it, for the module's word-wide reads of a token that ends the batch.
 *
 * Past the region lie the schema walk's areas ({@link WalkAreas}): its table, map keys, a spare line and decoded
 * strings (as many bytes as the region holds each) and its tape (twice that). Pages no walk touches cost nothing.
 *
 * The memory is sized once and never grows: growing it would detach the ArrayBuffer under every view of it
 * (docs/decisions.md "hot code shape", typed arrays).
 */
export function scanRegion(capacity: number): Buffer {
  const table = align(REGION_BASE + capacity + SLACK);
  const keys = table + TABLE_BYTES;
  const spare = keys + KEYS_BYTES;
  const spareBytes = capacity + 1;
  const scratch = align(spare + spareBytes + SLACK);
  const scratchBytes = capacity + SLACK;
  const tape = align(scratch + scratchBytes);
  const tapeBytes = 2 * capacity + (1 << 20);
  const pages = Math.ceil((tape + tapeBytes) / PAGE);
  const memory = new Memory({ initial: pages, maximum: pages });
  const exports = new Instance(scanModule(), { env: { memory } }).exports as unknown as ScanExports;
  if (exports.heapEnd() > REGION_BASE) throw new Error(`Internal error: scan.wasm's static data ends at ${exports.heapEnd()}, past ${REGION_BASE}`);
  exports.walkAreas(keys, KEYS_BYTES, scratch, scratchBytes, tape, tapeBytes);
  WASM_SCAN.buffer = memory.buffer;
  WASM_SCAN.exports = exports;
  WASM_SCAN.walk = { table, tableBytes: TABLE_BYTES, spare, spareBytes, tape, tapeBytes, scratch, scratchBytes };
  WASM_SCAN.tableOwner = null;
  return Buffer.from(memory.buffer, REGION_BASE, capacity + 1);
}

/**
 * `line` copied into the module's spare line area, followed by a 0 as a batch's last line is, for the walk
 * to take: a line that lies elsewhere (a priming line, a test's). A thread without a region (a worker makes
 * one with its first batch) gets a small one first. Null when the line does not fit; valid until the next call.
 */
export function spareLine(line: Uint8Array): Buffer | null {
  if (WASM_SCAN.walk.spareBytes === 0) scanRegion(FIRST_REGION);
  const { spare, spareBytes } = WASM_SCAN.walk;
  if (line.length >= spareBytes) return null;
  const view = Buffer.from(WASM_SCAN.buffer as ArrayBuffer, spare, line.length + 1);
  view.set(line);
  view[line.length] = 0;
  return view.subarray(0, line.length);
}

function align(address: number): number {
  return Math.ceil(address / 16) * 16;
}
