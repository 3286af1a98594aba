#!/usr/bin/env node
// Two or more builds of evalshard beside the DuckDB reference, in one script: whether a change held convert's
// speed (issue 17 asks for before/after side by side). Each build runs `convert` as a child timed by
// /usr/bin/time; every round runs each side once, each round starting one side later, so the hour's drift
// lands on all sides alike. The figure to read is the median over rounds of each build's wall over DuckDB's in
// the same round. Not part of `npm run bench`: the "before" is a build outside the repository (a checkout of an
// older commit, `npm ci && npm run build` in it).
//
//   node bench/builds-vs-duckdb.mjs --build pre=/path/to/old/dist --build main=dist \
//     [--build "main-all=dist --seats all"] [--sizes 200,1024] [--formats sft,rl] [--rounds 5] [--dist dist]
//
// A build is NAME=DIST followed by extra convert flags. `--dist` is the build whose formats give DuckDB its
// column types. Inputs are bench/data/{format}-{size}.ndjson (made by convert-vs-duckdb.mjs). Prints one JSON
// line per case.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { median, timedChild, warm } from "./timed-child.mjs";

const { values: args } = parseArgs({
  options: {
    build: { type: "string", multiple: true },
    sizes: { type: "string", default: "200,1024" },
    formats: { type: "string", default: "sft,rl" },
    rounds: { type: "string", default: "5" },
    dist: { type: "string", default: "dist" },
  },
});
const builds = (args.build ?? []).map((spec) => {
  const [head, ...flags] = spec.trim().split(/\s+/);
  const at = head.indexOf("=");
  if (at <= 0) throw new Error(`--build ${JSON.stringify(spec)}: expected NAME=DIST [convert flags]`);
  const dist = resolve(head.slice(at + 1));
  if (!existsSync(join(dist, "cli/main.js"))) throw new Error(`--build ${JSON.stringify(spec)}: no cli/main.js in ${dist}`);
  return { name: head.slice(0, at), dist, flags };
});
if (builds.length < 2) throw new Error("give at least two --build NAME=DIST");

const dist = resolve(args.dist);
const { FORMATS } = await import(pathToFileURL(`${dist}/formats/index.js`).href);
const { duckdbColumns } = await import(pathToFileURL(`${dist}/schema/duckdb-type.js`).href);
const scratch = mkdtempSync(join(tmpdir(), "builds-vs-duckdb-"));
const time = timedChild(scratch);
const r3 = (x) => Math.round(x * 1000) / 1000;

try {
  for (const format of args.formats.split(",")) {
    for (const size of args.sizes.split(",")) {
      const file = `bench/data/${format}-${size}.ndjson`;
      if (!existsSync(file)) throw new Error(`${file} is missing: run bench/convert-vs-duckdb.mjs --sizes ${size} once to make it`);
      const out = join(scratch, "out");
      const duckdbOut = join(scratch, "duckdb.parquet");
      const sides = new Map(builds.map((b) => [b.name, [join(b.dist, "cli/main.js"), "convert", file, "--out", out, "--format", format, ...b.flags]]));
      sides.set("duckdb", ["bench/duckdb-convert.mjs", "--format", format, "--in", file, "--out", duckdbOut, "--dist", dist, "--columns", duckdbColumns(FORMATS[format].columns)]);
      const names = [...sides.keys()];
      const runs = new Map(names.map((n) => [n, []]));
      for (let round = 0; round < Number(args.rounds); round++) {
        for (let i = 0; i < names.length; i++) {
          const name = names[(i + round) % names.length];
          rmSync(out, { recursive: true, force: true });
          rmSync(duckdbOut, { force: true });
          await warm(file);
          const run = await time(process.execPath, sides.get(name));
          if (run.code !== 0) throw new Error(`${format}-${size} ${name} exited ${run.code}: ${run.stderr}`);
          runs.get(name).push(run);
        }
      }
      const duckdb = runs.get("duckdb");
      const sideSummary = (list) => ({
        wall_best: Math.min(...list.map((r) => r.wall_s)),
        wall_median: median(list.map((r) => r.wall_s)),
        cpu_median: median(list.map((r) => r.cpu_s)),
        peak_rss_mb: Math.max(...list.map((r) => r.peak_rss_mb)),
      });
      const summary = Object.fromEntries(names.map((n) => [n, sideSummary(runs.get(n))]));
      for (const b of builds) {
        const list = runs.get(b.name);
        summary[b.name].wall_over_duckdb = r3(median(list.map((r, i) => r.wall_s / duckdb[i].wall_s)));
        summary[b.name].cpu_over_duckdb = r3(median(list.map((r, i) => r.cpu_s / duckdb[i].cpu_s)));
      }
      console.log(JSON.stringify({ case: `${format}-${size}`, rounds: Number(args.rounds), sides: summary, loadavg_after: loadavg().map(r3) }));
    }
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
