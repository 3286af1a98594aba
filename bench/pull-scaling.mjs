// How a nightly pull scales with the service (issue 21): peak RSS of a full pull and of a no-op rerun for
// emulator worlds of 10k, 50k and 100k runs (target: flat, at most 400 MB at 100k), and the rerun's time
// against a bare download of the same export streams (target: at most 1.5x): the very requests the rerun
// made, replayed with plain `fetch` at the pull's concurrency, bodies read and discarded.
//
//   npm run build && node bench/pull-scaling.mjs [--runs 10000,50000,100000] [--format sft] [--repeat N]
//
// --heap-mb N: each pull's process runs with --max-old-space-size=N (the heap policy of docs/decisions.md,
// "Nightly pull memory"); without it, Node's default for the machine.
// --growing-percent N: each pull's process runs with V8's --heap-growing-percent=N, as a node flag, or with
// --growing-at-runtime set from inside the process before the night starts (v8.setFlagsFromString), as the CLI's
// pull and run do (docs/decisions.md, "Nightly pull memory: the heap's growing percent").
// --node-flags "F ...": more flags for each pull's node (V8's young generation: `--max-semi-space-size=16`).
// --workers N: the night's executor (`run --workers`), as runNightly's options.
// --repeat N: N rounds of (rerun, bare download) per size, alternating; the median ratio is reported, in wall
// time (the target) and in CPU time (user + system of the pull's process against the bare download's), which a
// loaded machine disturbs less.
//
// The emulator runs as `evalshard serve` in its own process and each pull in another (`--child`), so a
// pull's peak RSS is its own (process.resourceUsage().maxRSS). EVALSHARD_DIST points at another build
// (default ../dist). Progress goes to stderr; the last line of stdout is a JSON summary with the load
// averages before and after (the machine may be shared: read the figures next to them).
import { spawn } from "node:child_process";
import { pullPipelineText } from "./pull-pipeline.mjs";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { serveEmulator } from "./serve-emulator.mjs";

const dist = process.env.EVALSHARD_DIST ?? new URL("../dist", import.meta.url).pathname;
const TARGET_PEAK_MB = 400;
const TARGET_RERUN_RATIO = 1.5;
const CONCURRENCY = 4;

const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "10000,50000,100000" },
    format: { type: "string", default: "sft" },
    repeat: { type: "string", default: "1" },
    "heap-mb": { type: "string" },
    "growing-percent": { type: "string" },
    "growing-at-runtime": { type: "boolean", default: false },
    child: { type: "string" },
    workers: { type: "string" },
    "node-flags": { type: "string" },
  },
});

if (values.child !== undefined) await child(JSON.parse(values.child));
else await main();

async function main() {
  const load = () => loadavg().map((x) => Number(x.toFixed(2)));
  const loadBefore = load();
  const sizes = [];
  for (const runs of values.runs.split(",").map(Number)) {
    const server = await serveEmulator(dist, runs);
    const work = mkdtempSync(join(tmpdir(), "evalshard-pull-scaling-"));
    try {
      const base = { url: server.info.url, token: server.info.owner_token, format: values.format, out: join(work, "out") };
      const full = await pullInChild({ ...base });
      process.stderr.write(`${runs} runs, full pull: ${JSON.stringify(full)}\n`);
      const requests = join(work, "requests.json");
      // Rerun and bare download alternate, so a change in the machine's load hits both alike; the ratio
      // is the median of the rounds' ratios.
      const rounds = [];
      for (let round = 0; round < Number(values.repeat); round++) {
        const rerun = await pullInChild({ ...base, record: requests });
        process.stderr.write(`${runs} runs, no-op rerun: ${JSON.stringify(rerun)}\n`);
        const bare = await bareDownload(JSON.parse(readFileSync(requests, "utf8")), server.info.owner_token);
        process.stderr.write(`${runs} runs, bare fetch of the rerun's requests: ${JSON.stringify(bare)}\n`);
        rounds.push({ rerun, bare, ratio: Number((rerun.seconds / bare.seconds).toFixed(2)), cpuRatio: Number((rerun.cpu_seconds / bare.cpu_seconds).toFixed(2)) });
      }
      const median = rounds.toSorted((a, b) => a.ratio - b.ratio)[Math.floor(rounds.length / 2)];
      const { rerun, bare } = median;
      sizes.push({
        runs,
        records: full.records_out,
        full: { seconds: full.seconds, cpu_seconds: full.cpu_seconds, peak_rss_mb: full.peak_rss_mb },
        rerun: { seconds: rerun.seconds, cpu_seconds: rerun.cpu_seconds, peak_rss_mb: Math.max(...rounds.map((r) => r.rerun.peak_rss_mb)), changed: rounds.some((r) => r.rerun.changed) },
        bare_download: bare,
        rerun_over_bare: median.ratio,
        rounds: rounds.map((r) => r.ratio),
        // The same ratio in CPU time (the pull's process against the bare download's), median of the rounds.
        rerun_over_bare_cpu: rounds.map((r) => r.cpuRatio).toSorted((a, b) => a - b)[Math.floor(rounds.length / 2)],
        rounds_cpu: rounds.map((r) => r.cpuRatio),
        loadavg: load(),
      });
    } finally {
      await server.stop();
      rmSync(work, { recursive: true, force: true });
    }
  }
  const peak = Math.max(...sizes.flatMap((s) => [s.full.peak_rss_mb, s.rerun.peak_rss_mb]));
  const worstRatio = Math.max(...sizes.map((s) => s.rerun_over_bare));
  console.log(
    JSON.stringify({
      bench: "pull-scaling",
      node: process.version,
      format: values.format,
      heap_mb: values["heap-mb"] === undefined ? null : Number(values["heap-mb"]),
      heap_growing_percent: values["growing-percent"] === undefined ? null : Number(values["growing-percent"]),
      growing_at_runtime: values["growing-at-runtime"],
      node_flags: values["node-flags"] ?? null,
      sizes,
      peak_rss_mb: peak,
      target_peak_rss_mb: TARGET_PEAK_MB,
      worst_rerun_over_bare: worstRatio,
      target_rerun_over_bare: TARGET_RERUN_RATIO,
      ok: peak <= TARGET_PEAK_MB && worstRatio <= TARGET_RERUN_RATIO && sizes.every((s) => s.rerun.changed === false),
      loadavg_before: loadBefore,
      loadavg_after: load(),
    }),
  );
}

