#!/usr/bin/env node
// The scan module's JSON skips (src/engines/parallel/wasm/skip.ts) over every line of an export, in one process:
// `plain` (skipValue over each line), `form` (skipForm, the JSON.stringify-form check on the way) or `audited`
// (the schema walk, auditing SFT's trace steps or RL's observations: skipAudited). Everything but the wasm is the
// same between two builds, so two dists compare by instruction counts, robust on a loaded machine (each run's
// `???:???` share in cg_annotate is the JIT and wasm code's):
//
//   valgrind --tool=cachegrind --cache-sim=no node --no-liftoff bench/wasm-skips.mjs --dist DIR --skip audited --file F
//
// Prints the answers' sum, which two builds must share.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";

const { values: args } = parseArgs({
  options: { dist: { type: "string" }, skip: { type: "string", default: "plain" }, file: { type: "string" }, runs: { type: "string", default: "2" } },
});
if (!["plain", "form", "audited"].includes(args.skip) || !args.file) {
  console.error("usage: wasm-skips.mjs --file F [--skip plain|form|audited] [--runs N] [--dist DIR]");
  process.exit(2);
}
const dist = resolve(args.dist ?? fileURLToPath(new URL("../dist", import.meta.url)));
const load = (path) => import(pathToFileURL(`${dist}/${path}`).href);
const { scanRegion, WASM_SCAN } = await load("engines/parallel/fast/wasm-scan.js");
const lines = readFileSync(args.file).toString("latin1").split("\n").filter((l) => l.length > 0).map((l) => Buffer.from(l, "latin1"));
const region = scanRegion(1 << 24);
const base = region.byteOffset;
let sum = 0;
if (args.skip === "audited") {
  const [{ compileLineParser }, { AuditedRows }, { formatByName }, { resolveUntrustedPolicy }] = await Promise.all([
    load("engines/parallel/fast/compile-line-parser.js"),
    load("engines/parallel/run/audited-rows.js"),
    load("formats/index.js"),
    load("stages/untrusted-policy.js"),
  ]);
  const format = formatByName(JSON.parse(lines[0].toString()).rl_format_version === undefined ? "sft" : "rl");
  const parser = compileLineParser(format, resolveUntrustedPolicy(format, {}));
  const leaf = parser.plan.leaves.findIndex((l) => l.path[0] === "trace_steps" || l.path.includes("observation"));
  const rows = new AuditedRows(parser.plan, parser.auditWhileWalking([leaf]).length);
  for (let run = 0; run < Number(args.runs); run++)
    for (const bytes of lines) {
      region.set(bytes);
      region[bytes.length] = 0x0a;
      rows.clear();
      rows.beginRow();
      if (parser.parse(region, 0, bytes.length, rows.leaves, rows) !== null) sum += rows.counts[0];
    }
} else {
  const { skipValue, skipForm, skipFormAnswer } = WASM_SCAN.exports;
  for (let run = 0; run < Number(args.runs); run++)
    for (const bytes of lines) {
      region.set(bytes);
      region[bytes.length] = 0x0a;
      sum += args.skip === "plain" ? skipValue(base, base + bytes.length) - base : skipForm(base, base + bytes.length) - base + skipFormAnswer();
    }
}
console.log(JSON.stringify({ skip: args.skip, file: args.file, lines: lines.length, answers: sum }));
