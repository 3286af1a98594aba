// Throughput of the bundled emulator over HTTP: how many SFT records per second a client can pull
// from the owner bulk export (`GET /api/evals/finetuning?limit=500`), parsing every line. Also the agent
// SFT and owner RL bulk exports, for comparison.
//
//   npx tsc -p tsconfig.build.json && node bench/emulator-throughput.mjs [--runs 20000] [--requests 40] [--server cli|worker]
//
// --server cli (the default) measures what users run: `evalshard serve` as its own process (and checks it
// exits 0 on SIGTERM afterwards). --server worker runs `startEmulator()` in a worker thread instead. Either
// way the server and the client each get a core. EVALSHARD_DIST points at another build output (default
// ../dist). Progress goes to stderr; the last line of stdout is a JSON summary, with the load averages
// before and after (the machine is shared: read the figures next to them).
import { loadavg } from "node:os";
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import { parseArgs } from "node:util";
import { serveEmulator } from "./serve-emulator.mjs";

const dist = process.env.EVALSHARD_DIST ?? new URL("../dist", import.meta.url).pathname;
const TARGET_RECORDS_PER_SECOND = 5000;

if (isMainThread) {
  const { values } = parseArgs({
    options: {
      runs: { type: "string", default: "20000" },
      requests: { type: "string", default: "40" },
      server: { type: "string", default: "cli" },
    },
  });
  const runs = Number(values.runs);
  const requests = Number(values.requests);
  if (values.server !== "cli" && values.server !== "worker") throw new Error(`--server must be cli or worker, got ${values.server}`);
  const load = () => loadavg().map((x) => Number(x.toFixed(2)));
  const loadBefore = load();
  const server = values.server === "cli" ? await serveEmulator(dist, runs) : await workerServer(runs);
  const { info } = server;

  const results = {};
  for (const [name, path, token, count] of [
    ["owner_sft", "/api/evals/finetuning?limit=500", info.owner_token, requests],
    ["agent_sft", "/api/agent/finetuning?limit=200", info.api_keys[0].api_key, requests],
    ["owner_rl", "/api/evals/finetuning/rl?limit=500", info.owner_token, Math.ceil(requests / 4)],
  ]) {
    results[name] = await pull(info.url, path, token, count);
    process.stderr.write(`${name}: ${JSON.stringify(results[name])}\n`);
  }
  const stopped = await server.stop();

  const sft = results.owner_sft;
  console.log(
    JSON.stringify({
      bench: "emulator-throughput",
      server: values.server,
      runs,
      node: process.version,
      ...results,
      records_per_second: sft.records_per_second,
      target_records_per_second: TARGET_RECORDS_PER_SECOND,
      ok: sft.records_per_second >= TARGET_RECORDS_PER_SECOND && stopped.ok,
      stop: stopped,
      loadavg_before: loadBefore,
      loadavg_after: load(),
    }),
  );
} else {
  const { startEmulator } = await import(`${workerData.dist}/service/index.js`);
  const emulator = await startEmulator({ runs: workerData.runs, seed: 1 });
  parentPort.postMessage(emulator.info);
  parentPort.once("message", async () => {
    await emulator.close();
    parentPort.close();
  });
}

/** `startEmulator()` in a worker thread. */
async function workerServer(runs) {
  const worker = new Worker(new URL(import.meta.url), { workerData: { dist, runs } });
  const info = await new Promise((resolve, reject) => {
    worker.once("message", resolve);
    worker.once("error", reject);
  });
  return {
    info,
    stop: async () => {
      worker.postMessage("close");
      const code = await new Promise((resolve) => worker.once("exit", resolve));
      return { code, ok: code === 0 };
    },
  };
}

/** Pulls `path` `requests` times in a row, parsing every NDJSON line. */
async function pull(url, path, token, requests) {
  let records = 0;
  let bytes = 0;
  const started = performance.now();
  for (let i = 0; i < requests; i++) {
    const res = await fetch(url + path, { headers: { authorization: `Bearer ${token}` } });
    if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
    const text = await res.text();
    bytes += Buffer.byteLength(text);
    for (const line of text.split("\n")) {
      if (line === "") continue;
      JSON.parse(line);
      records++;
    }
  }
  const seconds = (performance.now() - started) / 1000;
  return {
    requests,
    records,
    megabytes: Number((bytes / 1e6).toFixed(1)),
    seconds: Number(seconds.toFixed(2)),
    records_per_second: Math.round(records / seconds),
  };
}
