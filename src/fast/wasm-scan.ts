import { Buffer } from "node:buffer";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** The exports of `src/wasm/scan.ts` (addresses are byte offsets into its memory). */
interface ScanExports {
  heapEnd(): number;
  hasControlByte(p: number, length: number): number;
  skipValue(p: number, end: number): number;
}

/** The WebAssembly API this module uses: Node has it, but the TypeScript libs this project builds with do not declare it. */
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { readonly exports: unknown };
  Memory: new (descriptor: { initial: number; maximum: number }) => { readonly buffer: ArrayBuffer };
}
const { Instance, Memory, Module } = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

/** Where a region starts in the module's memory: above its own static data (checked when it is made). */
const REGION_BASE = 1 << 16;
const PAGE = 1 << 16;
/** Bytes of memory past a region's last byte: the 0 after it, and room for a 4-byte read that starts before it. */
const SLACK = 16;

/**
 * This thread's scan module, for the byte cursor and `hasControlByte`: they hand it a line when the line lies
 * in `buffer` (a region made by {@link scanRegion}), and scan in JS otherwise. One object whose fields are
 * replaced in place, so the hot paths read one shape; `buffer` starts as an ArrayBuffer no line is in.
 */
export const WASM_SCAN: { buffer: ArrayBufferLike; exports: ScanExports } = {
  buffer: new ArrayBuffer(0),
  exports: { heapEnd: () => 0, hasControlByte: () => 0, skipValue: () => 0 },
};

let compiled: object | undefined;

/**
 * A buffer of `capacity` bytes in the memory of a new instance of the scan module, which becomes this
 * thread's {@link WASM_SCAN}. One byte past `capacity` stays writable: whoever fills the region keeps a 0
 * there after the last line, so the module's scans stop at a line end without knowing where the batch ends.
 * A few bytes more lie behind it, for the module's word-wide reads of a token that ends the batch.
 *
 * The memory is sized once and never grows: growing it would detach the ArrayBuffer under every view of it,
 * and a detach deoptimises every typed-array function of the thread (docs/benchmarks.md, optimisation 11).
 */
export function scanRegion(capacity: number): Buffer {
  compiled ??= compileScan();
  const pages = Math.ceil((REGION_BASE + capacity + SLACK) / PAGE);
  const memory = new Memory({ initial: pages, maximum: pages });
  const exports = new Instance(compiled, { env: { memory } }).exports as unknown as ScanExports;
  if (exports.heapEnd() > REGION_BASE) throw new Error(`Internal error: scan.wasm's static data ends at ${exports.heapEnd()}, past ${REGION_BASE}`);
  WASM_SCAN.buffer = memory.buffer;
  WASM_SCAN.exports = exports;
  return Buffer.from(memory.buffer, REGION_BASE, capacity + 1);
}

/** Built by scripts/build-wasm.mjs into dist/wasm/; from TypeScript sources (tests), the build's copy next to `src/`. */
function compileScan(): object {
  const sibling = fileURLToPath(new URL("../wasm/scan.wasm", import.meta.url));
  const built = sibling.replace(/([\\/])src([\\/]wasm[\\/]scan\.wasm)$/, "$1dist$2");
  for (const path of [sibling, built]) if (existsSync(path)) return new Module(readFileSync(path));
  throw new Error(`Cannot find the scan module at ${sibling} or in dist/: run \`npm run build\``);
}