/** One night in a fresh process: its time, peak RSS and outcome; with `record`, the requests it made go there. */
function pullInChild(options) {
  return new Promise((resolve, reject) => {
    const heap = values["heap-mb"] === undefined ? [] : [`--max-old-space-size=${values["heap-mb"]}`];
    if (values["node-flags"] !== undefined) heap.push(...values["node-flags"].split(" ").filter(Boolean));
    const growing = values["growing-percent"];
    if (growing !== undefined && !values["growing-at-runtime"]) heap.push(`--heap-growing-percent=${growing}`);
    else if (growing !== undefined) options = { ...options, growingPercent: Number(growing) };
    if (values.workers !== undefined) options = { ...options, workers: Number(values.workers) };
    const proc = spawn(process.execPath, [...heap, new URL(import.meta.url).pathname, "--child", JSON.stringify(options)], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    proc.stdout.setEncoding("utf8").on("data", (d) => (out += d));
    proc.once("close", (code) => (code === 0 ? resolve(JSON.parse(out.trim().split("\n").at(-1))) : reject(new Error(`the pull exited ${code}`))));
  });
}

/** The child: a night through the library, as `evalshard pull` runs it. */
async function child({ url, token, format, out, record, growingPercent, workers }) {
  if (growingPercent !== undefined) (await import("node:v8")).setFlagsFromString(`--heap-growing-percent=${growingPercent}`);
  const { runNightly, parsePipeline } = await import(`${dist}/index.js`);
  const requests = [];
  if (record !== undefined) {
    const real = globalThis.fetch;
    globalThis.fetch = (input, init) => {
      const body = typeof init?.body === "string" ? init.body : undefined;
      requests.push({ url: String(input instanceof Request ? input.url : input), method: init?.method ?? "GET", ...(body === undefined ? {} : { body }) });
      return real(input, init);
    };
  }
  const text = pullPipelineText({ name: "pull-scaling", url, format, concurrency: CONCURRENCY, out });
  const env = { EVAL_OWNER_TOKEN: token };
  const started = performance.now();
  const cpu = process.cpuUsage();
  const result = await runNightly(parsePipeline(text, "pull-scaling.yaml", env), { env }, workers === undefined ? {} : { workers });
  const seconds = (performance.now() - started) / 1000;
  const cpuSeconds = cpuSecondsSince(cpu);
  if (record !== undefined) writeFileSync(record, JSON.stringify(requests));
  console.log(
    JSON.stringify({
      seconds: Number(seconds.toFixed(2)),
      cpu_seconds: cpuSeconds,
      peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
      records_out: result.manifest.records_out,
      changed: result.changed,
      requests: requests.length,
    }),
  );
}

/** The same requests with plain `fetch`, `CONCURRENCY` at a time in the order they were made, bodies discarded. */
async function bareDownload(requests, token) {
  let next = 0;
  let bytes = 0;
  const started = performance.now();
  const cpu = process.cpuUsage();
  const worker = async () => {
    while (next < requests.length) {
      const { url, method, body } = requests[next++];
      const headers = { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) };
      const res = await fetch(url, { method, headers, ...(body === undefined ? {} : { body }) });
      for await (const chunk of res.body ?? []) bytes += chunk.byteLength;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const seconds = (performance.now() - started) / 1000;
  return { requests: requests.length, megabytes: Number((bytes / 1e6).toFixed(1)), seconds: Number(seconds.toFixed(2)), cpu_seconds: cpuSecondsSince(cpu) };
}

/** This process's CPU time (user + system) since `start`, in seconds: less noisy than wall time on a shared machine. */
function cpuSecondsSince(start) {
  const { user, system } = process.cpuUsage(start);
  return Number(((user + system) / 1e6).toFixed(2));
}
