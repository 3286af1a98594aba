#!/usr/bin/env node
// `npm run bench`: times `evalshard convert` against a bare DuckDB COPY (bench/duckdb-convert.mjs) on the same
// synthetic export, for each format and size. Each side runs as its own child process so wall time and peak
// RSS are measured separately (/usr/bin/time when present, else polling /proc/<pid>/status VmHWM).
// Inputs are generated under bench/data/ when missing (bench/generate-exports.mjs); outputs go to bench/out/.
// Prints a human table, then a JSON summary as the last line of stdout; exits 1 if a side failed or counts differ.
//
//   node bench/convert-vs-duckdb.mjs [--sizes 200,1024] [--formats sft,rl] [--runs 1] [--seed 1] [--dist dist]
import { spawn } from "node:child_process";
import { createReadStream, existsSync, readFileSync, rmSync, mkdirSync, statSync, mkdtempSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir, totalmem } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";

const { values: args } = parseArgs({
  options: {
    sizes: { type: "string", default: "200,1024" }, // MiB
    formats: { type: "string", default: "sft,rl" },
    runs: { type: "string", default: "1" },
    seed: { type: "string", default: "1" },
    dist: { type: "string" }, // built evalshard; default: the repo's dist/ (npm run build)
  },
});
const dist = resolve(args.dist ?? fileURLToPath(new URL("../dist", import.meta.url)));
process.chdir(fileURLToPath(new URL("..", import.meta.url))); // paths below are relative to the repo root
const sizes = args.sizes.split(",").map(Number);
const formats = args.formats.split(",");
const runs = Math.max(1, Number(args.runs));
const TIME = existsSync("/usr/bin/time") ? "/usr/bin/time" : null;
const scratch = mkdtempSync(join(tmpdir(), "evalshard-bench-"));
mkdirSync("bench/out", { recursive: true });

/** Runs a command to completion; returns exit code, wall and CPU seconds, peak RSS in MB (2^20 bytes), output. */
function measure(cmd, argv) {
  const timeFile = join(scratch, "time.txt");
  const started = process.hrtime.bigint();
  const child = TIME
    ? spawn(TIME, ["-f", "%e %M %U %S", "-o", timeFile, cmd, ...argv], { stdio: ["ignore", "pipe", "pipe"] })
    : spawn(cmd, argv, { stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout = (stdout + d).slice(-1 << 20)));
  child.stderr.on("data", (d) => (stderr = (stderr + d).slice(-1 << 16)));
  let hwmKiB = 0;
  const poll = TIME
    ? null
    : setInterval(() => {
        try {
          const m = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"));
          if (m) hwmKiB = Math.max(hwmKiB, Number(m[1]));
        } catch {} // the process has exited
      }, 20);
  return new Promise((resolve) => {
    child.on("close", (code) => {
      const wall = Number(process.hrtime.bigint() - started) / 1e9;
      if (poll) clearInterval(poll);
      let result = { code, wall_s: round(wall, 2), peak_rss_mb: Math.round(hwmKiB / 1024), cpu_s: null };
      if (TIME) {
        // With a non-zero exit, time(1) writes "Command exited with non-zero status N" first.
        const [e, kib, user, sys] = readFileSync(timeFile, "utf8").trim().split("\n").pop().split(" ").map(Number);
        result = { code, wall_s: e, peak_rss_mb: Math.round(kib / 1024), cpu_s: round(user + sys, 2) };
      }
      resolve({ ...result, stdout, stderr });
    });
  });
}

const round = (x, digits = 1) => (x == null || !Number.isFinite(x) ? null : Math.round(x * 10 ** digits) / 10 ** digits);
const lastLine = (text) => text.trim().split("\n").pop();
/** The line of a failed child's stderr that says what went wrong. */
const errorLine = (text) => text.split("\n").find((l) => /error|evalshard:/i.test(l)) ?? lastLine(text);
const sum = (o = {}) => Object.values(o).reduce((a, b) => a + b, 0);

/**
 * Counts lines (records) and, as a side effect, pulls the file into the page cache. Run before every timed
 * side: this VM's kernel reclaims cold page cache within seconds (a 1 GiB file read once was 85% cached
 * 15 s later), and a side that reads from disk instead is timed on the disk.
 */
