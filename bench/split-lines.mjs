#!/usr/bin/env node
// splitLines (the library stream with `strip: false`, format detection, gzip inputs) on two builds: each run is a
// child that reads the file into memory untimed, then times splitting it handed over in chunks of the given size
// (16 KiB is what gunzip gives, 1 MiB a file read) and decoding every line, the best of `--passes` (on this
// shared 2-core machine one pass's time swings 2× with the load). Builds alternate which goes first in
// each round, so a change in the machine's load hits both alike; medians and the median of the rounds' ratios.
// Build both first (`npm run build`). The input is a file (bench/generate-exports.mjs writes some), or without
// `--file` 100 MiB of generated JSON lines of `--line-bytes` each.
//
//   node bench/split-lines.mjs [--base /work/main/dist] [--dist dist] [--file F | --line-bytes 1024]
//                              [--chunks 16384,1048576] [--rounds 7] [--passes 3]
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { median } from "./timed-child.mjs";

const { values: args } = parseArgs({
  options: {
    base: { type: "string", default: "/work/main/dist" },
    dist: { type: "string", default: fileURLToPath(new URL("../dist", import.meta.url)) },
    file: { type: "string", default: "" },
    "line-bytes": { type: "string", default: "1024" },
    chunks: { type: "string", default: "16384,1048576" },
    rounds: { type: "string", default: "7" },
    passes: { type: "string", default: "3" },
    child: { type: "string" },
    chunk: { type: "string" },
  },
});

if (args.child !== undefined) {
  const { splitLines } = await import(`${args.child}/index.js`);
  const data = args.file === "" ? generated(Number(args["line-bytes"])) : readFileSync(args.file);
  const size = Number(args.chunk);
  async function* chunks() {
    for (let at = 0; at < data.length; at += size) yield data.subarray(at, at + size);
  }
  let best = { ms: Infinity };
  for (let pass = 0; pass < Number(args.passes); pass++) {
    const start = process.hrtime.bigint();
    let lines = 0;
    let chars = 0;
    for await (const line of splitLines(chunks(), args.file)) {
      lines++;
      if (line.kind === "line") chars += line.text.length;
    }
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    if (ms < best.ms) best = { ms, lines, chars };
  }
  process.stdout.write(JSON.stringify(best));
} else {
  const run = (dist, chunk) => {
    const input = ["--file", args.file, "--line-bytes", args["line-bytes"], "--passes", args.passes];
    const out = spawnSync(process.execPath, [fileURLToPath(import.meta.url), "--child", dist, "--chunk", chunk, ...input], { encoding: "utf8" });
    if (out.status !== 0) throw new Error(`child failed on ${dist}: ${out.stderr}`);
    return JSON.parse(out.stdout);
  };
  const builds = { base: args.base, dist: args.dist };
  for (const chunk of args.chunks.split(",")) {
    const ms = { base: [], dist: [] };
    const ratios = [];
    for (let round = 0; round < Number(args.rounds); round++) {
      const order = round % 2 === 0 ? ["base", "dist"] : ["dist", "base"];
      const got = {};
      for (const name of order) got[name] = run(builds[name], chunk);
      if (got.base.lines !== got.dist.lines || got.base.chars !== got.dist.chars) throw new Error(`builds disagree: ${JSON.stringify(got)}`);
      ms.base.push(got.base.ms);
      ms.dist.push(got.dist.ms);
      ratios.push(got.dist.ms / got.base.ms);
    }
    const r = (x) => Math.round(x);
    console.log(
      JSON.stringify({
        chunk: Number(chunk),
        base_median_ms: r(median(ms.base)),
        dist_median_ms: r(median(ms.dist)),
        base_best_ms: r(Math.min(...ms.base)),
        dist_best_ms: r(Math.min(...ms.dist)),
        median_ratio: Math.round(median(ratios) * 1000) / 1000,
        load: readFileSync("/proc/loadavg", "utf8").split(" ")[0],
      }),
    );
  }
}

/** 100 MiB of JSON lines of `lineBytes` each (one in 50 blank, one in 7 CRLF), a two-byte character in each. */
function generated(lineBytes) {
  const lines = [];
  for (let i = 0, total = 0; total < 100 << 20; i++) {
    const end = i % 7 === 0 ? "\r\n" : "\n";
    const head = `{"id":${i},"text":"é`;
    const line = i % 50 === 0 ? " " : `${head}${"x".repeat(Math.max(0, lineBytes - head.length - 3 - end.length))}"}`;
    lines.push(line + end);
    total += Buffer.byteLength(line + end);
  }
  return Buffer.from(lines.join(""));
}
