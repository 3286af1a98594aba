#!/usr/bin/env node
// Issue 34's speed target: `--tokenizer` counting, tokens per second per core, next to Python `tokenizers`'
// `encode_batch` on the same rows in the same script. The rows: `trl-prompt-completion` over a synthetic RL
// export, each prompt plus completion rendered by TRL's qwen2_5 template (rendered once, by evalshard, so both
// sides encode the same texts). The tokenizer: a byte-level BPE trained here with `tokenizers` on those texts
// (no download), vocabulary --vocab. Per core: CPU time (user + system, every thread) of the encoding alone;
// Python's batch runs on every core it likes, its CPU is counted whole. Below 0.25x is a defect: exit 1 (the
// workers' rate below too).
// Also printed: evalshard's render + count per row (what a budgeted view adds), rows per CPU second; and the
// tokenizer as the engine runs it, in the parallel engine's workers: a convert with --tokenizer against one
// without, the CPU it adds per token rendered and encoded (prompts too), next to the same Python rate.
//
//   node bench/tokens.mjs [--mib 16] [--vocab 32000] [--runs 3] [--dist dist]
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";

const { values: args } = parseArgs({
  options: { mib: { type: "string", default: "16" }, vocab: { type: "string", default: "32000" }, runs: { type: "string", default: "3" }, dist: { type: "string" } },
});
const TARGET = 0.25;
const dist = resolve(args.dist ?? fileURLToPath(new URL("../dist", import.meta.url)));
process.chdir(fileURLToPath(new URL("..", import.meta.url)));
const python = resolve(".venv/bin/python");
const runs = Math.max(1, Number(args.runs));
const scratch = mkdtempSync(join(tmpdir(), "evalshard-bench-tokens-"));
mkdirSync("bench/data", { recursive: true });
const input = `bench/data/rl-${args.mib}.ndjson`;
if (!existsSync(input)) execFileSync(process.execPath, ["bench/generate-exports.mjs", "--format", "rl", "--mib", args.mib, "--seed", "1", "--out", input], { stdio: ["ignore", "ignore", "inherit"] });

// The view's rows, as JSON Lines.
const viewDir = join(scratch, "view");
execFileSync(process.execPath, [join(dist, "cli/main.js"), "convert", input, "--out", viewDir, "--view", "trl-prompt-completion", "--to", "jsonl", "--compression", "none"], { stdio: ["ignore", "ignore", "ignore"] });
const rows = readdirSync(join(viewDir, "data")).flatMap((f) => readFileSync(join(viewDir, "data", f), "utf8").trim().split("\n").map((l) => JSON.parse(l)));

// A tokenizer trained on the rows' own texts, with the template's special tokens; TRL's qwen2_5 template.
const site = execFileSync(python, ["-c", "import trl, os; print(os.path.dirname(os.path.dirname(trl.__file__)))"], { encoding: "utf8" }).trim();
const template = join(site, "trl", "chat_templates", "qwen2_5.jinja");
const tokDir = join(scratch, "tok");
mkdirSync(tokDir);
const corpus = join(scratch, "corpus.txt");
writeFileSync(corpus, rows.map((r) => [...r.prompt, ...r.completion].map((m) => m.content).join("\n")).join("\n"));
execFileSync(python, ["-c", `
import sys
from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
t = Tokenizer(models.BPE())
t.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
t.decoder = decoders.ByteLevel()
t.train([sys.argv[1]], trainers.BpeTrainer(vocab_size=int(sys.argv[3]), special_tokens=["<|endoftext|>", "<|im_start|>", "<|im_end|>"], initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False))
t.save(sys.argv[2])
`, corpus, join(tokDir, "tokenizer.json"), args.vocab]);

const { openTokenCounter, readTokenSetup } = await import(pathToFileURL(join(dist, "index.js")).href);
const counter = await openTokenCounter(await readTokenSetup({ tokenizer: join(tokDir, "tokenizer.json"), chatTemplate: template, maxTokens: undefined }));
const texts = rows.map((r) => counter.render([...r.prompt, ...r.completion], false));
const textsFile = join(scratch, "texts.json");
writeFileSync(textsFile, JSON.stringify(texts));
const mib = Buffer.byteLength(texts.join("")) / 2 ** 20;

