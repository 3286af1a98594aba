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
 * both engines run rules it holds (the line digest); scripts/build-wasm.mjs writes it into
 * dist/engines/parallel/wasm/, and from TypeScript sources (tests) the build's copy next to `src/` is read.
 */
export function scanModule(): object {
  if (compiled !== undefined) return compiled;
  const sibling = fileURLToPath(new URL("../engines/parallel/wasm/scan.wasm", import.meta.url));
  const built = sibling.replace(/([\\/])src([\\/]engines[\\/]parallel[\\/]wasm[\\/]scan\.wasm)$/, "$1dist$2");
  for (const path of [sibling, built]) if (existsSync(path)) return (compiled = new WASM.Module(readFileSync(path)));
  throw new Error(`Cannot find the scan module at ${sibling} or in dist/: run \`npm run build\``);
}
