// Throughput of the bundled emulator over HTTP: how many SFT records per second a client can pull
// from the owner bulk export (`GET /api/evals/finetuning?limit=500`), parsing every line.
//
//   npx tsc -p tsconfig.build.json && node bench/emulator-throughput.mjs [--runs 20000] [--requests 40]
//
// The server runs in a worker thread so that it and the client each get a core, as they would in a
// pipeline's CI. EVALSHARD_DIST points at another build output (default ../dist). The last line of
// output is a JSON summary.
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import { parseArgs } from "node:util";

const dist = process.env.EVALSHARD_DIST ?? new URL("../dist", import.meta.url).pathname;
const TARGET_RECORDS_PER_SECOND = 5000;

if (isMainThread) {
  const { values } = parseArgs({ options: { runs: { type: "string", default: "20000" }, requests: { type: "string", default: "40" } } });
  const runs = Number(values.runs);
  const requests = Number(values.requests);
  const worker = new Worker(new URL(import.meta.url), { workerData: { dist, runs } });
  const info = await new Promise((resolve, reject) => {
    worker.once("message", resolve);
    worker.once("error", reject);
  });

  const results = {};
  for (const [name, path, token] of [
    ["owner_sft", "/api/evals/finetuning?limit=500", info.owner_token],
    ["agent_sft", "/api/agent/finetuning?limit=200", info.api_keys[0].api_key],
    ["owner_rl", "/api/evals/finetuning/rl?limit=500", info.owner_token],
  ]) {
    results[name] = await pull(info.url, path, token, name === "owner_sft" ? requests : Math.ceil(requests / 4));
    process.stderr.write(`${name}: ${JSON.stringify(results[name])}\n`);
  }
  worker.postMessage("close");
  await new Promise((resolve) => worker.once("exit", resolve));

  const sft = results.owner_sft;
  console.log(
    JSON.stringify({
      bench: "emulator-throughput",
      runs,
      node: process.version,
      ...results,
      records_per_second: sft.records_per_second,
      target_records_per_second: TARGET_RECORDS_PER_SECOND,
      ok: sft.records_per_second >= TARGET_RECORDS_PER_SECOND,
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
