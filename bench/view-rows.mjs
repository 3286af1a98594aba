#!/usr/bin/env node
// A view's cost in a parallel engine worker, on one thread: the worker's work (parse, view rows, shred, encode
// and compress) for plain `convert` and for each view over the same RL export, in CPU time, the sides
// alternating run by run (each round starting one side later), the median per side and its ratio to plain's.
// Without threads, main or I/O, so it moves with the view code alone: for tuning the views (bench/views.mjs
// times whole converts). Needs dist/ (npm run build).
//
//   node bench/view-rows.mjs [--file bench/data/rl-200.ndjson] [--views trl-prompt-completion,rl-steps] [--runs 3] [--no-plain] [--cpu-prof rl-steps]
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { Session } from "node:inspector/promises";
import { writeFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";

const { values: args } = parseArgs({
  options: {
    file: { type: "string", default: "bench/data/rl-200.ndjson" },
    views: { type: "string", default: "trl-prompt-completion,rl-steps" },
    runs: { type: "string", default: "3" },
    dist: { type: "string" },
    // The views alone, without plain's side (for instruction counts of one side under valgrind).
    "no-plain": { type: "boolean", default: false },
    // One side, profiled on its own once (a .cpuprofile in bench/out), after the timed runs.
    "cpu-prof": { type: "string" },
  },
});
const root = fileURLToPath(new URL("..", import.meta.url));
const dist = resolve(args.dist ?? `${root}/dist`);
const load = (path) => import(pathToFileURL(`${dist}/${path}`).href);
const [{ UnitConverter }, { loadFormatInfo }, { outputColumns, resolveUntrustedPolicy }, { textAuditPaths }, { SELECT_DEFAULTS }, { parserSchemaFor }, { viewNamed }] = await Promise.all([
  load("engines/parallel/run/unit-converter.js"),
  load("engines/parallel/fast/load-format-info.js"),
  load("stages/untrusted-policy.js"),
  load("views/text-audit-paths.js"),
  load("stages/select-plan.js"),
  load("engines/parallel/fast/parser-schema-for.js"),
  load("views/views.js"),
]);
const format = await loadFormatInfo("rl");
const policy = resolveUntrustedPolicy(format, {});
const base = { format: "rl", forced: false, acceptLaterMinor: false, untrusted: {}, filters: {}, selection: SELECT_DEFAULTS, gateBy: "seat", gates: null, scores: null, codec: "zstd", maxLineBytes: 64 << 20, split: null, suites: null };
const configOf = (view) =>
  view === "plain"
    ? { ...base, columns: outputColumns(format, policy), schema: parserSchemaFor(format, policy), view: null, textAudit: textAuditPaths(format) }
    : { ...base, columns: viewNamed(view).columns, schema: parserSchemaFor(format, policy, null), view: { name: view, options: { onInjection: "keep", gamma: 1, ktoLabel: "scalar_reward" }, quarantine: false, context: null }, textAudit: null };
const input = readFileSync(resolve(root, args.file));
const mib = input.length / 2 ** 20;
const UNIT = 8 << 20;
const shared = new SharedArrayBuffer(UNIT + (1 << 20));
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** One pass of a fresh worker over the file, in units of 8 MiB: CPU ms and rows. */
async function pass(side) {
  const converter = new UnitConverter(configOf(side));
  let ms = 0;
  let rows = 0;
  for (let pos = 0, unit = 0; pos < input.length; unit++) {
    let end = input.lastIndexOf(10, Math.min(input.length, pos + UNIT));
    end = end <= pos ? input.length : end + 1;
    // In shared memory, as main hands a worker its batches: `local` copies it into the wasm walk's region.
    const bytes = Buffer.from(shared, 0, end - pos);
    bytes.set(input.subarray(pos, end));
    pos = end;
    const t = cpu();
    const outcomes = await converter.batch(unit, unit, converter.local(bytes));
    const records = outcomes.columns.rowBytes.length;
    const unitRows = outcomes.rowCounts === null ? records : outcomes.rowCounts.reduce((n, k) => n + k, 0);
    converter.decide(unit, new Uint8Array(unitRows).fill(1), unitRows > 0 ? [unitRows] : [], null, outcomes.rowCounts === null ? null : new Uint8Array(records).fill(1));
    ms += cpu() - t;
    rows += unitRows;
  }
  return { ms, rows };
}

const sides = args["no-plain"] ? args.views.split(",") : ["plain", ...args.views.split(",")];
const samples = new Map(sides.map((s) => [s, []]));
const rows = new Map();
for (let run = 0; run < Number(args.runs); run++) {
  for (let k = 0; k < sides.length; k++) {
    const side = sides[(k + run) % sides.length];
    const r = await pass(side);
    samples.get(side).push(r.ms);
    rows.set(side, r.rows);
    process.stderr.write(`run ${run + 1}: ${side} ${r.ms.toFixed(0)} ms CPU\n`);
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const plain = args["no-plain"] ? Number.NaN : median(samples.get("plain"));
const summary = sides.map((side) => {
  const m = median(samples.get(side));
  return { side, cpu_ms: Math.round(m), mib_s: Math.round(mib / (m / 1000)), x_plain: Math.round((m / plain) * 100) / 100, rows: rows.get(side), runs_ms: samples.get(side).map(Math.round) };
});
for (const s of summary) console.log(`${s.side.padEnd(24)} ${String(s.cpu_ms).padStart(6)} ms CPU ${String(s.mib_s).padStart(5)} MiB/s  x${s.x_plain}  (${s.rows} rows; runs ${s.runs_ms.join(", ")})`);
console.log(JSON.stringify({ file: args.file, mib: Math.round(mib), runs: Number(args.runs), sides: summary }));

if (args["cpu-prof"] !== undefined) {
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", { interval: 200 });
  await session.post("Profiler.start");
  await pass(args["cpu-prof"]);
  const { profile } = await session.post("Profiler.stop");
  const out = `${root}/bench/out/view-rows-${args["cpu-prof"]}.cpuprofile`;
  writeFileSync(out, JSON.stringify(profile));
  console.error(`profile: ${out}`);
}
