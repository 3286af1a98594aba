// Decontamination's cost on a nightly pull (issue 35): a full owner pull of a 10k-run world with
// decontamination on (`--suites all`: the suites read with the agent key, every record checked against them)
// against the same pull with it off (`--suites none`), side by side. Target: on within 1.1x of off.
//
//   npm run build && node bench/pull-decontamination.mjs [--runs 10000] [--format sft] [--repeat 3]
//
// The emulator runs as `evalshard serve --benchmark-runs` in its own process (so some runs are on suite
// scenarios and the rule drops records), and each pull is the built CLI in a fresh output, off and on
// alternating, so a change in the machine's load hits both alike; the ratio is the median of the rounds'.
// The last line of stdout is a JSON summary with the load averages before and after.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { serveEmulator } from "./serve-emulator.mjs";

const dist = process.env.EVALSHARD_DIST ?? new URL("../dist", import.meta.url).pathname;
const TARGET_RATIO = 1.1;

const { values } = parseArgs({ options: { runs: { type: "string", default: "10000" }, format: { type: "string", default: "sft" }, repeat: { type: "string", default: "3" } } });
const load = () => loadavg().map((x) => Number(x.toFixed(2)));
const loadBefore = load();
const server = await serveEmulator(dist, Number(values.runs), ["--benchmark-runs"]);
const work = mkdtempSync(join(tmpdir(), "evalshard-pull-decontam-"));
const rounds = [];
try {
  for (let round = 0; round < Number(values.repeat); round++) {
    const off = await pull("none", join(work, `off-${round}`));
    const on = await pull("all", join(work, `on-${round}`));
    process.stderr.write(`round ${round}: off ${JSON.stringify(off)}, on ${JSON.stringify(on)}\n`);
    rounds.push({ off, on, ratio: Number((on.seconds / off.seconds).toFixed(3)) });
  }
} finally {
  await server.stop();
  rmSync(work, { recursive: true, force: true });
}
const median = rounds.map((r) => r.ratio).toSorted((a, b) => a - b)[Math.floor(rounds.length / 2)];
console.log(
  JSON.stringify({
    bench: "pull-decontamination",
    node: process.version,
    runs: Number(values.runs),
    format: values.format,
    rounds,
    on_over_off: median,
    target_on_over_off: TARGET_RATIO,
    ok: median <= TARGET_RATIO && rounds.every((r) => r.on.dropped > 0 && r.off.dropped === 0),
    loadavg_before: loadBefore,
    loadavg_after: load(),
  }),
);

/** One full pull into a fresh `out`: wall seconds, records out and records dropped as benchmark_scenario. */
function pull(suites, out) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const env = { PATH: process.env.PATH ?? "", EVAL_OWNER_TOKEN: server.info.owner_token, EVAL_API_KEY: server.info.api_keys[0].api_key };
    const args = [`${dist}/cli/main.js`, "pull", values.format, "--base-url", server.info.url, "--out", out, "--suites", suites, "--json"];
    const proc = spawn(process.execPath, args, { env, stdio: ["ignore", "pipe", "ignore"] });
    let stdout = "";
    proc.stdout.setEncoding("utf8").on("data", (d) => (stdout += d));
    proc.once("close", (code) => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      if (code !== 0) return reject(new Error(`pull --suites ${suites} exited ${code}`));
      const summary = JSON.parse(stdout.trim().split("\n").at(-1));
      const manifest = summary.manifest ?? summary;
      resolve({ seconds: Number(seconds.toFixed(2)), records_out: manifest.records_out, dropped: manifest.dropped?.benchmark_scenario ?? 0 });
    });
  });
}