async function countLines(file) {
  let n = 0;
  for await (const buf of createReadStream(file, { highWaterMark: 1 << 22 })) {
    for (let i = buf.indexOf(10); i !== -1; i = buf.indexOf(10, i + 1)) n++;
  }
  return n;
}

/** Best (lowest) wall and CPU time of the runs, with throughput from the wall time; the highest peak RSS of the runs. */
function summarize(samples, bytes, records) {
  const ok = samples.filter((s) => s.code === 0 || s.code === 3);
  if (ok.length === 0) return { status: `failed (exit ${samples[0].code}): ${errorLine(samples[0].stderr)}`.slice(0, 300) };
  const best = Math.min(...ok.map((s) => s.wall_s));
  return {
    status: "ok",
    wall_s: best,
    cpu_s: ok[0].cpu_s === null ? null : Math.min(...ok.map((s) => s.cpu_s)), // user + sys: steadier on a busy machine
    wall_s_runs: ok.map((s) => s.wall_s),
    cpu_s_runs: ok.map((s) => s.cpu_s),
    mib_s: round(bytes / 1048576 / best),
    records_s: Math.round(records / best),
    peak_rss_mb: Math.max(...ok.map((s) => s.peak_rss_mb)),
  };
}

/**
 * The DuckDB side's column types, derived here from the build and handed over, so its timed process does
 * not load evalshard's formats (a bare COPY would not). Empty when the build cannot say: the side then
 * derives them itself (and says so in `types_from`).
 */
const columnsByFormat = new Map();
async function duckdbColumnsArgs(format) {
  if (!columnsByFormat.has(format)) {
    try {
      const { FORMATS } = await import(pathToFileURL(`${dist}/formats/index.js`).href);
      const { duckdbColumns } = await import(pathToFileURL(`${dist}/schema/duckdb-type.js`).href);
      columnsByFormat.set(format, ["--columns", duckdbColumns(FORMATS[format].columns)]);
    } catch {
      columnsByFormat.set(format, []);
    }
  }
  return columnsByFormat.get(format);
}

const cases = [];
for (const format of formats) {
  for (const size of sizes) {
    const name = `${format}-${size}`;
    const file = `bench/data/${name}.ndjson`;
    let generator = null;
    if (!existsSync(file)) {
      process.stderr.write(`generating ${file} ...\n`);
      const g = await measure(process.execPath, ["bench/generate-exports.mjs", "--format", format, "--mib", String(size), "--seed", args.seed, "--out", file]);
      if (g.code !== 0) throw new Error(`generator failed: ${g.stderr}`);
      generator = { wall_s: g.wall_s, mib_s: round(statSync(file).size / 1048576 / g.wall_s), peak_rss_mb: g.peak_rss_mb };
    }
    const bytes = statSync(file).size;
    const records = await countLines(file);
    const evalshardOut = `bench/out/${name}-evalshard`;
    const duckdbOut = `bench/out/${name}-duckdb.parquet`;
    const e = [];
    const d = [];
    let manifest = null;
    let duckdbResult = null;
    const runEvalshard = async (run) => {
      process.stderr.write(`${name} run ${run}/${runs}: evalshard ...\n`);
      rmSync(evalshardOut, { recursive: true, force: true });
      await countLines(file);
      e.push(await measure(process.execPath, [`${dist}/cli/main.js`, "convert", file, "--out", evalshardOut, "--format", format]));
      if (existsSync(`${evalshardOut}/manifest.json`)) manifest = JSON.parse(readFileSync(`${evalshardOut}/manifest.json`, "utf8"));
    };
    const runDuckdb = async (run) => {
      process.stderr.write(`${name} run ${run}/${runs}: duckdb ...\n`);
      rmSync(duckdbOut, { force: true });
      await countLines(file);
      d.push(await measure(process.execPath, ["bench/duckdb-convert.mjs", "--format", format, "--in", file, "--out", duckdbOut, "--dist", dist, ...(await duckdbColumnsArgs(format))]));
      if (d.at(-1).code === 0) duckdbResult = JSON.parse(lastLine(d.at(-1).stdout));
    };
    // Sides alternate which goes first, so neither always runs right after the other's heat and memory use.
    for (let run = 1; run <= runs; run++) {
      if (run % 2 === 1) {
        await runEvalshard(run);
        await runDuckdb(run);
      } else {
        await runDuckdb(run);
        await runEvalshard(run);
      }
    }
    const evalshard = summarize(e, bytes, records);
    const duckdb = summarize(d, bytes, records);
    if (duckdbResult) Object.assign(duckdb, { rows: duckdbResult.rows, types_from: duckdbResult.types_from });
    let counts = null;
    if (manifest && duckdbResult) {
      // DuckDB drops only flagged records; evalshard also drops duplicates, superseded, unscored, trace-less ...
      const droppedOther = sum(manifest.dropped) - (manifest.dropped.flagged ?? 0);
      const quarantined = sum(manifest.quarantined);
      const expected = duckdbResult.rows - droppedOther - quarantined;
      counts = {
        input_lines: records,
        evalshard_records_in: manifest.records_in,
        evalshard_records_out: manifest.records_out,
        evalshard_dropped: manifest.dropped,
        evalshard_quarantined: manifest.quarantined,
        duckdb_rows: duckdbResult.rows,
        evalshard_dropped_not_flagged: droppedOther,
        expected_records_out: expected,
        ok: manifest.records_out === expected && manifest.records_in === records,
      };
      Object.assign(evalshard, { records_out: manifest.records_out });
    }
    const ratio = evalshard.wall_s && duckdb.wall_s ? round(evalshard.wall_s / duckdb.wall_s, 2) : null;
    cases.push({ case: name, format, size_mib: size, file, bytes, records, generator, evalshard, duckdb, time_ratio_evalshard_over_duckdb: ratio, counts, loadavg_after: loadavg().map((x) => round(x, 2)) });
  }
}