const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};
let jsBest = Infinity;
let renderBest = Infinity;
let tokens = 0;
for (let r = 0; r < runs; r++) {
  let start = cpu();
  tokens = 0;
  for (const text of texts) tokens += counter.count(text);
  jsBest = Math.min(jsBest, cpu() - start);
  start = cpu();
  for (const row of rows) counter.count(counter.render([...row.prompt, ...row.completion], false)) + counter.render(row.prompt, true).length;
  renderBest = Math.min(renderBest, cpu() - start);
}
const py = JSON.parse(
  execFileSync(python, ["-c", `
import json, sys, time
from tokenizers import Tokenizer
tok = Tokenizer.from_file(sys.argv[1])
texts = json.load(open(sys.argv[2], encoding="utf-8"))
best, n = float("inf"), 0
for _ in range(int(sys.argv[3])):
    start = time.process_time()
    n = sum(len(e.ids) for e in tok.encode_batch(texts, add_special_tokens=False))
    best = min(best, time.process_time() - start)
print(json.dumps({"cpu": best, "tokens": n}))
`, join(tokDir, "tokenizer.json"), textsFile, String(runs)], { encoding: "utf8" }).trim(),
);
if (py.tokens !== tokens) throw new Error(`token counts differ: evalshard ${tokens}, tokenizers ${py.tokens}`);

// In the engine's workers: the same rows converted by the parallel engine (the library's convert, in this
// process) with and without --tokenizer. The CPU the tokenizer adds (process.cpuUsage: every thread) is its
// rendering and encoding, the prompt's and the prompt plus completion's (the boundary check encodes both); the
// main thread's own (process.threadCpuUsage) shows where it ran.
const { convert } = await import(pathToFileURL(join(dist, "index.js")).href);
const timedRun = async (extra) => {
  let best = null;
  for (let r = 0; r < runs; r++) {
    const out = join(scratch, `engine-${Object.keys(extra).length}-${r}`);
    const [thread, process0, wall] = [process.threadCpuUsage(), process.cpuUsage(), performance.now()];
    const { manifest } = await convert({ inputs: [input], out, view: "trl-prompt-completion", ...extra });
    const [t, p] = [process.threadCpuUsage(thread), process.cpuUsage(process0)];
    const run = { cpu: (p.user + p.system) / 1e6, main: (t.user + t.system) / 1e6, wall: (performance.now() - wall) / 1e3, manifest };
    if (best === null || run.cpu < best.cpu) best = run;
  }
  return best;
};
const plain = await timedRun({});
const counted = await timedRun({ tokenizer: join(tokDir, "tokenizer.json"), chatTemplate: template });
if (counted.manifest.output.engine !== "parallel" || counted.manifest.view.rows_out !== rows.length || counted.manifest.view.tokens.total !== tokens) {
  throw new Error(`the parallel engine's view differs: ${JSON.stringify({ engine: counted.manifest.output.engine, rows: counted.manifest.view.rows_out, total: counted.manifest.view.tokens.total })}`);
}
let encoded = tokens;
for (const row of rows) encoded += counter.count(counter.render(row.prompt, true));
const workerCpu = counted.cpu - plain.cpu;
const workerRate = encoded / workerCpu;
const jsRate = tokens / jsBest;
const pyRate = py.tokens / py.cpu;
const ratio = jsRate / pyRate;
console.log(`rows ${rows.length}, rendered ${mib.toFixed(1)} MiB, ${tokens} tokens (equal on both sides), vocab ${args.vocab}`);
console.log(`evalshard count     ${(jsRate / 1e6).toFixed(2)} M tokens/s per core (${jsBest.toFixed(2)} s cpu)`);
console.log(`tokenizers batch    ${(pyRate / 1e6).toFixed(2)} M tokens/s per core (${py.cpu.toFixed(2)} s cpu, all threads)`);
console.log(`ratio               ${ratio.toFixed(2)}x (target >= ${TARGET}x)`);
console.log(`render+count a row  ${(rows.length / renderBest).toFixed(0)} rows/s per core (prompt and prompt+completion rendered, the latter counted)`);
console.log(`in the workers      ${(workerRate / 1e6).toFixed(2)} M tokens/s per core rendered and encoded (${encoded} tokens, prompts too), ${(workerRate / pyRate).toFixed(2)}x tokenizers' encode`);
console.log(`                    +${workerCpu.toFixed(2)} s cpu over ${plain.cpu.toFixed(2)} s, of it main thread +${(counted.main - plain.main).toFixed(2)} s; wall ${plain.wall.toFixed(2)} -> ${counted.wall.toFixed(2)} s`);
console.log(JSON.stringify({ bench: "tokens", rows: rows.length, tokens, mib: Number(mib.toFixed(2)), js_tokens_per_cpu_s: Math.round(jsRate), py_tokens_per_cpu_s: Math.round(pyRate), ratio: Number(ratio.toFixed(3)), rows_per_cpu_s: Math.round(rows.length / renderBest), worker_tokens_per_cpu_s: Math.round(workerRate), worker_ratio: Number((workerRate / pyRate).toFixed(3)), worker_main_cpu_s: Number((counted.main - plain.main).toFixed(2)) }));
if (ratio < TARGET || workerRate / pyRate < TARGET) process.exit(1);
