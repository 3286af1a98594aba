#!/usr/bin/env node
// Microbenchmark of the native Parquet encoder (src/parquet/): how long shredding, encoding (levels and
// pages, no compression) and page compression take per MiB of NDJSON input, next to JSON.parse.
// Records are parsed, stripped of the format's default untrusted paths, shredded with shredRecord into a
// RowGroupBuilder 2048 rows at a time, and each row group is encoded once per codec setting measured.
// Compression time is (time with the codec) - (time with codec "none"), over the same row groups.
//
//   npx tsc -p tsconfig.build.json && node bench/parquet-encode.mjs [--mib 50] [--levels 1,3,-1] [--gzip]
//
// Prints a table per input file, then one JSON line per file with the raw numbers.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";

const { values: args } = parseArgs({
  options: {
    dist: { type: "string", default: "dist" },
    files: { type: "string", default: "bench/data/sft-200.ndjson,bench/data/rl-200.ndjson" },
    mib: { type: "string", default: "200" }, // stop after this much input per file
    levels: { type: "string", default: "1,3,-1" },
    gzip: { type: "boolean", default: false },
    rows: { type: "string", default: "2048" },
  },
});

const dist = pathToFileURL(`${resolve(args.dist)}/`);
const load = (path) => import(new URL(path, dist));
const { formatByName } = await load("formats/index.js");
const { outputColumns, resolveUntrustedPolicy } = await load("stages/untrusted-policy.js");
const { policyStripper } = await load("engines/parallel/index.js");
const { columnPlan } = await load("parquet/column-plan.js");
const { RowGroupBuilder } = await load("parquet/row-group-builder.js");
const { shredRecord } = await load("parquet/shred-record.js");
const { encodeRowGroup } = await load("parquet/encode-row-group.js");

const limit = Number(args.mib) * 1024 * 1024;
const rowsPerGroup = Number(args.rows);
const settings = [
  { name: "zstd", codec: "zstd", levels: args.levels.split(",").map(Number) },
  ...(args.gzip ? [{ name: "gzip", codec: "gzip", levels: [6] }] : []),
].flatMap((s) => s.levels.map((level) => ({ label: `${s.name} ${level}`, codec: s.codec, zstdLevel: level })));

for (const file of args.files.split(",")) {
  const formatName = /(sft|rl|dpo)-[^/]*$/.exec(file)?.[1];
  const format = formatByName(formatName);
  const policy = resolveUntrustedPolicy(format);
  const strip = await policyStripper(format, policy);
  const plan = columnPlan(outputColumns(format, policy));
  const builder = new RowGroupBuilder(plan);
  const data = readFileSync(file);
  const end = Math.min(data.length, limit);

  const t = { parse: 0, strip: 0, shred: 0, none: 0 };
  const codecTime = new Map(settings.map((s) => [s.label, 0]));
  const codecBytes = new Map(settings.map((s) => [s.label, 0]));
  let noneBytes = 0;
  let inputBytes = 0;
  let rows = 0;
  let records = [];

  const flush = () => {
    let at = performance.now();
    for (const r of records) strip(r);
    t.strip += performance.now() - at;
    at = performance.now();
    for (const r of records) {
      builder.beginRow();
      shredRecord(plan, r, builder.leaves);
    }
    t.shred += performance.now() - at;
    at = performance.now();
    noneBytes += encodeRowGroup(builder, { codec: "none" }).bytes.length;
    t.none += performance.now() - at;
    for (const s of settings) {
      at = performance.now();
      const encoded = encodeRowGroup(builder, { codec: s.codec, zstdLevel: s.zstdLevel });
      codecTime.set(s.label, codecTime.get(s.label) + performance.now() - at);
      codecBytes.set(s.label, codecBytes.get(s.label) + encoded.bytes.length);
    }
    rows += records.length;
    records = [];
    builder.clear();
  };

  let start = 0;
  while (start < end) {
    let nl = data.indexOf(10, start);
    if (nl === -1) nl = data.length;
    if (nl > start) {
      const at = performance.now();
      records.push(JSON.parse(data.toString("utf8", start, nl)));
      t.parse += performance.now() - at;
      inputBytes += nl + 1 - start;
      if (records.length === rowsPerGroup) flush();
    }
    start = nl + 1;
  }
  if (records.length > 0) flush();

  const mib = inputBytes / 1024 / 1024;
  const line = (label, ms, extra = "") => console.log(`  ${label.padEnd(22)} ${(ms / mib).toFixed(2).padStart(7)} ms/MiB ${(mib / (ms / 1000)).toFixed(0).padStart(6)} MiB/s ${extra}`);
  console.log(`${file}: ${mib.toFixed(1)} MiB, ${rows} rows, ${plan.leaves.length} leaves`);
  line("JSON.parse", t.parse);
  line("strip", t.strip);
  line("shred", t.shred);
  line("encode (no codec)", t.none, `-> ${(noneBytes / 1024 / 1024).toFixed(1)} MiB`);
  for (const s of settings) {
    const ms = codecTime.get(s.label) - t.none;
    const bytes = codecBytes.get(s.label);
    line(`compress ${s.label}`, ms, `-> ${(bytes / 1024 / 1024).toFixed(1)} MiB, ratio ${(noneBytes / bytes).toFixed(2)} vs plain, ${(inputBytes / bytes).toFixed(2)} vs input`);
  }
  console.log(
    JSON.stringify({
      file,
      inputMiB: mib,
      rows,
      msPerMiB: { parse: t.parse / mib, strip: t.strip / mib, shred: t.shred / mib, encode: t.none / mib, ...Object.fromEntries(settings.map((s) => [`compress ${s.label}`, (codecTime.get(s.label) - t.none) / mib])) },
      bytes: { plain: noneBytes, ...Object.fromEntries(codecBytes) },
    }),
  );
}
