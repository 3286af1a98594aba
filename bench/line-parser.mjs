#!/usr/bin/env node
// Throughput of the fast line parser (src/engines/parallel/fast) against JSON.parse on the same lines, single-threaded.
// The parser writes into counting leaf writers, so this times parsing and validation, not Parquet encoding. The
// lines lie in a buffer of their own, so each is copied into the scan module's spare line before the walk (a
// worker's batch is walked where it lies).
// Build first (`npx tsc -p tsconfig.build.json`); data comes from bench/generate-exports.mjs.
//
//   node bench/line-parser.mjs [--files bench/data/sft-200.ndjson,bench/data/rl-200.ndjson] [--runs 3]
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const { values: args } = parseArgs({
  options: {
    files: { type: "string", default: "bench/data/sft-200.ndjson,bench/data/rl-200.ndjson" },
    runs: { type: "string", default: "3" },
    dist: { type: "string", default: fileURLToPath(new URL("../dist", import.meta.url)) },
  },
});
process.chdir(fileURLToPath(new URL("..", import.meta.url)));
const { compileLineParser } = await import(`${args.dist}/engines/parallel/fast/compile-line-parser.js`);
const { resolveUntrustedPolicy } = await import(`${args.dist}/stages/untrusted-policy.js`);
const { detectFormat } = await import(`${args.dist}/formats/index.js`);
const runs = Math.max(1, Number(args.runs));

/** A leaf writer that only counts, so the numbers are the parser's own. */
class CountingWriter {
  entries = 0;
  bytesSeen = 0;
  bytes(_src, start, end) {
    this.entries++;
    this.bytesSeen += end - start;
  }
  text(value) {
    this.entries++;
    this.bytesSeen += value.length;
  }
  int64() {
    this.entries++;
  }
  float64() {
    this.entries++;
  }
  bool() {
    this.entries++;
  }
  missing() {
    this.entries++;
  }
}

const mib = (bytes, ms) => bytes / 2 ** 20 / (ms / 1000);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function time(fn) {
  const started = performance.now();
  fn();
  return performance.now() - started;
}

const summary = [];
for (const file of args.files.split(",")) {
  const buf = readFileSync(file);
  const starts = [];
  const ends = [];
  for (let s = 0; s < buf.length; ) {
    let e = buf.indexOf(0x0a, s);
    if (e < 0) e = buf.length;
    if (e > s) {
      starts.push(s);
      ends.push(e);
    }
    s = e + 1;
  }
  const lineBytes = ends.reduce((sum, e, k) => sum + e - starts[k], 0);
  const format = detectFormat(JSON.parse(buf.toString("utf8", starts[0], ends[0])));
  const parser = compileLineParser(format, resolveUntrustedPolicy(format));
  const writers = parser.plan.leaves.map(() => new CountingWriter());

  let rejected = 0;
  const fast = () => {
    rejected = 0;
    for (let k = 0; k < starts.length; k++) if (parser.parse(buf, starts[k], ends[k], writers) === null) rejected++;
  };
  const decodeAndParse = () => {
    for (let k = 0; k < starts.length; k++) JSON.parse(buf.toString("utf8", starts[k], ends[k]));
  };
  const fastMs = [];
  const jsonMs = [];
  for (let r = 0; r < runs + 1; r++) {
    // Alternate the two so machine noise hits both alike; the first round warms the JIT and is not counted.
    const f = time(fast);
    const j = time(decodeAndParse);
    if (r > 0) {
      fastMs.push(f);
      jsonMs.push(j);
    }
  }
  // JSON.parse alone, on strings decoded beforehand.
  const texts = starts.map((s, k) => buf.toString("utf8", s, ends[k]));
  const parseOnlyMs = [];
  for (let r = 0; r < runs + 1; r++) {
    const p = time(() => {
      for (const t of texts) JSON.parse(t);
    });
    if (r > 0) parseOnlyMs.push(p);
  }
  const row = {
    file,
    format: format.name,
    lines: starts.length,
    mib: +(lineBytes / 2 ** 20).toFixed(1),
    rejected,
    fastMiBs: +mib(lineBytes, median(fastMs)).toFixed(0),
    decodeAndJsonParseMiBs: +mib(lineBytes, median(jsonMs)).toFixed(0),
    jsonParseOnlyMiBs: +mib(lineBytes, median(parseOnlyMs)).toFixed(0),
  };
  // The slow path decodes each line and then parses it; JSON.parse alone is the stricter yardstick.
  row.speedupVsDecodeAndParse = +(row.fastMiBs / row.decodeAndJsonParseMiBs).toFixed(2);
  row.speedupVsParseOnly = +(row.fastMiBs / row.jsonParseOnlyMiBs).toFixed(2);
  summary.push(row);
  console.log(
    `${file}: ${row.lines} lines, ${row.mib} MiB, ${rejected} not vouched for | fast ${row.fastMiBs} MiB/s | ` +
      `decode+JSON.parse ${row.decodeAndJsonParseMiBs} MiB/s (${row.speedupVsDecodeAndParse}x) | JSON.parse alone ${row.jsonParseOnlyMiBs} MiB/s (${row.speedupVsParseOnly}x)`,
  );
}
console.log(JSON.stringify(summary));
