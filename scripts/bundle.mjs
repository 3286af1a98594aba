#!/usr/bin/env node
// Last step of `npm run build`: bundles the CLI entry (dist/cli/main.js) in place, with its lazily loaded
// parts as chunks beside it, and the parallel engine's worker as one CommonJS file
// (dist/engines/parallel/run/convert-worker.cjs) beside tsc's ESM one, with its lazy slow path as one ESM bundle
// (dist/engines/parallel/run/worker-slow-path.js). The library's modules stay as tsc wrote them. Resolving and loading
// ~70 small modules cost the CLI ~30 ms of wall time and ~65 ms of CPU per run (main and two workers), a
// run's fixed cost; a CommonJS worker skips the ESM loader's start-up, ~10 ms of each worker's start
// (docs/decisions.md).
//
//   node scripts/bundle.mjs [distDir]   (default: the repo's dist)
//
// Packages stay external (loaded from node_modules as before), but for commander, which the CLI's bundle holds:
// loaded through Node's ESM-to-CommonJS translation it cost main ~10 ms before the workers could start
// (docs/decisions.md). Each module's `import.meta.url` is
// rewritten to its own URL as seen from the bundle, so files found relative to a module (the worker
// script, format-info.json, package.json, pipelines/) are found from the bundle too.
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { isBuiltin } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
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

/** What every bundle here shares: Node 20, packages left to node_modules, no source maps (docs/decisions.md). */
const COMMON = {
  bundle: true,
  platform: "node",
  target: "node20",
  packages: "external",
  sourcemap: false, // the package ships no maps: tsc emits none to chain, and the bundles are unminified
  allowOverwrite: true,
  logLevel: "warning",
};

/**
 * Packages stay external, except those named: bundled in, they skip Node's package resolution and, for a
 * CommonJS package, its ESM-to-CommonJS translation (commander: ~10 ms of main's start-up, docs/decisions.md).
 */
function externalExcept(bundled) {
  return {
    name: "external-except",
    setup(b) {
      b.onResolve({ filter: /^[^./]/ }, (args) => (bundled.some((name) => args.path === name || args.path.startsWith(`${name}/`)) ? undefined : { path: args.path, external: true }));
      // A bundled package's license notice goes with its code (a `/*!` comment, kept at the end of its chunk).
      b.onLoad({ filter: /[\\/]node_modules[\\/][^\\/]+[\\/]index\.js$/ }, async (args) => {
        const license = await readFile(join(dirname(args.path), "LICENSE"), "utf8").catch(() => null);
        const contents = await readFile(args.path, "utf8");
        return { contents: license === null ? contents : `/*! ${license.replaceAll("*/", "* /")} */\n${contents}`, loader: "js", resolveDir: dirname(args.path) };
      });
    },
  };
}

/** A bundled CommonJS package's `require` of Node's modules, in an ESM bundle (esbuild's shim throws without it). */
const REQUIRE_SHIM = 'import { createRequire as __createRequire } from "node:module";\nconst require = __createRequire(import.meta.url);';

async function bundle(entry, chunkPrefix) {
  const outdir = dirname(entry);
  // Chunk names carry a content hash: a rebuild must not leave the previous build's chunks behind.
  for (const name of readdirSync(outdir)) if (name.startsWith(chunkPrefix)) rmSync(`${outdir}/${name}`);
  const { packages: _externalExceptNamed, ...common } = COMMON;
  await build({
    ...common,
    entryPoints: [entry],
    outdir,
    entryNames: "[name]",
    chunkNames: `${chunkPrefix}[hash]`,
    splitting: true, // lazy imports stay lazy: zod, the stages engine and each command's code load on first use
    format: "esm",
    banner: { js: REQUIRE_SHIM },
    plugins: [externalExcept(["commander"]), ownImportMetaUrl(outdir)],
  });
}

