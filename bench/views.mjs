#!/usr/bin/env node
// Part of `npm run bench` (issue 18's speed target): `evalshard convert --view NAME` against plain `evalshard
// convert` on the same RL export, as ratios measured in the same script. Target: wall time at most 1.6x
// plain's, peak RSS within 1.2x. Each run is a child process timed by /usr/bin/time (wall, CPU, peak RSS);
// plain and view runs alternate (plain, view A, view B, then the next round starting elsewhere), so neither
// side always runs right after the other's heat; the best wall of the runs counts, the highest RSS. On a shared
// machine judge by CPU (user + system, every thread): "x cpu" is best over best, "x cpu~" median over median.
// Prints a table, then a JSON summary as the last line; exits 1 when a run fails or a target is missed.
//
//   node bench/views.mjs [--size 1024] [--views trl-prompt-completion,rl-steps] [--runs 3] [--dist dist]
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { timedChild, warm } from "./timed-child.mjs";

const { values: args } = parseArgs({
  options: {
    size: { type: "string", default: "1024" }, // MiB: bench/data/rl-<size>.ndjson
    views: { type: "string", default: "trl-prompt-completion,rl-steps" },
    runs: { type: "string", default: "3" },
    seed: { type: "string", default: "1" },
    dist: { type: "string" },
  },
});
const TIME_TARGET = 1.6;
const RSS_TARGET = 1.2;
const dist = resolve(args.dist ?? fileURLToPath(new URL("../dist", import.meta.url)));
process.chdir(fileURLToPath(new URL("..", import.meta.url)));
const file = `bench/data/rl-${args.size}.ndjson`;
const views = args.views.split(",");
const runs = Math.max(1, Number(args.runs));
if (!existsSync("/usr/bin/time")) throw new Error("bench/views.mjs needs /usr/bin/time (GNU time) for wall, CPU and peak RSS");
const scratch = mkdtempSync(join(tmpdir(), "evalshard-bench-views-"));
const timed = timedChild(scratch);
mkdirSync("bench/out", { recursive: true });
if (!existsSync(file)) {
  process.stderr.write(`generating ${file} ...\n`);
  const g = await timed(process.execPath, ["bench/generate-exports.mjs", "--format", "rl", "--mib", args.size, "--seed", args.seed, "--out", file]);
  if (g.code !== 0) throw new Error(`generator failed: ${g.stderr}`);
}

const sides = [null, ...views];
const samples = new Map(sides.map((s) => [s, []]));
const manifests = new Map();
for (let run = 0; run < runs; run++) {
  // Each round starts one side later than the one before.
  for (let k = 0; k < sides.length; k++) {
    const view = sides[(k + run) % sides.length];
    const out = `bench/out/views-${view ?? "plain"}`;
    rmSync(out, { recursive: true, force: true });
    await warm(file);
    process.stderr.write(`run ${run + 1}/${runs}: convert ${view === null ? "(plain)" : `--view ${view}`} ...\n`);
    const r = await timed(process.execPath, [`${dist}/cli/main.js`, "convert", file, "--out", out, ...(view === null ? [] : ["--view", view])]);
    if (r.code !== 0) throw new Error(`convert ${view ?? "(plain)"} failed (exit ${r.code}): ${r.stderr.trim().split("\n").pop()}`);
    samples.get(view).push(r);
    manifests.set(view, JSON.parse(readFileSync(`${out}/manifest.json`, "utf8")));
  }
}
rmSync(scratch, { recursive: true, force: true });

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const best = (view) => {
  const s = samples.get(view);
  return {
    wall_s: Math.min(...s.map((x) => x.wall_s)),
    cpu_s: Math.min(...s.map((x) => x.cpu_s)),
    cpu_s_median: median(s.map((x) => x.cpu_s)),
    peak_rss_mb: Math.max(...s.map((x) => x.peak_rss_mb)),
    wall_s_runs: s.map((x) => x.wall_s),
    cpu_s_runs: s.map((x) => x.cpu_s),
  };
};
const plain = best(null);
const ratio = (a, b) => Math.round((a / b) * 100) / 100;
const cases = views.map((view) => {
  const b = best(view);
  const m = manifests.get(view);
  const time = ratio(b.wall_s, plain.wall_s);
  const rss = ratio(b.peak_rss_mb, plain.peak_rss_mb);
  return { view, engine: m.output.engine, rows_out: m.view.rows_out, ...b, time_ratio: time, cpu_ratio: ratio(b.cpu_s, plain.cpu_s), cpu_ratio_median: ratio(b.cpu_s_median, plain.cpu_s_median), rss_ratio: rss, meets: time <= TIME_TARGET && rss <= RSS_TARGET };
});

const mib = statSync(file).size / 2 ** 20;
const pad = (v, n) => String(v).padStart(n);
console.log(`${file} (${Math.round(mib)} MiB), ${availableParallelism()} cores, node ${process.version}; best wall of ${runs}, highest RSS; load average at end ${loadavg().map((x) => x.toFixed(2)).join(" ")}`);
console.log(`${"convert".padEnd(28)} ${pad("wall s", 7)} ${pad("cpu s", 7)} ${pad("RSS MB", 7)} ${pad("x time", 7)} ${pad("x cpu", 7)} ${pad("x cpu~", 7)} ${pad("x RSS", 7)}  engine, rows`);
console.log(`${"(plain)".padEnd(28)} ${pad(plain.wall_s, 7)} ${pad(plain.cpu_s, 7)} ${pad(plain.peak_rss_mb, 7)} ${pad("", 7)} ${pad("", 7)} ${pad("", 7)} ${pad("", 7)}  ${manifests.get(null).output.engine}, ${manifests.get(null).records_out}`);
for (const c of cases) {
  const verdict = c.meets ? "meets" : `MISSES (target ${TIME_TARGET}x time, ${RSS_TARGET}x RSS)`;
  console.log(`${`--view ${c.view}`.padEnd(28)} ${pad(c.wall_s, 7)} ${pad(c.cpu_s, 7)} ${pad(c.peak_rss_mb, 7)} ${pad(c.time_ratio, 7)} ${pad(c.cpu_ratio, 7)} ${pad(c.cpu_ratio_median, 7)} ${pad(c.rss_ratio, 7)}  ${c.engine}, ${c.rows_out}; ${verdict}`);
}
if (cases.some((c) => !c.meets)) process.exitCode = 1;
console.log(JSON.stringify({ file, mib: Math.round(mib), runs, targets: { time: TIME_TARGET, rss: RSS_TARGET }, plain, cases }));
