#!/usr/bin/env node
// Last step of `npm run build`: bundles the CLI entry (dist/cli/main.js) and the parallel engine's worker
// (dist/parallel/convert-worker.js) in place, each with its lazily loaded parts as chunks beside it. The
// library's modules stay as tsc wrote them. Resolving and loading ~70 small modules cost the CLI ~30 ms
// of wall time and ~65 ms of CPU per run (main and two workers), a run's fixed cost (docs/decisions.md).
//
//   node scripts/bundle.mjs [distDir]   (default: the repo's dist)
//
// Packages stay external (loaded from node_modules as before). Each module's `import.meta.url` is
// rewritten to its own URL as seen from the bundle, so files found relative to a module (the worker
// script, format-info.json, package.json, pipelines/) are found from the bundle too.
import { readdirSync, rmSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { dirname, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const dist = resolve(process.argv[2] ?? fileURLToPath(new URL("../dist", import.meta.url)));

/** Keeps `import.meta.url` meaning "this module's URL" once the module is inside a bundle written to `outdir`. */
function ownImportMetaUrl(outdir) {
  return {
    name: "own-import-meta-url",
    setup(b) {
      b.onLoad({ filter: /\.js$/ }, async (args) => {
        let contents = await readFile(args.path, "utf8");
        if (contents.includes("import.meta.url")) {
          const path = relative(outdir, args.path).split("\\").join("/");
          const url = JSON.stringify(path.startsWith(".") ? path : `./${path}`);
          contents = contents.replaceAll("import.meta.url", `new URL(${url}, import.meta.url).href`);
        }
        return { contents, loader: "js", resolveDir: dirname(args.path) };
      });
    },
  };
}

async function bundle(entry, chunkPrefix) {
  const outdir = dirname(entry);
  // Chunk names carry a content hash: a rebuild must not leave the previous build's chunks behind.
  for (const name of readdirSync(outdir)) if (name.startsWith(chunkPrefix)) rmSync(`${outdir}/${name}`);
  await build({
    entryPoints: [entry],
    outdir,
    entryNames: "[name]",
    chunkNames: `${chunkPrefix}[hash]`,
    bundle: true,
    splitting: true, // lazy imports stay lazy: zod, the stages engine, the slow path load on first use
    format: "esm",
    platform: "node",
    target: "node20",
    packages: "external",
    sourcemap: "linked", // chains tsc's maps: stack traces still point into src/ with --enable-source-maps
    allowOverwrite: true,
    logLevel: "warning",
    plugins: [ownImportMetaUrl(outdir)],
  });
}

await bundle(`${dist}/parallel/convert-worker.js`, "worker-chunk-");
await bundle(`${dist}/cli/main.js`, "cli-chunk-");
