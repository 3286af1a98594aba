import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../helpers/temp-dir.js";
import { spawnCli } from "../../helpers/spawn-cli.js";
import { FIXTURES } from "../../helpers/flow.js";
import { datasetOf, emulator, envFor, PIPELINES } from "./support.js";
import { wordTokenizer } from "./word-tokenizer.js";

// Issue 33: a night runs on the one engine in both executors and publishes, byte for byte, the same: the same
// bucket shards, ledger and manifest (but the pull's hedges, which follow timing).
const root = tempDir("evalshard-unit-nightly-");

/**
 * The executors compared: main's thread alone and two worker threads, where a unit's work may leave main's
 * thread (the tokenizer's counts, export files spanning units). test/engines/executors-agree.test.ts holds the
 * two to the same output on every engine path.
 */
const EXECUTORS: Record<string, readonly string[]> = {
  "workers-0": ["--workers", "0"],
  "workers-2": ["--workers", "2"],
};
const EVERY = Object.keys(EXECUTORS);

/** The manifest without what differs between two runs of one night: times, the hedges a slow answer drew, its own digest. */
function comparable(dir: string): unknown {
  const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")) as Record<string, unknown>;
  const { started_at: _s, finished_at: _f, manifest_sha256: _m, ...rest } = manifest;
  const pull = rest.pull as Record<string, unknown> | null | undefined;
  return pull == null ? rest : { ...rest, pull: { ...pull, hedges: null } };
}

/** Runs `pipeline` into OUT/<executor> for each executor, then checks every dataset against the first's. */
async function nightOnEach(pipeline: string, env: (out: string) => Record<string, string>, out: string, executors: readonly string[]): Promise<void> {
  for (const name of executors) {
    const r = await spawnCli(["run", pipeline, "--json", ...(EXECUTORS[name] ?? [])], env(join(out, name)));
    expect(r.status, `${name}: ${r.stderr}`).toBe(0);
  }
  const [reference, ...others] = executors.map((name) => join(out, name, "night"));
  for (const dir of others) {
    expect(datasetOf(dir as string), dir).toEqual(datasetOf(reference as string));
    expect(comparable(dir as string), dir).toEqual(comparable(reference as string));
  }
}

/**
 * A shipped pipeline writing into `${EVALSHARD_OUT}/night`, with `edit` applied to its text. The second night
 * deletes the first's snapshot at once: the executors are compared here, not the snapshot grace.
 */