/**
 * Node's modules a worker loads as it starts. Each costs every worker's start-up before its first unit; one
 * that only some runs need is loaded at its first use instead (src/core/lazy-builtin.ts) and listed in
 * WORKER_LAZY_BUILTINS. The build fails when the worker imports any other at start.
 */
const WORKER_START_BUILTINS = ["node:buffer", "node:fs", "node:module", "node:url", "node:worker_threads"];
/**
 * Loaded by the worker at first use, never at start (~1-2 ms of each worker's start-up apiece): node:crypto
 * for a redacted value's hash (`--untrusted redact`) and a split's HMAC (`--split`), node:zlib for zstd and gzip pages.
 */
const WORKER_LAZY_BUILTINS = ["node:crypto", "node:zlib"];

/** Fails the build on a builtin the worker bundle `outfile` loads at start but does not list, or loads lazily but does not list. */
function checkWorkerBuiltins(metafile, outfile) {
  const output = Object.entries(metafile.outputs).find(([path]) => resolve(path) === resolve(outfile))?.[1];
  if (output === undefined) throw new Error(`bundle.mjs: no metafile output for ${outfile}`);
  const builtin = (path) => path.startsWith("node:") || isBuiltin(path);
  const atStart = [...new Set(output.imports.filter((i) => i.external && i.kind !== "dynamic-import" && builtin(i.path)).map((i) => i.path))];
  const unlisted = atStart.filter((path) => !WORKER_START_BUILTINS.includes(path));
  if (unlisted.length > 0) {
    throw new Error(
      `bundle.mjs: the worker loads ${unlisted.join(", ")} at start. Load it at first use (lazyBuiltin, src/core/lazy-builtin.ts) and list it in ` +
        `WORKER_LAZY_BUILTINS, or, if every run needs it, list it in WORKER_START_BUILTINS`,
    );
  }
  const lazy = [...readFileSync(outfile, "utf8").matchAll(/lazyBuiltin\d*\)?\(\s*"([^"]+)"/g)].map((m) => m[1]);
  const unlistedLazy = lazy.filter((path) => !WORKER_LAZY_BUILTINS.includes(path));
  if (unlistedLazy.length > 0) throw new Error(`bundle.mjs: the worker loads ${unlistedLazy.join(", ")} at first use: list it in WORKER_LAZY_BUILTINS`);
}

/**
 * The worker, as CommonJS: no code splitting there, so its one lazy part (the slow path, which loads zod)
 * is bundled on its own as ESM and imported by name.
 */
async function bundleWorker() {
  const outdir = `${dist}/engines/parallel/run`;
  for (const name of readdirSync(outdir)) if (name.startsWith("worker-chunk-")) rmSync(`${outdir}/${name}`); // earlier builds' ESM chunks
  await build({ ...COMMON, entryPoints: [`${outdir}/slow-path.js`], outfile: `${outdir}/worker-slow-path.js`, format: "esm", plugins: [ownImportMetaUrl(outdir)] });
  const slowPathApart = {
    name: "slow-path-apart",
    setup(b) {
      b.onResolve({ filter: /^\.\/slow-path\.js$/ }, () => ({ path: "./worker-slow-path.js", external: true }));
    },
  };
  const outfile = `${outdir}/convert-worker.cjs`;
  const { metafile } = await build({
    ...COMMON,
    entryPoints: [`${outdir}/convert-worker.js`],
    outfile,
    metafile: true,
    format: "cjs",
    // CommonJS has no import.meta: each module's URL is derived from the bundle's own file name.
    banner: { js: '"use strict";\nconst __bundle_url = require("node:url").pathToFileURL(__filename).href;' },
    define: { "import.meta.url": "__bundle_url" },
    plugins: [ownImportMetaUrl(outdir), slowPathApart],
  });
  checkWorkerBuiltins(metafile, outfile);
}

await bundleWorker();
await bundle(`${dist}/cli/main.js`, "cli-chunk-");
