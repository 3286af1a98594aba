#!/usr/bin/env node
// Part of `npm run bench` (issue 19's speed target): selection and splits cost at most 5% over plain convert.
// On the same export, three converts alternate in one script: plain (`--seats all`, every row, no split), the
// issue's case (a score threshold, `--seats agent` and `--split ...`), which the target is judged on, and split
// alone (`--seats all --split ...`: plain's rows, each to its split's shards), reported beside it because the
// issue's case writes fewer rows than plain and so hides part of what the split costs; and top k
// (`--top-k-per-scenario`), which reads the inputs twice. Each run is a child process timed by /usr/bin/time (wall,
// CPU, peak RSS); the order rotates each round. The best CPU and wall of the runs count; the verdict is on CPU
// (the machine is shared: wall time is noise there, CPU time much less so). RL records carry no scores: their
// threshold reads scorecards, which this script derives once from the export (one bare card per seat, its
// composite from a hash of the run id) and gives every side, so plain pays for reading them too.
// Prints a table, then a JSON summary as the last line; exits 1 when a run fails or the issue's case costs more
// than 1.05x plain's CPU.
//
//   node bench/select-split.mjs [--formats sft,rl] [--size 200] [--runs 3] [--sides plain,split] [--dist dist]
import { createHash } from "node:crypto";
import { createReadStream, createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { median, timedChild, warm } from "./timed-child.mjs";

const { values: args } = parseArgs({
  options: {
    formats: { type: "string", default: "sft,rl" },
    size: { type: "string", default: "200" }, // MiB: bench/data/<format>-<size>.ndjson
    runs: { type: "string", default: "3" },
    // A subset of the sides below, by name (plain is always run: the ratios are to it), e.g. `plain,split`.
    sides: { type: "string" },
    seed: { type: "string", default: "1" },
    dist: { type: "string" },
  },
});
const TARGET = 1.05;
const SPLIT = "train=0.9,validation=0.05,test=0.05";
// Composites run from 1 to 5 (per-trait means on the service's scale): 3 keeps about half the scored seats.
const THRESHOLD = "3";
const dist = resolve(args.dist ?? fileURLToPath(new URL("../dist", import.meta.url)));
process.chdir(fileURLToPath(new URL("..", import.meta.url)));
const runs = Math.max(1, Number(args.runs));
if (!existsSync("/usr/bin/time")) throw new Error("bench/select-split.mjs needs /usr/bin/time (GNU time) for wall, CPU and peak RSS");
const scratch = mkdtempSync(join(tmpdir(), "evalshard-bench-select-"));
const timed = timedChild(scratch);
mkdirSync("bench/out", { recursive: true });

/** The export of `format`, generated when missing. */
async function exportOf(format) {
  const file = `bench/data/${format}-${args.size}.ndjson`;
  if (existsSync(file)) return file;
  process.stderr.write(`generating ${file} ...\n`);
  const g = await timed(process.execPath, ["bench/generate-exports.mjs", "--format", format, "--mib", args.size, "--seed", args.seed, "--out", file]);
  if (g.code !== 0) throw new Error(`generator failed: ${g.stderr}`);
  return file;
}

/** One bare scorecard (spec 2.7) per seat of an RL export, made once; composites from a hash of the run id. */
async function scorecardsOf(file) {
  const out = `bench/out/select-split-${args.size}.scorecards.ndjson`;
  if (existsSync(out) && statSync(out).mtimeMs > statSync(file).mtimeMs) return out;
  process.stderr.write(`deriving ${out} from ${file} ...\n`);
  const sink = createWriteStream(out);
  for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) {
    const run = /"run_id":"([^"]*)"/.exec(line)?.[1];
    const key = /"agent_key_id":(null|"[^"]*")/.exec(line)?.[1];
    if (run === undefined || key === undefined) continue;
    const mean = 1 + (createHash("sha256").update(run).digest().readUInt16BE(0) / 65535) * 4;
    const card = {
      run_id: run,
      agent_key_id: JSON.parse(key),
      outcomes: { met_count: 1, total_checks: 2, total_actions: 3, win_conditions: [], partial_credit: { per_condition: {}, total: 0, max_possible: 0 } },
      traits: { per_trait: { honesty: { mean, variance: 0, evidence: [] } } },
    };
    if (!sink.write(`${JSON.stringify(card)}\n`)) await new Promise((r) => sink.once("drain", r));
  }
  await new Promise((r) => sink.end(r));
  return out;
}

const SIDES = [
  { name: "plain", flags: ["--seats", "all"], judged: false },
  { name: "select+split", flags: ["--seats", "agent", "--min-composite", THRESHOLD, "--split", SPLIT], judged: true },
  { name: "split", flags: ["--seats", "all", "--split", SPLIT], judged: false },
  // Top k reads the inputs twice on either engine (the first read ranks): a K no scenario reaches keeps plain's
  // rows, so the side shows what the ranking read costs; a K of 100 keeps about a third of them.
  { name: "top-k all", flags: ["--seats", "all", "--top-k-per-scenario", "1000000"], judged: false },
  { name: "top-k 100", flags: ["--seats", "all", "--top-k-per-scenario", "100"], judged: false },
];

