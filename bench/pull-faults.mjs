// A nightly pull against a faulty service (issue 40): the same emulator world served twice, once without
// faults and once with 30% of requests faulted (429 and 503 with Retry-After, 502, 504 after a delay,
// resets, cuts and clean ends of streams, slow bodies, partial_stream lines), and the faulty pull's time
// against the fault-free one's (target: at most 3x). Both pulls must publish the same dataset: the same
// shards (by sha256) and the same ledger, byte for byte (`same_dataset`).
//
//   npm run build && node bench/pull-faults.mjs [--runs 50000] [--faults SPEC] [--format sft] [--pulls fault_free,faulty] [--hedge on|off]
//
// --pulls: which of the two pulls to run (the ratio needs both). --hedge: the pulls' `source.hedge` (default on).
// The emulator runs as `evalshard serve` in its own process and each pull in another, through the library
// as `evalshard pull` runs it. Progress goes to stderr; the last line of stdout is a JSON summary with the
// load averages before and after (the machine may be shared: read the figures next to them).
import { spawn } from "node:child_process";
import { pullPipelineText } from "./pull-pipeline.mjs";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { serveEmulator } from "./serve-emulator.mjs";

const dist = process.env.EVALSHARD_DIST ?? new URL("../dist", import.meta.url).pathname;
const TARGET_RATIO = 3;
const CONCURRENCY = 4;
/** 30% of requests in all, spread over every request fault the emulator has, plus partial_stream lines. */
const FAULTS = "429=0.06,502=0.04,503=0.04,504=0.03,reset=0.04,cut=0.04,slow=0.02,end=0.03,partial=0.02";

const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "50000" },
    faults: { type: "string", default: FAULTS },
    format: { type: "string", default: "sft" },
    pulls: { type: "string", default: "fault_free,faulty" },
    hedge: { type: "string", default: "on" },
    child: { type: "string" },
  },
});

if (values.child !== undefined) await child(JSON.parse(values.child));
else await main();

async function main() {
  const load = () => loadavg().map((x) => Number(x.toFixed(2)));
  const loadBefore = load();
  const runs = Number(values.runs);
  const pulls = {};
  const wanted = new Set(values.pulls.split(","));
  for (const [name, faults] of [
    ["fault_free", null],
    ["faulty", values.faults],
  ].filter(([name]) => wanted.has(name))) {
    const server = await serveEmulator(dist, runs, faults === null ? [] : ["--faults", faults]);
    const work = mkdtempSync(join(tmpdir(), "evalshard-pull-faults-"));
    try {
      pulls[name] = await pullInChild({ url: server.info.url, token: server.info.owner_token, format: values.format, hedge: values.hedge, out: join(work, "out") });
      process.stderr.write(`${runs} runs, ${name}: ${JSON.stringify(pulls[name])}\n`);
    } finally {
      await server.stop();
      rmSync(work, { recursive: true, force: true });
    }
  }
  const both = pulls.faulty !== undefined && pulls.fault_free !== undefined;
  const ratio = both ? Number((pulls.faulty.seconds / pulls.fault_free.seconds).toFixed(2)) : null;
  console.log(
    JSON.stringify({
      bench: "pull-faults",
      node: process.version,
      runs,
      format: values.format,
      faults: values.faults,
      hedge: values.hedge,
      ...pulls,
      faulty_over_fault_free: ratio,
      target_faulty_over_fault_free: TARGET_RATIO,
      same_dataset: both ? pulls.faulty.dataset === pulls.fault_free.dataset : null,
      ok: both && ratio <= TARGET_RATIO && pulls.faulty.dataset === pulls.fault_free.dataset,
      loadavg_before: loadBefore,
      loadavg_after: load(),
    }),
  );
}

/** One night in a fresh process: its time and outcome. */
function pullInChild(options) {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [new URL(import.meta.url).pathname, "--child", JSON.stringify(options)], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    proc.stdout.setEncoding("utf8").on("data", (d) => (out += d));
    proc.once("close", (code) => (code === 0 ? resolve(JSON.parse(out.trim().split("\n").at(-1))) : reject(new Error(`the pull exited ${code}`))));
  });
}

/** The child: a night through the library, as `evalshard pull` runs it, counting the client's retries. */
async function child({ url, token, format, hedge, out }) {
  const { runNightly, parsePipeline } = await import(`${dist}/index.js`);
  const text = pullPipelineText({ name: "pull-faults", url, format, concurrency: CONCURRENCY, hedge, out });
  const env = { EVAL_OWNER_TOKEN: token };
  let report = null;
  // When each kind of pull event first and last came, in seconds from the start: where the night went.
  const phases = {};
  const started = performance.now();
  const cpu = process.cpuUsage();
  const onPullEvent = (e) => {
    const at = Number(((performance.now() - started) / 1000).toFixed(1));
    phases[e.type] = [phases[e.type]?.[0] ?? at, at];
    if (e.type === "done") report = e.report;
  };
  const result = await runNightly(parsePipeline(text, "pull-faults.yaml", env), { env, onPullEvent });
  const seconds = (performance.now() - started) / 1000;
  const { user, system } = process.cpuUsage(cpu);
  console.log(
    JSON.stringify({
      seconds: Number(seconds.toFixed(2)),
      cpu_seconds: Number(((user + system) / 1e6).toFixed(2)),
      records_out: result.manifest.records_out,
      requests: report?.requests ?? null,
      retries: report?.retries ?? null,
      hedges: report?.hedges ?? null,
      stream_cuts: report?.streamCuts ?? null,
      per_run_fetches: report?.perRunFetches ?? null,
      deferred: report?.deferred.length ?? null,
      phases,
      dataset: datasetDigest(out),
    }),
  );
}

/** The published dataset in one hash: every shard's path and sha256 (from the state file) and the ledger's bytes. */
function datasetDigest(dir) {
  const state = JSON.parse(readFileSync(join(dir, "_state/state.json"), "utf8"));
  const hash = createHash("sha256");
  for (const shard of state.shards) hash.update(`${shard.path} ${shard.sha256}\n`);
  hash.update(readFileSync(join(dir, "_state/ledger.ndjson")));
  return hash.digest("hex").slice(0, 16);
}
