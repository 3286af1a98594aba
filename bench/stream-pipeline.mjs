#!/usr/bin/env node
// The library's stream (planPipeline + runPipeline, consumed item by item) of one or more builds, side by side in
// one run: each side a child timed by /usr/bin/time (CPU-s over every thread, peak RSS), every round each side
// once, each round starting with the next side. The figure to read is each build's median over the first's.
//
//   node bench/stream-pipeline.mjs [--build main=/work/main/dist --build mine=dist] [--mib 200] [--format sft] [--rounds 3]
//
// Without --build it times dist/ alone. The input is bench/data/{format}-{mib}.ndjson (generated when missing,
// bench/generate-exports.mjs).
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { execFileSync } from "node:child_process";
import { median, timedChild, warm } from "./timed-child.mjs";

const { values: args } = parseArgs({
  options: {
    mib: { type: "string", default: "200" },
    format: { type: "string", default: "sft" },
    rounds: { type: "string", default: "3" },
    build: { type: "string", multiple: true, default: ["dist=dist"] },
    dist: { type: "string" },
    child: { type: "string" },
    input: { type: "string" },
  },
});
const builds = Object.fromEntries(
  args.build.map((spec) => {
    const at = spec.indexOf("=");
    if (at <= 0) throw new Error(`--build ${JSON.stringify(spec)}: expected NAME=DIST`);
    return [spec.slice(0, at), resolve(spec.slice(at + 1))];
  }),
);

if (args.child !== undefined) {
  // One side's run: every item consumed, counted by kind (what a training repo's loop would do, minus its work).
  const { planPipeline, runPipeline } = await import(pathToFileURL(join(args.dist, "library/stream-pipeline.js")).href);
  const { fileSource } = await import(pathToFileURL(join(args.dist, "sources/file-source.js")).href);
  const sources = [fileSource(args.input)];
  const plan = await planPipeline(sources);
  const kinds = {};
  for await (const item of runPipeline(sources, plan)) kinds[item.kind] = (kinds[item.kind] ?? 0) + 1;
  process.stderr.write(`${JSON.stringify(kinds)}\n`);
  process.exit(0);
}

const input = `bench/data/${args.format}-${args.mib}.ndjson`;
if (!existsSync(input)) execFileSync(process.execPath, ["bench/generate-exports.mjs", "--format", args.format, "--mib", args.mib, "--seed", "1", "--out", input], { stdio: "inherit" });
const sides = Object.keys(builds);
const scratch = mkdtempSync(join(tmpdir(), "stream-pipeline-"));
const time = timedChild(scratch);
const runs = Object.fromEntries(sides.map((s) => [s, []]));
try {
  for (let round = 0; round < Number(args.rounds); round++) {
    const order = sides.map((_, i) => sides[(i + round) % sides.length]);
    for (const side of order) {
      await warm(input);
      const r = await time(process.execPath, ["bench/stream-pipeline.mjs", "--child", side, "--input", input, "--dist", builds[side]]);
      if (r.code !== 0) throw new Error(`${side} failed: ${r.stderr}`);
      runs[side].push({ ...r, items: JSON.parse(r.stderr.trim().split("\n").pop()) });
    }
  }
  const summary = Object.fromEntries(sides.map((s) => [s, { wall_s: median(runs[s].map((r) => r.wall_s)), cpu_s: median(runs[s].map((r) => r.cpu_s)), peak_rss_mb: median(runs[s].map((r) => r.peak_rss_mb)), items: runs[s][0].items }]));
  const first = summary[sides[0]];
  const ratio = (side, k) => Math.round((summary[side][k] / first[k]) * 100) / 100;
  const over = Object.fromEntries(sides.slice(1).map((s) => [`${s}_over_${sides[0]}`, { wall: ratio(s, "wall_s"), cpu: ratio(s, "cpu_s"), peak_rss: ratio(s, "peak_rss_mb") }]));
  console.log(JSON.stringify({ input, rounds: Number(args.rounds), load: loadavg().map((l) => Math.round(l * 10) / 10), ...summary, ...over }));
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
