import { Buffer } from "node:buffer";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** The WebAssembly API the scan module's users need: Node has it, but the TypeScript libs this project builds with do not declare it. */
export interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { readonly exports: unknown };
  Memory: new (descriptor: { initial: number; maximum: number }) => { readonly buffer: ArrayBuffer };
}
export const WASM = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

let compiled: object | undefined;

/**
 * The compiled scan module (src/engines/parallel/wasm/index.ts), once per thread. Its home is core/ because
 * main's thread and the workers alike run rules it holds (the line digest, the JSON.stringify-form check, the text-audit prefilter);
 * scripts/build-wasm.mjs writes it into dist/engines/parallel/wasm/, and from TypeScript sources (tests) the
 * build's copy next to `src/` is read.
 */
export function scanModule(): object {
  if (compiled !== undefined) return compiled;
  const sibling = fileURLToPath(new URL("../engines/parallel/wasm/scan.wasm", import.meta.url));
  const built = sibling.replace(/([\\/])src([\\/]engines[\\/]parallel[\\/]wasm[\\/]scan\.wasm)$/, "$1dist$2");
  for (const path of [sibling, built]) if (existsSync(path)) return (compiled = new WASM.Module(readFileSync(path)));
  throw new Error(`Cannot find the scan module at ${sibling} or in dist/: run \`npm run build\``);
}

/** The scan module's rules a thread runs on bytes of its own (see {@link inScratch}). */
export interface ScratchRules {
  /** The line digest's hash of [p, end): src/engines/parallel/wasm/digest.ts. */
  lineHash(p: number, end: number): number;
  /** 0 no, 1 yes, 2 JS must tell: src/engines/parallel/wasm/json-form.ts. */
  jsonForm(start: number, end: number): number;
  /** 1 when the UTF-8 text [start, end) may matter to `sanitize` or the injection patterns: src/engines/parallel/wasm/audit.ts. */
  auditText(start: number, end: number): number;
  /** Whether `auditText` looks at byte `b` at all. */
  auditLooksAt(b: number): number;
}

/** Where {@link inScratch} puts bytes: above the module's own static data. */
export const SCRATCH_AT = 1 << 16;
const PAGE = 1 << 16;
/** Bytes kept past what is copied: the module's 16-byte steps read a few past a text, deciding nothing by them. */
const SLACK = 32;
let scratch: { readonly bytes: Buffer; readonly rules: ScratchRules } | undefined;

/**
 * Bytes `[start, end)` copied to {@link SCRATCH_AT} in this thread's scratch instance of the scan module, for
 * a rule whose home is the module to run on bytes that lie elsewhere (a JS string's bytes, a line outside a
 * worker's batch). The instance is remade with twice the room when they do not fit. Valid until the next call.
 */
export function inScratch(bytes: Uint8Array, start: number, end: number): ScratchRules {
  const { bytes: memory, rules } = scratchOf(end - start);
  memory.set(bytes.subarray(start, end), SCRATCH_AT);
  return rules;
}

/**
 * `text` as UTF-8 at {@link SCRATCH_AT} in this thread's scratch instance (as {@link inScratch} copies bytes);
 * the number of bytes, which {@link scratchRules} then reads. A lone surrogate becomes U+FFFD, as it does in
 * every UTF-8 output.
 */
export function textInScratch(text: string): number {
  // Buffer#write rather than TextEncoder#encodeInto, which makes a result object each call (docs/decisions.md).
  return scratchOf(3 * text.length).bytes.write(text, SCRATCH_AT);
}

/** The rules of this thread's scratch instance, for bytes {@link textInScratch} put there. */
export function scratchRules(): ScratchRules {
  return scratchOf(0).rules;
}

/** This thread's scratch instance, remade with twice the room when `length` bytes do not fit at {@link SCRATCH_AT}. */
function scratchOf(length: number): NonNullable<typeof scratch> {
  if (scratch === undefined || SCRATCH_AT + length + SLACK > scratch.bytes.length) {
    const pages = Math.max(2 * Math.ceil((SCRATCH_AT + length + SLACK) / PAGE), 4);
    const memory = new WASM.Memory({ initial: pages, maximum: pages });
    scratch = { bytes: Buffer.from(memory.buffer), rules: new WASM.Instance(scanModule(), { env: { memory } }).exports as ScratchRules };
  }
  return scratch;
}
