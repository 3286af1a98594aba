import { execFile } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import type { Manifest } from "../../src/output/manifest.js";
import { tempDir } from "../helpers/temp-dir.js";

// `--out -` (issue 21): JSON Lines to standard output for pipes, the manifest on stderr or in --manifest FILE.
const BIN = new URL("../../dist/cli/main.js", import.meta.url).pathname;
const FIXTURES = new URL("../../fixtures/records/", import.meta.url).pathname;
const INPUTS = ["sft-valid.ndjson", "sft-bad-lines.ndjson", "sft-duplicates.ndjson"].map((f) => `${FIXTURES}${f}`);
const root = tempDir("evalshard-stdout-");

async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [BIN, ...args], { cwd: root, maxBuffer: 1 << 28 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe("convert --out -", () => {
  it("writes the rows a directory output holds, as JSON Lines on stdout, and the manifest on stderr", async () => {
    const dir = join(root, "dir");
    const published = await cli("convert", ...INPUTS, "--out", dir, "--to", "jsonl", "--compression", "none", "--max-quarantined", "1", "--json");
    expect(published.code, published.stderr).toBe(0);
    const shards = (JSON.parse(published.stdout) as Manifest).shards.map((s) => readFileSync(join(dir, s.path), "utf8")).join("");
    const piped = await cli("convert", ...INPUTS, "--out", "-", "--to", "jsonl", "--compression", "none", "--max-quarantined", "1");
    expect(piped.code, piped.stderr).toBe(0);
    expect(piped.stdout).toBe(shards);
    const manifest = JSON.parse(piped.stderr) as Manifest;
    expect(manifest.records_out).toBe(piped.stdout.trim().split("\n").length);
    expect(Object.values(manifest.quarantined).reduce((a, b) => a + (b ?? 0), 0)).toBeGreaterThan(0);
    expect(readdirSync(root)).toEqual(["dir"]); // nothing written beside
  });

  it("--manifest FILE takes the manifest instead of stderr", async () => {
    const file = join(root, "m.json");
    const piped = await cli("convert", ...INPUTS, "--out", "-", "--to", "jsonl", "--max-quarantined", "1", "--manifest", file);
    expect(piped.code, piped.stderr).toBe(0);
    // Only the warnings a convert prints (no --scorecards here), never the manifest.
    expect(piped.stderr.split("\n").filter((l) => l !== "" && !l.startsWith("evalshard: warning:"))).toEqual([]);
    expect((JSON.parse(readFileSync(file, "utf8")) as Manifest).records_out).toBeGreaterThan(0);
  });

  it("refuses Parquet, a pull, and --manifest without --out - (exit 2)", async () => {
    const parquet = await cli("convert", ...INPUTS, "--out", "-");
    expect(parquet.code).toBe(2);
    expect(parquet.stderr).toContain("--to jsonl");
    const pull = await cli("pull", "sft", "--base-url", "http://127.0.0.1:9", "--out", "-");
    expect(pull.code).toBe(2);
    expect(pull.stderr).toContain('Output "-"');
    const stray = await cli("convert", ...INPUTS, "--out", join(root, "x"), "--manifest", join(root, "x.json"));
    expect(stray.code).toBe(2);
  });
});
