#!/usr/bin/env node
// Cost of a view's row building (src/views) over an RL export, against JSON.parse alone on the same lines:
// what `convert --view` adds per record before encoding, single-threaded. Bundles the TypeScript source with
// esbuild, so no build is needed. Data: node bench/generate-exports.mjs --format rl --mib 64 --out bench/data/rl-64.ndjson
//
//   node bench/view-rows.mjs [--file bench/data/rl-64.ndjson] [--runs 3]
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { build } from "esbuild";

const { values: args } = parseArgs({ options: { file: { type: "string", default: "bench/data/rl-64.ndjson" }, runs: { type: "string", default: "3" } } });
const root = fileURLToPath(new URL("..", import.meta.url));
const out = mkdtempSync(join(tmpdir(), "evalshard-bench-"));
await build({ entryPoints: [join(root, "src/views/index.ts")], bundle: true, format: "esm", platform: "node", outfile: join(out, "views.mjs"), logLevel: "error", external: ["zod"] });
const views = await import(pathToFileURL(join(out, "views.mjs")).href);
rmSync(out, { recursive: true, force: true });

const text = readFileSync(join(root, args.file), "utf8");
const lines = text.split("\n").filter((l) => l.length > 0);
const mib = Buffer.byteLength(text) / 2 ** 20;
const time = (fn) => {
  const start = process.hrtime.bigint();
  const n = fn();
  return { seconds: Number(process.hrtime.bigint() - start) / 1e9, n };
};
for (let run = 1; run <= Number(args.runs); run++) {
  const parse = time(() => lines.reduce((n, l) => n + (JSON.parse(l).tuples.length), 0));
  const records = lines.map((l) => JSON.parse(l));
  const parts = [`run ${run}: ${mib.toFixed(0)} MiB, ${lines.length} records; JSON.parse ${(mib / parse.seconds).toFixed(0)} MiB/s`];
  for (const name of ["trl-prompt-completion", "rl-steps", "openai-sft"]) {
    const view = views.VIEWS[name];
    const env = views.viewEnv();
    const r = time(() => records.reduce((n, rec) => n + view.rows(rec, env).rows.length, 0));
    parts.push(`${name} rows ${(mib / r.seconds).toFixed(0)} MiB/s (${r.n} rows, +${((r.seconds / parse.seconds) * 100).toFixed(0)}% of parse)`);
  }
  console.log(parts.join("; "));
}
