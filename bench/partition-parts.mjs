// Issue 37: a night split into N=4 parts on this machine's 2 cores, run the way a scheduler runs them (all N at
// once, `--partition auto`) and then committed, against one job over the same world. Target: the parts and the
// commit together within 1.3x of the single job's wall time. Both write Parquet (zstd, 16 buckets) from the same
// emulator process (`evalshard serve`); each round runs the single job and the partitioned night into fresh
// outputs, alternating, and the median ratio is reported.
//
//   npm run build && node bench/partition-parts.mjs [--runs 20000] [--parts 4] [--repeat 3] [--by run|scenario]
//
// Each side's CPU seconds are reported too (Linux: the children's and the emulator's from /proc), since a wall
// time on a shared machine says as much about the other tenants as about the night.
//
// Progress goes to stderr; stdout's last line is a JSON summary with the load averages before and after (the
// machine may be shared: read the figures next to them).
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { pullPipelineText } from "./pull-pipeline.mjs";
import { serveEmulator } from "./serve-emulator.mjs";
import { median } from "./timed-child.mjs";

const dist = process.env.EVALSHARD_DIST ?? new URL("../dist", import.meta.url).pathname;
const TARGET_RATIO = 1.3;
const { values } = parseArgs({ options: { runs: { type: "string", default: "20000" }, parts: { type: "string", default: "4" }, repeat: { type: "string", default: "3" }, by: { type: "string", default: "run" } } });
const parts = Number(values.parts);

/** `evalshard ARGS` with `env`; resolves to its wall seconds, or throws with its stderr. */
function evalshard(args, env) {
  const started = process.hrtime.bigint();
  const child = spawn(process.execPath, [`${dist}/cli/main.js`, ...args], { env: { PATH: process.env.PATH ?? "", ...env }, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr = (stderr + d).slice(-4096)));
  return new Promise((resolve, reject) =>
    child.on("close", (code) => (code === 0 ? resolve(Number(process.hrtime.bigint() - started) / 1e9) : reject(new Error(`evalshard ${args[0]} exited ${code}: ${stderr}`)))),
  );
}

/** CPU seconds (user + system) of process `pid`, from /proc; `children` reads those of its reaped children instead. */
function cpuSeconds(pid, children = false) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").replace(/^.*\) /, "").split(" ");
    const at = children ? 13 : 11; // utime, stime at 14, 15 of stat(5); cutime, cstime at 16, 17
    return (Number(fields[at]) + Number(fields[at + 1])) / 100;
  } catch {
    return Number.NaN;
  }
}
/** CPU seconds spent by this script's finished children and the emulator so far (a difference of two readings is a phase's). */
const cpuNow = (server) => cpuSeconds(process.pid, true) + cpuSeconds(server.pid);

const load = () => loadavg().map((x) => Number(x.toFixed(2)));
const loadBefore = load();
const server = await serveEmulator(dist, Number(values.runs));
const work = mkdtempSync(join(tmpdir(), "evalshard-bench-parts-"));
const rounds = [];
try {
  for (let round = 0; round < Number(values.repeat); round++) {
    const pipeline = (name) => {
      const path = join(work, `${name}-${round}.yaml`);
      const text = pullPipelineText({ name: "night", url: server.info.url, format: "sft", concurrency: 4, out: join(work, `${name}-${round}`) }).replace("  concurrency: 4", `  concurrency: 4\n  partition: \${EVALSHARD_PARTITION:-}\n  partition_by: ${values.by}`);
      writeFileSync(path, `${text}\n`);
      return path;
    };
    const env = { EVAL_OWNER_TOKEN: server.info.owner_token, EVALSHARD_NIGHT: "bench" };
    const cpu0 = cpuNow(server);
    const service0 = cpuSeconds(server.pid);
    const single = await evalshard(["run", pipeline("single")], env);
    const cpu1 = cpuNow(server);
    const service1 = cpuSeconds(server.pid);
    const path = pipeline("parts");
    const started = process.hrtime.bigint();
    const each = await Promise.all(Array.from({ length: parts }, (_, k) => evalshard(["run", path], { ...env, EVALSHARD_PARTITION: "auto", SLURM_ARRAY_TASK_ID: String(k), SLURM_ARRAY_TASK_COUNT: String(parts) })));
    const commit = await evalshard(["commit", join(work, `parts-${round}`), "--parts", String(parts), "--night", "bench"], env);
    const partitioned = Number(process.hrtime.bigint() - started) / 1e9;
    const cpu2 = cpuNow(server);
    const service2 = cpuSeconds(server.pid);
    // The emulator's share apart: on this machine it is one thread serving every part.
    const cpu = { single_cpu_s: round2(cpu1 - cpu0), partitioned_cpu_s: round2(cpu2 - cpu1), cpu_ratio: round2((cpu2 - cpu1) / (cpu1 - cpu0)), service_cpu_s: [round2(service1 - service0), round2(service2 - service1)] };
    rounds.push({ single_s: round2(single), parts_s: each.map(round2), commit_s: round2(commit), partitioned_s: round2(partitioned), ratio: round2(partitioned / single), ...cpu });
    process.stderr.write(`${JSON.stringify(rounds.at(-1))}\n`);
  }
} finally {
  await server.stop();
  rmSync(work, { recursive: true, force: true });
}
const ratio = median(rounds.map((r) => r.ratio));
console.log(JSON.stringify({ runs: Number(values.runs), parts, by: values.by, rounds, median_ratio: ratio, median_cpu_ratio: median(rounds.map((r) => r.cpu_ratio)), target: TARGET_RATIO, ok: ratio <= TARGET_RATIO, load_before: loadBefore, load_after: load() }));

function round2(x) {
  return Math.round(x * 100) / 100;
}
