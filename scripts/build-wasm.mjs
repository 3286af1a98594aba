#!/usr/bin/env node
// Part of `npm run build`: compiles the AssemblyScript under src/engines/parallel/wasm/ into dist/engines/parallel/wasm/*.wasm with asc (a
// devDependency). The .wasm files ship in the package, so users need no compiler. Each module imports its
// memory (`env.memory`): the caller sizes it once and never grows it (src/engines/parallel/fast/wasm-scan.ts says why).
//
//   node scripts/build-wasm.mjs [distDir]   (default: the repo's dist)
import { mkdirSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import asc from "assemblyscript/asc";

const dist = resolve(process.argv[2] ?? fileURLToPath(new URL("../dist", import.meta.url)));
const source = fileURLToPath(new URL("../src/engines/parallel/wasm/", import.meta.url));
mkdirSync(`${dist}/engines/parallel/wasm`, { recursive: true });
// One module: index.ts and what it imports (the scans and the walk) become dist/engines/parallel/wasm/scan.wasm.
for (const [entry, name] of [["index", "scan"]]) {
  const { error, stderr } = await asc.main([`${source}${entry}.ts`, "-O3", "--runtime", "stub", "--noAssert", "--enable", "simd", "--importMemory", "--outFile", `${dist}/engines/parallel/wasm/${name}.wasm`]);
  if (error) {
    process.stderr.write(stderr.toString());
    throw new Error(`asc failed on src/engines/parallel/wasm/${entry}.ts: ${error.message}`);
  }
}
