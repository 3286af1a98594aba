// The service client alone through faults (issue 40): what `bench/pull-faults.mjs` measures, without the
// emulator's and the converter's CPU, so a loaded machine does not hide the client's waits. A server in this
// process answers small JSON bodies at once, or, for a seeded 23% of requests, the fault mix pull-faults.mjs
// puts on JSON routes (429 and 503 with `Retry-After: 1`, 502, a 504 after 1 s, a reset, a body trickled in 16
// pieces 50 ms apart); the client GETs `--requests` paths, 1,024 calls open at a time as a pull's scorecards
// are, `--concurrency` 4. Each named build (`--build name=dist`, repeatable) runs fault-free, faulty with
// hedges and faulty with `hedge: false`, `--rounds` times in turn; the figure is the median. `slow_held_s` is the
// time the slow faults held their requests open, summed: the slots they cost, whatever the machine's load.
//
//   npm run build && node bench/client-faults.mjs [--requests 3000] [--rounds 3] [--build new=dist --build old=../old/dist]
import { createHash } from "node:crypto";
import { createServer } from "node:http";
import { loadavg } from "node:os";
import { resolve } from "node:path";
import { parseArgs } from "node:util";

const TARGET_RATIO = 3;
/** Rates of the bench mix's request faults that apply to a JSON answer (cut, end and partial are NDJSON's). */
const FAULTS = [["429", 0.06], ["502", 0.04], ["503", 0.04], ["504", 0.03], ["reset", 0.04], ["slow", 0.02]];
const GATEWAY_TIMEOUT_MS = 1000;
const SLOW_PIECES = 16;
const SLOW_DELAY_MS = 50;

const { values } = parseArgs({
  options: {
    requests: { type: "string", default: "3000" },
    rounds: { type: "string", default: "3" },
    concurrency: { type: "string", default: "4" },
    build: { type: "string", multiple: true, default: ["new=dist"] },
  },
});
const requests = Number(values.requests);
const load = () => loadavg().map((x) => Number(x.toFixed(2)));
const loadBefore = load();

const builds = values.build.map((spec) => {
  const [name, dir] = spec.includes("=") ? spec.split(/=(.*)/s) : [spec, spec];
  return { name, dir: resolve(dir) };
});
const times = {};
for (let round = 0; round < Number(values.rounds); round++) {
  for (const build of builds) {
    const { createServiceClient } = await import(`${build.dir}/index.js`);
    for (const [label, faulty, hedge] of [["fault_free", false, true], ["faulty", true, true], ["faulty_hedge_off", true, false]]) {
      const result = await night(createServiceClient, faulty, hedge);
      (times[`${build.name} ${label}`] ??= []).push(result);
      process.stderr.write(`round ${round + 1} ${build.name} ${label}: ${JSON.stringify(result)}\n`);
    }
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const summary = {};
for (const build of builds) {
  const s = (label) => median(times[`${build.name} ${label}`].map((r) => r.seconds));
  summary[build.name] = {
    fault_free_s: s("fault_free"),
    faulty_s: s("faulty"),
    faulty_slow_held_s: median(times[`${build.name} faulty`].map((r) => r.slow_held_s)),
    faulty_hedge_off_s: s("faulty_hedge_off"),
    faulty_over_fault_free: Number((s("faulty") / s("fault_free")).toFixed(2)),
    hedge_off_over_fault_free: Number((s("faulty_hedge_off") / s("fault_free")).toFixed(2)),
  };
}
console.log(JSON.stringify({ bench: "client-faults", node: process.version, requests, concurrency: Number(values.concurrency), target_faulty_over_fault_free: TARGET_RATIO, ...summary, loadavg_before: loadBefore, loadavg_after: load() }));

/** One client's `requests` GETs against a fresh server: wall seconds, attempts, retries, hedges. */
async function night(createServiceClient, faulty, hedge) {
  const seen = new Map();
  let attempts = 0;
  // Seconds the slow faults (a 504, a trickled body) kept their requests open: the slot time they cost the
  // client, which a loaded machine does not change (their waits are timers, not CPU).
  let slowHeldMs = 0;
  const server = createServer((req, res) => {
    attempts++;
    const n = (seen.get(req.url) ?? 0) + 1;
    seen.set(req.url, n);
    const fault = faulty ? faultOf(req.url, n) : null;
    if (fault === "504" || fault === "slow") {
      const at = performance.now();
      res.once("close", () => (slowHeldMs += performance.now() - at));
    }
    answer(req.url, res, fault);
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  const counts = { retry: 0, hedge: 0 };
  const client = createServiceClient({
    baseUrl: `http://127.0.0.1:${server.address().port}`,
    auth: "owner",
    token: "bench_client_faults_token",
    concurrency: Number(values.concurrency),
    hedge,
    onEvent: (e) => e.type in counts && counts[e.type]++,
  });
  const started = performance.now();
  try {
    let next = 0;
    const worker = async () => {
      while (next < requests) {
        const path = `/api/evals/run${next++}/scorecard`;
        const body = await client.getJson(path);
        if (body.path !== path) throw new Error(`${path} answered for ${body.path}`);
      }
    };
    await Promise.all(Array.from({ length: Math.min(1024, requests) }, worker));
  } finally {
    server.closeAllConnections();
    server.close();
  }
  return { seconds: Number(((performance.now() - started) / 1000).toFixed(2)), slow_held_s: Number((slowHeldMs / 1000).toFixed(1)), attempts, retries: counts.retry, hedges: counts.hedge };
}

/** A seeded draw per request line and sighting, as the emulator's: the same requests fault in every round. */
function faultOf(url, n) {
  const x = createHash("sha256").update(`1 ${url} ${n}`).digest().readUInt32BE(0) / 2 ** 32;
  let at = 0;
  for (const [kind, rate] of FAULTS) if (x < (at += rate)) return kind;
  return null;
}

function answer(path, res, fault) {
  const body = JSON.stringify({ path, scorecards: [{ seat_index: 0, traits: { per_trait: { a: { mean: 3 } } } }], versions: [1], pad: "x".repeat(1500) });
  const error = (status, headers = {}) => {
    res.writeHead(status, { "content-type": "application/json", ...headers });
    res.end(JSON.stringify({ error: { code: String(status), message: "injected" } }));
  };
  if (fault === "429" || fault === "503") return error(Number(fault), { "retry-after": "1" });
  if (fault === "502") return error(502);
  if (fault === "504") return void setTimeout(() => !res.destroyed && error(504), GATEWAY_TIMEOUT_MS);
  res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
  if (fault === "reset") {
    res.write(body.slice(0, 100));
    return void setTimeout(() => res.socket?.resetAndDestroy(), 5);
  }
  if (fault !== "slow") return void res.end(body);
  const size = Math.ceil(body.length / SLOW_PIECES);
  let piece = 0;
  const trickle = () => {
    if (res.destroyed) return;
    const part = body.slice(piece * size, (piece + 1) * size);
    if (++piece >= SLOW_PIECES) res.end(part);
    else res.write(part, () => setTimeout(trickle, SLOW_DELAY_MS));
  };
  trickle();
}