function pipelineFile(name: string, edit: (text: string) => string = (t) => t): string {
  const text = edit(readFileSync(join(PIPELINES, `${name}.yaml`), "utf8"))
    .replace(/dir: \$\{EVALSHARD_OUT:-out\}\/[\w-]+/, "dir: ${EVALSHARD_OUT}/night")
    .replace(/^output:\n/m, "output:\n  snapshot_grace: 0\n");
  const file = join(root, `${name}-${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(file, text);
  return file;
}

describe("a night on the unit engine", () => {
  it("publishes the same bucket shards, ledger and manifest on either executor: SFT over two nights", { timeout: 240_000 }, async () => {
    const emu = await emulator({ seed: 31, runs: 160 });
    const out = join(root, "sft");
    const file = pipelineFile("nightly-sft");
    await nightOnEach(file, (dir) => envFor(emu, dir), out, EVERY);
    // The next day: some runs rescored, some new; each dataset is rewritten incrementally from its own last night.
    await emu.advance();
    await nightOnEach(file, (dir) => envFor(emu, dir), out, EVERY);
  });

  it("RL split three ways as JSON Lines, and DPO: the same bytes", { timeout: 240_000 }, async () => {
    const emu = await emulator({ seed: 32, runs: 120 });
    const split = pipelineFile("nightly-rl", (t) => t.replace("to: parquet", "to: jsonl").replace("compression: zstd", "compression: gzip").replace(/ {2}buckets: 16\n/, "  buckets: 4\n  split:\n    train: 0.6\n    validation: 0.2\n    test: 0.2\n"));
    await nightOnEach(split, (dir) => envFor(emu, dir), join(root, "rl"), EVERY);
    await nightOnEach(pipelineFile("nightly-dpo"), (dir) => envFor(emu, dir), join(root, "dpo"), EVERY);
  });

  it("a view's rows in buckets (keyed by record and row): RL as trl-prompt-completion, and as openai-sft JSON Lines", { timeout: 240_000 }, async () => {
    const emu = await emulator({ seed: 33, runs: 100 });
    const view = (name: string) => (t: string) => t.replace(/ {2}buckets: 16\n/, `  buckets: 4\n  view: ${name}\n`);
    await nightOnEach(pipelineFile("nightly-rl", view("trl-prompt-completion")), (dir) => envFor(emu, dir), join(root, "rl-view"), EVERY);
    await nightOnEach(pipelineFile("nightly-rl", (t) => view("openai-sft")(t).replace("to: parquet", "to: jsonl").replace("compression: zstd", "compression: none")), (dir) => envFor(emu, dir), join(root, "openai-view"), EVERY);
  });

  it("decontaminated against the released suites (SFT by its own hash, RL by its runs'), and a suite released the next night retracts its rows: SFT and RL", { timeout: 300_000 }, async () => {
    // At seed 36 fewer runs (140) leave no kept record on a scenario the late suite pins.
    const emu = await emulator({ seed: 36, runs: 180, benchmarkRuns: true });
    const env = (dir: string) => envFor(emu, dir, { EVAL_API_KEY: emu.apiKeys[0]?.api_key as string });
    const sft = pipelineFile("nightly-sft", (t) => t.replace(/ {2}buckets: 16\n/, "  buckets: 4\n"));
    const rl = pipelineFile("nightly-rl", (t) => t.replace("to: parquet", "to: jsonl").replace("compression: zstd", "compression: none").replace(/ {2}buckets: 16\n/, "  buckets: 4\n"));
    const dropped = (name: string, suite: string) => {
      const { decontamination } = JSON.parse(readFileSync(join(root, name, name === "suites-sft" ? "workers-2" : "workers-0", "night", "manifest.json"), "utf8")) as { decontamination: { suites: { suite_key: string; records_dropped: number }[] } };
      return decontamination.suites.find((s) => s.suite_key === suite)?.records_dropped ?? 0;
    };
    await nightOnEach(sft, env, join(root, "suites-sft"), EVERY);
    await nightOnEach(rl, env, join(root, "suites-rl"), EVERY);
    expect(dropped("suites-sft", "negotiation-core")).toBeGreaterThan(0);
    expect(dropped("suites-rl", "negotiation-core")).toBeGreaterThan(0);
    await emu.advance();
    await nightOnEach(sft, env, join(root, "suites-sft"), EVERY);
    await nightOnEach(rl, env, join(root, "suites-rl"), EVERY);
    expect(dropped("suites-sft", "late-release")).toBeGreaterThan(0);
    expect(dropped("suites-rl", "late-release")).toBeGreaterThan(0);
  });

  it("a DPO view joined against the pull's RL records (trl-preference), over two nights", { timeout: 300_000 }, async () => {
    const emu = await emulator({ seed: 37, runs: 120 });
    const file = pipelineFile("nightly-dpo", (t) => t.replace(/ {2}buckets: 16\n/, "  buckets: 4\n  view: trl-preference\n"));
    const out = join(root, "dpo-view");
    await nightOnEach(file, (dir) => envFor(emu, dir), out, EVERY);
    await emu.advance();
    await nightOnEach(file, (dir) => envFor(emu, dir), out, EVERY);
    const manifest = JSON.parse(readFileSync(join(out, "workers-0", "night", "manifest.json"), "utf8")) as { view: { name: string }; records_out: number };
    expect(manifest.view.name).toBe("trl-preference");
    expect(manifest.records_out).toBeGreaterThan(0);
  });

  it("a view's records quarantined for injection once they won dedup (--on-injection quarantine), over two nights", { timeout: 300_000 }, async () => {
    const emu = await emulator({ seed: 38, runs: 160 });
    const quarantining = (t: string) => t.replace(/ {2}buckets: 16\n/, "  buckets: 4\n  view: trl-prompt-completion\n  view_options: {on_injection: quarantine}\n").replace(/max_quarantined: [\d.]+/, "max_quarantined: 1");
    const file = pipelineFile("nightly-rl", (t) => quarantining(t).replace("to: parquet", "to: jsonl").replace("compression: zstd", "compression: none"));
    const out = join(root, "quarantine");
    const entries = () => (JSON.parse(readFileSync(join(out, "workers-2", "night", "manifest.json"), "utf8")) as { quarantine: { entries: number } | null }).quarantine?.entries ?? 0;
    await nightOnEach(file, (dir) => envFor(emu, dir), out, EVERY);
    expect(entries()).toBeGreaterThan(0);
    await emu.advance();
    await nightOnEach(file, (dir) => envFor(emu, dir), out, EVERY);
    expect(entries()).toBeGreaterThan(0);
  });

  it("a nightly view's token counts kept with the dataset (--tokenizer, and records quarantined for injection, whose rows count too): each night's cached rows and kept counts the same on both executors", { timeout: 300_000 }, async () => {
    const emu = await emulator({ seed: 39, runs: 120 });
    const tok = wordTokenizer(join(root, "tok"));
    const file = pipelineFile("nightly-rl", (t) => t.replace("to: parquet", "to: jsonl").replace("compression: zstd", "compression: none").replace(/ {2}buckets: 16\n/, `  buckets: 4\n  view: trl-prompt-completion\n  view_options: {tokenizer: ${tok}, on_injection: quarantine}\n`).replace(/max_quarantined: [\d.]+/, "max_quarantined: 1"));
    const out = join(root, "tokens");
    const kept = (name: string) => readFileSync(join(out, name, "night", "_cache", "token-counts.txt"), "utf8");
    const tokens = () => (JSON.parse(readFileSync(join(out, "workers-2", "night", "manifest.json"), "utf8")) as { view: { tokens: { rows: number; cached: number } } }).view.tokens;
    await nightOnEach(file, (dir) => envFor(emu, dir), out, EVERY);
    expect(kept("workers-2")).toBe(kept("workers-0"));
    // The first night finds the texts it repeats; the next, also those it kept.
    const first = tokens().cached;
    expect(first).toBeGreaterThan(0);
    await emu.advance();
    await nightOnEach(file, (dir) => envFor(emu, dir), out, EVERY);
    expect(kept("workers-2")).toBe(kept("workers-0"));
    expect(tokens().cached).toBeGreaterThan(first);
    expect(tokens().cached).toBeLessThan(tokens().rows);
  });

  it("over export files where a rescored copy beats a row already written (the units read again)", { timeout: 240_000 }, async () => {
    const base = readFileSync(`${FIXTURES}records/sft-valid.ndjson`, "utf8").trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    // ~5 MiB of distinct runs (more than a unit), then the first runs rescored: their written rows lose.
    const lines: Record<string, unknown>[] = [];
    for (let r = 0; lines.length * 740 < 5 << 20; r++) for (const record of base) lines.push({ ...record, run_id: `${String(record.run_id)}-${r}` });
    const first = join(root, "first.ndjson");
    const rescored = join(root, "rescored.ndjson");
    writeFileSync(first, `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
    writeFileSync(rescored, `${lines.slice(0, 40).map((l) => JSON.stringify({ ...l, scorecard_version: 7 })).join("\n")}\n`);
    const file = join(root, "files.yaml");
    writeFileSync(file, `version: 1\nname: files\nsource:\n  kind: files\n  format: sft\n  inputs: [${first}, ${rescored}]\noutput:\n  dir: \${EVALSHARD_OUT}/night\n  buckets: 8\n`);
    await nightOnEach(file, (dir) => ({ EVALSHARD_OUT: dir }), join(root, "files"), EVERY);
    const manifest = JSON.parse(readFileSync(join(root, "files", "workers-0", "night", "manifest.json"), "utf8")) as { dropped: Record<string, number> };
    expect(manifest.dropped.superseded).toBe(40);
  });
});
