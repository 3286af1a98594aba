#!/usr/bin/env node
// Throughput of sanitizeText (src/views) over message-sized texts, as a view runs it over every window
// message and action of an RL export. Bundles the TypeScript source with esbuild, so no build is needed.
//
//   node bench/sanitize-text.mjs [--mib 64] [--runs 3] [--injected 0.08]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { build } from "esbuild";

const { values: args } = parseArgs({
  options: { mib: { type: "string", default: "64" }, runs: { type: "string", default: "3" }, injected: { type: "string", default: "0.08" } },
});
const root = fileURLToPath(new URL("..", import.meta.url));
const out = mkdtempSync(join(tmpdir(), "evalshard-bench-"));
await build({ entryPoints: [join(root, "src/views/sanitize-text.ts"), join(root, "src/service/untrusted-text.ts")], bundle: true, format: "esm", platform: "node", outdir: out, logLevel: "error" });
const { sanitizeText } = await import(pathToFileURL(join(out, "views/sanitize-text.js")).href);
const { INJECTIONS } = await import(pathToFileURL(join(out, "service/untrusted-text.js")).href);
rmSync(out, { recursive: true, force: true });

// Messages like the emulator's: narration of a few sentences, a share carrying an injection string
// (which holds ChatML tokens, zero-width and bidi characters in some), a few with emoji and non-Latin text.
const SENTENCES = [
  "The torchlight flickers across the wet stones of the gatehouse.",
  "A guard in a dented helm steps forward and demands your names.",
  "Somewhere below, water drips steadily into a hidden cistern.",
  "The merchant counts the coins twice, frowning at the worn edges.",
  "Rain drums on the canvas roof as the caravan grinds to a halt.",
  "Die Wache mustert euch misstrauisch und verschränkt die Arme.",
  "商人は硬貨を二度数え、すり減った縁を見て眉をひそめた。",
  "Your party cheers 🎉 as the bridge holds 👨‍👩‍👧 and the crowd parts.",
];
let seed = 1;
const random = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x80000000);
const pick = (xs) => xs[Math.floor(random() * xs.length)];
const injected = Number(args.injected);
const messages = [];
let bytes = 0;
const target = Number(args.mib) * 2 ** 20;
while (bytes < target) {
  let text = Array.from({ length: 2 + Math.floor(random() * 5) }, () => pick(SENTENCES)).join(" ");
  if (random() < injected) text = random() < 0.5 ? `${text} ${pick(INJECTIONS)}` : `${pick(INJECTIONS)}\n${text}`;
  messages.push(text);
  bytes += Buffer.byteLength(text);
}

for (let run = 1; run <= Number(args.runs); run++) {
  let changed = 0;
  const start = process.hrtime.bigint();
  for (const m of messages) if (sanitizeText(m).changed) changed++;
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  console.log(`run ${run}: ${(bytes / 2 ** 20).toFixed(0)} MiB in ${messages.length} messages, ${changed} changed, ${seconds.toFixed(3)} s, ${(bytes / 2 ** 20 / seconds).toFixed(0)} MiB/s`);
}
