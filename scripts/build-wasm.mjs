#!/usr/bin/env node
// Part of `npm run build`: compiles the AssemblyScript under src/wasm/ into dist/wasm/*.wasm with asc (a
// devDependency). The .wasm files ship in the package, so users need no compiler. Each module imports its
// memory (`env.memory`): the caller sizes it once and never grows it (src/fast/wasm-scan.ts says why).
//
//   node scripts/build-wasm.mjs [distDir]   (default: the repo's dist)
import { mkdirSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import asc from "assemblyscript/asc";

const dist = resolve(process.argv[2] ?? fileURLToPath(new URL("../dist", import.meta.url)));
const source = fileURLToPath(new URL("../src/wasm/", import.meta.url));
mkdirSync(`${dist}/wasm`, { recursive: true });
// One module: src/wasm/index.ts and what it imports (the scans and the walk) become dist/wasm/scan.wasm.
for (const [entry, name] of [["index", "scan"]]) {
  const { error, stderr } = await asc.main([`${source}${entry}.ts`, "-O3", "--runtime", "stub", "--noAssert", "--enable", "simd", "--importMemory", "--outFile", `${dist}/wasm/${name}.wasm`]);
  if (error) {
    process.stderr.write(stderr.toString());
    throw new Error(`asc failed on src/wasm/${entry}.ts: ${error.message}`);
  }
}