// --- human table ---
const pad = (v, n) => String(v ?? "-").padStart(n);
console.log(`machine: ${availableParallelism()} cores, ${round(totalmem() / 2 ** 30)} GiB RAM, node ${process.version}; best of ${runs} run(s); load average at end ${loadavg().map((x) => round(x, 2)).join(" ")}; timing via ${TIME ?? "/proc VmHWM polling"}`);
console.log(`${"case".padEnd(10)} ${"side".padEnd(10)} ${pad("wall s", 7)} ${pad("cpu s", 7)} ${pad("MiB/s", 7)} ${pad("rec/s", 7)} ${pad("RSS MB", 7)} ${pad("rows out", 9)}  status`);
for (const c of cases) {
  for (const [side, r] of [["evalshard", c.evalshard], ["duckdb", c.duckdb]]) {
    const rows = side === "evalshard" ? r.records_out : r.rows;
    console.log(`${c.case.padEnd(10)} ${side.padEnd(10)} ${pad(r.wall_s, 7)} ${pad(r.cpu_s, 7)} ${pad(r.mib_s, 7)} ${pad(r.records_s, 7)} ${pad(r.peak_rss_mb, 7)} ${pad(rows, 9)}  ${r.status}`);
  }
  const gen = c.generator ? `; generated in ${c.generator.wall_s} s (${c.generator.mib_s} MiB/s)` : "";
  console.log(`${"".padEnd(10)} ${c.records} records in, ${round(c.bytes / 1048576)} MiB; time evalshard/duckdb ${c.time_ratio_evalshard_over_duckdb ?? "-"}${gen}`);
  if (c.counts) {
    const k = c.counts;
    console.log(`${"".padEnd(10)} counts ${k.ok ? "OK" : "MISMATCH"}: evalshard out ${k.evalshard_records_out} (expected ${k.expected_records_out}) = duckdb ${k.duckdb_rows} - dropped for other reasons than flagged ${k.evalshard_dropped_not_flagged} - quarantined ${sum(k.evalshard_quarantined)}; dropped ${JSON.stringify(k.evalshard_dropped)}`);
  }
}
rmSync(scratch, { recursive: true, force: true });
// Non-zero exit when a side failed or the row counts do not add up, so CI notices.
if (cases.some((c) => c.evalshard.status !== "ok" || c.duckdb.status !== "ok" || c.counts?.ok !== true)) process.exitCode = 1;
console.log(JSON.stringify({ machine: { cores: availableParallelism(), ram_gib: round(totalmem() / 2 ** 30), node: process.version, timer: TIME ?? "proc-vmhwm" }, runs, cases }));