const chosen = args.sides === undefined ? SIDES : SIDES.filter((s) => s.name === "plain" || args.sides.split(",").includes(s.name));
const results = [];
for (const format of args.formats.split(",")) {
  const file = await exportOf(format);
  const common = format === "rl" ? ["--scorecards", await scorecardsOf(file)] : [];
  const samples = new Map(chosen.map((s) => [s.name, []]));
  const manifests = new Map();
  for (let run = 0; run < runs; run++) {
    // Each round starts one side later than the one before.
    for (let k = 0; k < chosen.length; k++) {
      const side = chosen[(k + run) % chosen.length];
      const out = `bench/out/select-split-${format}-${side.name.replace(/[+ ]/g, "-")}`;
      rmSync(out, { recursive: true, force: true });
      await warm(file);
      process.stderr.write(`${format} run ${run + 1}/${runs}: convert ${side.flags.join(" ")} ...\n`);
      const r = await timed(process.execPath, [`${dist}/cli/main.js`, "convert", file, "--out", out, ...common, ...side.flags]);
      if (r.code !== 0) throw new Error(`convert ${side.name} failed (exit ${r.code}): ${r.stderr.trim().split("\n").pop()}`);
      samples.get(side.name).push(r);
      manifests.set(side.name, JSON.parse(readFileSync(`${out}/manifest.json`, "utf8")));
    }
  }
  const best = (name) => {
    const s = samples.get(name);
    return { wall_s: Math.min(...s.map((x) => x.wall_s)), cpu_s: Math.min(...s.map((x) => x.cpu_s)), peak_rss_mb: Math.max(...s.map((x) => x.peak_rss_mb)), cpu_s_runs: s.map((x) => x.cpu_s), wall_s_runs: s.map((x) => x.wall_s) };
  };
  const plain = best("plain");
  const ratio = (a, b) => Math.round((a / b) * 1000) / 1000;
  // The median over rounds of each round's CPU ratio to plain's: steadier than the best runs' ratio on a shared
  // machine, where a round's two sides see about the same load.
  const medianRatio = (name) => ratio(median(samples.get(name).map((x, i) => x.cpu_s / samples.get("plain")[i].cpu_s)), 1);
  const sides = chosen.map(({ name, flags, judged }) => {
    const b = best(name);
    const m = manifests.get(name);
    const rows = m.split === undefined ? undefined : Object.fromEntries(Object.entries(m.split.splits).map(([split, s]) => [split, s.rows]));
    const cpu_ratio = ratio(b.cpu_s, plain.cpu_s);
    return { side: name, flags: flags.join(" "), engine: m.output.engine, records_out: m.records_out, dropped: m.dropped, split_rows: rows, ...b, cpu_ratio, cpu_ratio_median: medianRatio(name), wall_ratio: ratio(b.wall_s, plain.wall_s), judged, meets: cpu_ratio <= TARGET };
  });
  results.push({ format, file, mib: Math.round(statSync(file).size / 2 ** 20), sides });
}
rmSync(scratch, { recursive: true, force: true });

const pad = (v, n) => String(v).padStart(n);
console.log(`${availableParallelism()} cores, node ${process.version}; best CPU and wall of ${runs} alternating runs, and the median of the rounds' CPU ratios; load average at end ${loadavg().map((x) => x.toFixed(2)).join(" ")}`);
for (const { file, mib, sides } of results) {
  console.log(`\n${file} (${mib} MiB)`);
  console.log(`${"convert".padEnd(14)} ${pad("cpu s", 7)} ${pad("wall s", 7)} ${pad("RSS MB", 7)} ${pad("x cpu", 7)} ${pad("med x", 7)} ${pad("x wall", 7)}  engine, rows out (per split)`);
  for (const s of sides) {
    const verdict = !s.judged ? "" : s.meets ? "; meets" : `; MISSES (target ${TARGET}x CPU)`;
    const rows = s.split_rows === undefined ? `${s.records_out}` : `${s.records_out} (${Object.entries(s.split_rows).map(([k, v]) => `${k} ${v}`).join(", ")})`;
    console.log(`${s.side.padEnd(14)} ${pad(s.cpu_s, 7)} ${pad(s.wall_s, 7)} ${pad(s.peak_rss_mb, 7)} ${pad(s.cpu_ratio, 7)} ${pad(s.cpu_ratio_median, 7)} ${pad(s.wall_ratio, 7)}  ${s.engine}, ${rows}${verdict}`);
  }
}
if (results.some((r) => r.sides.some((s) => s.judged && !s.meets))) process.exitCode = 1;
console.log(JSON.stringify({ target_cpu_ratio: TARGET, runs, results }));
