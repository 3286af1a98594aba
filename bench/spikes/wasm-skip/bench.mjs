#!/usr/bin/env node
// The wasm spike's timing (README.md beside it): validates every line of an NDJSON file, in 4 MiB batches
// cut at line ends, with the JS `JsonSkipper` of the fast path ("js", after `npm run build`) or with
// skip.wasm ("wasm", built as the README says). One mode per process, so the JS side's warm-up is counted.
// Prints one JSON line: lines valid, set-up, the first three batches, the median batch, the total.
//
//   node bench/spikes/wasm-skip/bench.mjs js|wasm bench/data/rl-200.ndjson
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";

const [mode, file] = process.argv.slice(2);
if ((mode !== "js" && mode !== "wasm") || file === undefined) throw new Error("usage: bench.mjs js|wasm FILE");
const all = readFileSync(file);
const batches = [];
for (let s = 0; s < all.length; ) {
  let e = Math.min(all.length, s + (4 << 20));
  if (e < all.length) e = all.lastIndexOf(10, e - 1) + 1;
  batches.push(all.subarray(s, e));
  s = e;
}

const started = performance.now();
const run = mode === "wasm" ? wasmRun() : await jsRun();
const setupMs = performance.now() - started;

function wasmRun() {
  const module = new WebAssembly.Module(readFileSync(new URL("./skip.wasm", import.meta.url)));
  const { skipLines, dataBase, memory } = new WebAssembly.Instance(module, { env: { abort: () => { throw new Error("abort"); } } }).exports;
  const bytes = new Uint8Array(memory.buffer);
  const base = dataBase();
  return (batch) => {
    bytes.set(batch, base); // as a worker copies each shared batch today (UnitConverter#local)
    return skipLines(batch.length);
  };
}

async function jsRun() {
  const dist = new URL("../../../dist/fast/", import.meta.url);
  const { JsonSkipper } = await import(new URL("json-skipper.js", dist).href);
  const { hasControlByte } = await import(new URL("has-control-byte.js", dist).href);
  class LineSkipper extends JsonSkipper {
    valid(line, clean) {
      this.begin(line, clean);
      try {
        return this.ws(this.skipJson(this.ws(0))) === line.length;
      } catch {
        return false; // not vouched for
      }
    }
  }
  const skipper = new LineSkipper();
  const copy = Buffer.allocUnsafeSlow(5 << 20);
  return (batch) => {
    copy.set(batch);
    const b = copy.subarray(0, batch.length);
    let ok = 0;
    for (let p = 0; p < b.length; ) {
      let e = b.indexOf(10, p);
      if (e < 0) e = b.length;
      if (skipper.valid(b.subarray(p, e), !hasControlByte(b, p, e))) ok++;
      p = e + 1;
    }
    return ok;
  };
}

const times = [];
let valid = 0;
for (const batch of batches) {
  const t = performance.now();
  valid += run(batch);
  times.push(performance.now() - t);
}
const total = times.reduce((a, b) => a + b, 0);
const median = [...times].sort((a, b) => a - b)[times.length >> 1];
const round = (x) => Math.round(x * 10) / 10;
console.log(JSON.stringify({ mode, file, lines_valid: valid, batches: batches.length, setup_ms: round(setupMs), first3_ms: times.slice(0, 3).map(round), median_ms: round(median), total_ms: round(total), mib_s: Math.round(all.length / 1048576 / (total / 1000)) }));
