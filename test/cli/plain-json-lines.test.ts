import { spawn } from "node:child_process";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../src/service/index.js";
import { HAS_SCRIPT } from "../helpers/on-terminal.js";
import { CLI_BIN, runCli } from "../helpers/run-cli.js";
import { tempDir } from "../helpers/temp-dir.js";

// Issue 39 item 5: JSON Lines to standard output and the OpenAI views are plain UTF-8 JSON Lines unless
// --compression is named; compressed bytes or Parquet are never written onto a terminal (exit 2).
const FIXTURES = new URL("../../fixtures/records/", import.meta.url).pathname;
const SFT = join(FIXTURES, "sft-valid.ndjson");
const ZSTD_MAGIC = Buffer.from([0x28, 0xb5, 0x2f, 0xfd]);
const root = tempDir("evalshard-plain-jsonl-");

/** The CLI's stdout as bytes (runCli decodes it as text, which would hide a zstd frame's magic). */
function stdoutBytes(args: readonly string[]): Promise<{ code: number | null; stdout: Buffer; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI_BIN, ...args], { env: { PATH: process.env.PATH ?? "" } });
    const out: Buffer[] = [];
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => out.push(d));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("close", (code) => resolve({ code, stdout: Buffer.concat(out), stderr }));
  });
}

/** Each line of `bytes` parsed as JSON: fails on compressed or otherwise non-text bytes. */
function jsonLines(bytes: Buffer): unknown[] {
  const text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  return text.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as unknown);
}

function shardsUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name.startsWith("_") || name.startsWith(".") ? [] : shardsUnder(path);
    return /\.(jsonl|parquet)(\.\w+)?$/.test(name) ? [path] : [];
  });
}

describe("--out -: plain JSON Lines unless --compression is named", () => {
  it("--to jsonl alone writes plain UTF-8 JSON Lines", async () => {
    const r = await stdoutBytes(["convert", SFT, "--out", "-", "--to", "jsonl", "--no-filter-participation-gated"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.subarray(0, 4).equals(ZSTD_MAGIC)).toBe(false);
    expect(jsonLines(r.stdout).length).toBeGreaterThan(0);
    expect(JSON.parse(r.stderr)).toMatchObject({ output: { to: "jsonl", compression: "none" } });
  });

  it("a named --compression is kept: zstd into a pipe is a choice", async () => {
    const r = await stdoutBytes(["convert", SFT, "--out", "-", "--to", "jsonl", "--compression", "zstd", "--no-filter-participation-gated"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.subarray(0, 4).equals(ZSTD_MAGIC)).toBe(true);
  });
});

/** The CLI with stdout on a terminal (util-linux `script`), stderr apart; resolves with the exit code and what showed. */
function onTerminalWithCode(args: readonly string[]): Promise<{ code: number | null; shown: string }> {
  const command = [process.execPath, CLI_BIN, ...args].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(" ");
  return new Promise((resolve) => {
    const child = spawn("script", ["-qec", command, "/dev/null"], { stdio: ["ignore", "pipe", "pipe"], env: { PATH: process.env.PATH ?? "" } });
    let shown = "";
    child.stdout.on("data", (d: Buffer) => (shown += d.toString("latin1")));
    child.on("close", (code) => resolve({ code, shown }));
  });
}

describe.skipIf(!HAS_SCRIPT)("--out - on a terminal", () => {
  it("refuses compressed JSON Lines and Parquet (exit 2) before writing a byte", async () => {
    for (const flags of [["--to", "jsonl", "--compression", "zstd"], ["--to", "jsonl", "--compression", "gzip"], ["--to", "parquet"], []]) {
      const r = await onTerminalWithCode(["convert", SFT, "--out", "-", ...flags]);
      expect(r.code, `${flags.join(" ")}: ${r.shown}`).toBe(2);
      expect(r.shown).not.toContain("\x28\xb5\x2f\xfd");
      expect(r.shown).toMatch(/terminal|--to jsonl/);
    }
  });

  it("writes plain JSON Lines", async () => {
    const r = await onTerminalWithCode(["convert", SFT, "--out", "-", "--to", "jsonl", "--no-filter-participation-gated", "--manifest", join(root, "m.json")]);
    expect(r.code, r.shown).toBe(0);
    expect(r.shown).toContain('"format_version"');
  });
});

describe("the OpenAI views: plain .jsonl unless --compression is named", () => {
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await startEmulator({ seed: 3, runs: 10 });
  });
  afterAll(() => emu.close());

  it("convert --view openai-sft --to jsonl writes .jsonl files of JSON", async () => {
    const out = join(root, "openai-sft");
    const r = await runCli(["convert", join(FIXTURES, "views-rl.ndjson"), "--view", "openai-sft", "--to", "jsonl", "--out", out, "--no-filter-participation-gated", "--max-quarantined", "1", "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const shards = shardsUnder(out);
    expect(shards.length).toBeGreaterThan(0);
    for (const shard of shards) {
      expect(shard).toMatch(/\.jsonl$/);
      for (const row of jsonLines(readFileSync(shard))) expect(row).toHaveProperty("messages");
    }
  });

  it("convert --view openai-dpo --to jsonl writes .jsonl; --compression zstd, named, is kept", async () => {
    const args = ["convert", join(FIXTURES, "views-dpo.ndjson"), "--view", "openai-dpo", "--context", join(FIXTURES, "views-rl.ndjson"), "--to", "jsonl", "--no-filter-participation-gated", "--max-quarantined", "1"];
    const plain = await runCli([...args, "--out", join(root, "openai-dpo")]);
    expect(plain.code, plain.stderr).toBe(0);
    expect(shardsUnder(join(root, "openai-dpo")).every((s) => s.endsWith(".jsonl"))).toBe(true);
    const zstd = await runCli([...args, "--out", join(root, "openai-dpo-zstd"), "--compression", "zstd"]);
    expect(zstd.code, zstd.stderr).toBe(0);
    expect(shardsUnder(join(root, "openai-dpo-zstd")).every((s) => s.endsWith(".jsonl.zst"))).toBe(true);
  });

  it("run: a pipeline file's openai-sft view with output.to jsonl writes .jsonl files of JSON", async () => {
    const out = join(root, "run-openai-sft");
    const pipeline = join(root, "openai.yaml");
    writeFileSync(pipeline, `version: 1\nname: openai\nsource: { kind: files, inputs: [${JSON.stringify(join(FIXTURES, "views-rl.ndjson"))}] }\nmax_quarantined: 1\noutput: { dir: ${JSON.stringify(out)}, view: openai-sft, to: jsonl }\n`);
    const r = await runCli(["run", pipeline, "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const shards = shardsUnder(out);
    expect(shards.length).toBeGreaterThan(0);
    for (const shard of shards) {
      expect(shard).toMatch(/\.jsonl$/);
      for (const row of jsonLines(readFileSync(shard))) expect(row).toHaveProperty("messages");
    }
  });

  it("pull --view openai-sft --to jsonl writes .jsonl files of JSON", { timeout: 120_000 }, async () => {
    const out = join(root, "pulled-openai-sft");
    const r = await runCli(["pull", "rl", "--base-url", emu.url, "--out", out, "--view", "openai-sft", "--to", "jsonl", "--json"], { env: { EVAL_OWNER_TOKEN: emu.ownerToken } });
    expect(r.code, r.stderr).toBe(0);
    const shards = shardsUnder(out);
    expect(shards.length).toBeGreaterThan(0);
    for (const shard of shards) {
      expect(shard).toMatch(/\.jsonl$/);
      jsonLines(readFileSync(shard));
    }
  });
});
