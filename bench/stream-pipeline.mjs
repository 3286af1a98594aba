#!/usr/bin/env node
// The library's stream (planPipeline + runPipeline, consumed item by item) against the stages' record-at-a-time
// pipeline it replaced, side by side in one run: each side a child timed by /usr/bin/time (CPU-s over every
// thread, peak RSS), every round each side once, each round starting with the other side. The figure to read is
// new/old of the medians. The old side is dist/engines/stages/pipeline.js; once that is deleted only the new runs.
//
//   node bench/stream-pipeline.mjs [--mib 200] [--format sft] [--rounds 3] [--dist dist]
//
// The input is bench/data/{format}-{mib}.ndjson (generated when missing, bench/generate-exports.mjs).
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
    dist: { type: "string", default: "dist" },
    child: { type: "string" },
    input: { type: "string" },
  },
});
const dist = resolve(args.dist);
const SIDES = { old: "engines/stages/pipeline.js", new: "library/stream-pipeline.js" };

if (args.child !== undefined) {
  // One side's run: every item consumed, counted by kind (what a training repo's loop would do, minus its work).
  const { planPipeline, runPipeline } = await import(pathToFileURL(join(dist, SIDES[args.child])).href);
  const { fileSource } = await import(pathToFileURL(join(dist, "sources/file-source.js")).href);
  const sources = [fileSource(args.input)];
  const plan = await planPipeline(sources);
  const kinds = {};
  for await (const item of runPipeline(sources, plan)) kinds[item.kind] = (kinds[item.kind] ?? 0) + 1;
  process.stderr.write(`${JSON.stringify(kinds)}\n`);
  process.exit(0);
}

const input = `bench/data/${args.format}-${args.mib}.ndjson`;
if (!existsSync(input)) execFileSync(process.execPath, ["bench/generate-exports.mjs", "--format", args.format, "--mib", args.mib, "--seed", "1", "--out", input], { stdio: "inherit" });
const sides = Object.keys(SIDES).filter((side) => existsSync(join(dist, SIDES[side])));
const scratch = mkdtempSync(join(tmpdir(), "stream-pipeline-"));
const time = timedChild(scratch);
const runs = Object.fromEntries(sides.map((s) => [s, []]));
try {
  for (let round = 0; round < Number(args.rounds); round++) {
    const order = round % 2 === 0 ? sides : [...sides].reverse();
    for (const side of order) {
      await warm(input);
      const r = await time(process.execPath, ["bench/stream-pipeline.mjs", "--child", side, "--input", input, "--dist", dist]);
      if (r.code !== 0) throw new Error(`${side} failed: ${r.stderr}`);
      runs[side].push({ ...r, items: JSON.parse(r.stderr.trim().split("\n").pop()) });
    }
  }
  const summary = Object.fromEntries(sides.map((s) => [s, { wall_s: median(runs[s].map((r) => r.wall_s)), cpu_s: median(runs[s].map((r) => r.cpu_s)), peak_rss_mb: median(runs[s].map((r) => r.peak_rss_mb)), items: runs[s][0].items }]));
  const ratio = (k) => (summary.old === undefined ? null : Math.round((summary.new[k] / summary.old[k]) * 100) / 100);
  console.log(JSON.stringify({ input, rounds: Number(args.rounds), load: loadavg().map((l) => Math.round(l * 10) / 10), ...summary, new_over_old: { wall: ratio("wall_s"), cpu: ratio("cpu_s"), peak_rss: ratio("peak_rss_mb") } }));
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
