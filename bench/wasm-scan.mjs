#!/usr/bin/env node
// The fast path's JSON skipper over whole lines, scanning in JS or in the wasm scan module (src/engines/parallel/wasm/scan.ts):
// every line of an NDJSON file, in 4 MiB batches cut at line ends, each copied into a buffer of its own ("js")
// or into the module's memory ("wasm"), where the same `JsonSkipper` hands its scans to the module, as in a
// worker. One mode per process, so the JS side's compiling counts. Build first (`npm run build`).
// Prints one JSON line: lines vouched for, set-up, the first three batches, the median batch, the total.
//
//   node bench/wasm-scan.mjs js|wasm [bench/data/rl-200.ndjson]
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";

const [mode, file = "bench/data/rl-200.ndjson"] = process.argv.slice(2);
if (mode !== "js" && mode !== "wasm") throw new Error("usage: wasm-scan.mjs js|wasm [FILE]");
const dist = new URL("../dist/engines/parallel/fast/", import.meta.url);
const [{ JsonSkipper }, { hasControlByte }, { UNVOUCHED }, { scanRegion }] = await Promise.all(
  ["json-skipper.js", "has-control-byte.js", "byte-cursor.js", "wasm-scan.js"].map((m) => import(new URL(m, dist).href)),
);
const all = readFileSync(file);
const batches = [];
for (let s = 0; s < all.length; ) {
  let e = Math.min(all.length, s + (4 << 20));
  if (e < all.length) e = all.lastIndexOf(10, e - 1) + 1;
  batches.push(all.subarray(s, e));
  s = e;
}

class LineSkipper extends JsonSkipper {
  vouched(line) {
    this.begin(line, !hasControlByte(line, 0, line.length));
    try {
      return this.ws(this.skipJson(this.ws(0))) === line.length;
    } catch (error) {
      if (error === UNVOUCHED) return false;
      throw error;
    }
  }
}

const started = performance.now();
const capacity = Math.max(...batches.map((b) => b.length));
const copy = mode === "wasm" ? scanRegion(capacity) : Buffer.allocUnsafeSlow(capacity + 1);
const skipper = new LineSkipper();
const setupMs = performance.now() - started;

const times = [];
let vouched = 0;
for (const batch of batches) {
  const t = performance.now();
  copy.set(batch);
  copy[batch.length] = 0;
  const b = copy.subarray(0, batch.length);
  for (let p = 0; p < b.length; ) {
    let e = b.indexOf(10, p);
    if (e < 0) e = b.length;
    if (skipper.vouched(b.subarray(p, e))) vouched++;
    p = e + 1;
  }
  times.push(performance.now() - t);
}
const total = times.reduce((a, b) => a + b, 0);
const median = [...times].sort((a, b) => a - b)[times.length >> 1];
const round = (x) => Math.round(x * 10) / 10;
console.log(JSON.stringify({ mode, file, lines_vouched: vouched, batches: batches.length, setup_ms: round(setupMs), first3_ms: times.slice(0, 3).map(round), median_ms: round(median), total_ms: round(total), mib_s: Math.round(all.length / 1048576 / (total / 1000)) }));
