#!/usr/bin/env node
// The parallel engine's worker work on one thread, timed per phase: what a worker spends per MiB, without
// thread contention. For tuning the parser and the encoder (the machine is noisy: compare minimums).
//
//   node bench/single-thread-convert.mjs [--format sft] [--file bench/data/sft-200.ndjson] [--runs 5] [--dist dist]
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";

const { values: args } = parseArgs({
  options: { format: { type: "string", default: "sft" }, file: { type: "string" }, runs: { type: "string", default: "5" }, dist: { type: "string" } },
});
const dist = resolve(args.dist ?? fileURLToPath(new URL("../dist", import.meta.url)));
const load = (path) => import(pathToFileURL(`${dist}/${path}`).href);
const [{ UnitConverter }, { compileParserSchema }, { formatByName }, { outputColumns, resolveUntrustedPolicy }] = await Promise.all([
  load("engines/parallel/run/unit-converter.js"),
  load("engines/parallel/fast/compile-line-parser.js"),
  load("formats/index.js"),
  load("stages/untrusted-policy.js"),
]);
const name = args.format;
const file = args.file ?? fileURLToPath(new URL(`./data/${name}-200.ndjson`, import.meta.url));
const format = formatByName(name);
const policy = resolveUntrustedPolicy(format, {});
const config = { format: name, forced: false, acceptLaterMinor: false, untrusted: {}, filters: {}, gatedRuns: null, codec: "zstd", maxLineBytes: 64 << 20, columns: outputColumns(format, policy), schema: compileParserSchema(format, policy) };
const input = readFileSync(file);
const mib = input.length / 2 ** 20;
const UNIT = 8 << 20;
const best = { parse: Infinity, encode: Infinity };
for (let run = 0; run < Number(args.runs); run++) {
  const converter = new UnitConverter(config);
  let parse = 0;
  let encode = 0;
  let unit = 0;
  for (let pos = 0; pos < input.length; unit++) {
    let end = input.lastIndexOf(10, Math.min(input.length, pos + UNIT));
    end = end <= pos ? input.length : end + 1;
    const bytes = Buffer.from(input.subarray(pos, end));
    pos = end;
    let t = performance.now();
    const outcomes = await converter.batch(unit, unit, bytes);
    parse += performance.now() - t;
    const rows = outcomes.columns.rowBytes.length;
    t = performance.now();
    await converter.decide(unit, new Uint8Array(rows).fill(1), rows > 0 ? [rows] : []);
    encode += performance.now() - t;
  }
  best.parse = Math.min(best.parse, parse);
  best.encode = Math.min(best.encode, encode);
  process.stderr.write(`run ${run + 1}: parse+shred ${parse.toFixed(0)} ms, encode+compress ${encode.toFixed(0)} ms\n`);
}
const line = { format: name, file, mib: Math.round(mib), best_ms: { parse: Math.round(best.parse), encode: Math.round(best.encode) }, mib_s: { parse: Math.round(mib / (best.parse / 1000)), encode: Math.round(mib / (best.encode / 1000)) } };
console.log(JSON.stringify(line));
