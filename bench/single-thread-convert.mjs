#!/usr/bin/env node
// The parallel engine's worker work on one thread, timed per phase: what a worker spends per MiB, without
// thread contention. For tuning the parser and the encoder (the machine is noisy: compare minimums). Runs
// alternate with and without the plain run's text scan (issue 18), timed in CPU time: the scan's cost.
//
//   node bench/single-thread-convert.mjs [--format sft] [--file bench/data/sft-200.ndjson] [--runs 5] [--dist dist] [--sides scan,none]
//
// `--sides scan` (or `none`) runs one side only: for instruction counts of one side per process (callgrind).
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";

const { values: args } = parseArgs({
  options: { format: { type: "string", default: "sft" }, file: { type: "string" }, runs: { type: "string", default: "5" }, dist: { type: "string" }, sides: { type: "string", default: "scan,none" } },
});
const dist = resolve(args.dist ?? fileURLToPath(new URL("../dist", import.meta.url)));
const load = (path) => import(pathToFileURL(`${dist}/${path}`).href);
const [{ UnitConverter }, { compileParserSchema }, { formatByName }, { outputColumns, resolveUntrustedPolicy }, { textAuditPaths }, { SELECT_DEFAULTS }] = await Promise.all([
  load("engines/parallel/run/unit-converter.js"),
  load("engines/parallel/fast/compile-line-parser.js"),
  load("formats/index.js"),
  load("stages/untrusted-policy.js"),
  load("views/text-audit-paths.js"),
  load("stages/select-plan.js"),
]);
const name = args.format;
const file = args.file ?? fileURLToPath(new URL(`./data/${name}-200.ndjson`, import.meta.url));
const format = formatByName(name);
const policy = resolveUntrustedPolicy(format, {});
const base = { format: name, forced: false, acceptLaterMinor: false, untrusted: {}, filters: {}, selection: SELECT_DEFAULTS, gateBy: "seat", gates: null, scores: null, codec: "zstd", maxLineBytes: 64 << 20, columns: outputColumns(format, policy), schema: compileParserSchema(format, policy), view: null, split: null, lines: false, topKeys: null, rankSchema: null, suites: null };
const sides = { scan: { ...base, textAudit: textAuditPaths(format) }, none: { ...base, textAudit: null } };
const input = readFileSync(file);
const mib = input.length / 2 ** 20;
// As a worker takes them (run/convert-in-parallel.ts): 1 MiB batches in an 8 MiB shared slot, copied by
// `local` into the wasm scan memory (so the wasm walk runs), 7 MiB to a unit.
const BATCH = 1 << 20;
const UNIT = 7 << 20;
const slot = Buffer.from(new SharedArrayBuffer(8 << 20));
const best = { scan: { parse: Infinity, encode: Infinity }, none: { parse: Infinity, encode: Infinity } };
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const order = args.sides.split(",").filter((s) => s in sides);
if (order.length === 0) throw new Error(`--sides takes scan, none or both, not ${args.sides}`);
for (let run = 0; run < order.length * Number(args.runs); run++) {
  const side = order[run % order.length];
  const converter = new UnitConverter(sides[side]);
  let parse = 0;
  let encode = 0;
  let unit = 0;
  for (let pos = 0, batch = 0; pos < input.length; unit++) {
    let rows = 0;
    for (const unitEnd = pos + UNIT; pos < input.length && pos < unitEnd; batch++) {
      let end = input.lastIndexOf(10, Math.min(input.length, pos + BATCH));
      end = end <= pos ? input.length : end + 1;
      slot.set(input.subarray(pos, end));
      const t = cpu();
      const outcomes = await converter.batch(unit, batch, converter.local(slot.subarray(0, end - pos)));
      parse += cpu() - t;
      rows += outcomes.columns.rowBytes.length;
      pos = end;
    }
    const t = cpu();
    await converter.decide(unit, new Uint8Array(rows).fill(1), rows > 0 ? [rows] : []);
    encode += cpu() - t;
  }
  best[side].parse = Math.min(best[side].parse, parse);
  best[side].encode = Math.min(best[side].encode, encode);
  process.stderr.write(`run ${run + 1} (${side === "scan" ? "with" : "without"} the text scan): parse+shred ${parse.toFixed(0)} ms, encode+compress ${encode.toFixed(0)} ms CPU\n`);
}
const total = (b) => b.parse + b.encode;
const line = {
  format: name,
  file,
  mib: Math.round(mib),
  best_cpu_ms: Object.fromEntries(Object.entries(best).map(([k, b]) => [k, { parse: Math.round(b.parse), encode: Math.round(b.encode) }])),
  mib_s: { parse: Math.round(mib / (best[order.at(-1)].parse / 1000)), encode: Math.round(mib / (best[order.at(-1)].encode / 1000)) },
  scan_cost: order.length < 2 ? null : Math.round((total(best.scan) / total(best.none) - 1) * 1000) / 10 + "%",
};
console.log(JSON.stringify(line));
