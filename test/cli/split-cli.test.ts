import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FIXTURES } from "../helpers/flow.js";
import { tempDir } from "../helpers/temp-dir.js";
import { withoutLogLines } from "../helpers/log-lines.js";

// The CLI as users run it: the built bin.
const BIN = new URL("../../dist/cli/main.js", import.meta.url).pathname;
const run = (...args: string[]) => {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: "utf8" });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
};
const fx = (name: string) => `${FIXTURES}records/${name}`;
const root = tempDir("evalshard-split-cli-");

describe("evalshard convert --split", () => {
  it.each([
    ["threads", ["--workers", "2"]],
    ["main", ["--workers", "0"]],
  ])("writes one shard set per split in the Hugging Face layout, on the %s executor", (executor, args) => {
    const out = join(root, `ok-${executor}`);
    const r = run("convert", fx("sft-valid.ndjson"), "--out", out, "--split", "train=0.5,test=0.5", "--split-by", "run", "--split-seed", "abc", "--seats", "all", "--json", ...args);
    // Nothing on stderr but the warning that, without --scorecards, gating cannot act, and that three runs cannot
    // land on 50/50 (issue 36).
    expect(withoutLogLines(r.stderr)).toMatch(/^evalshard: warning: participation_gated: no scorecards were given[^\n]*\nevalshard: warning: split: [^\n]*of 3 groups\)[^\n]*\n?$/);
    expect(r.code).toBe(0);
    const manifest = JSON.parse(r.stdout);
    expect(manifest.output).toMatchObject({ split: ["train", "test"] });
    expect(manifest.split).toMatchObject({ by: "run", seed: "abc", fractions: { train: 0.5, test: 0.5 } });
    // sft-valid's three seats are of three runs.
    expect(manifest.split.splits.train.rows + manifest.split.splits.test.rows).toBe(3);
    expect(manifest.split.splits.train.groups + manifest.split.splits.test.groups).toBe(3);
    expect(readdirSync(join(out, "data")).sort()).toEqual(["test-00000-of-00001.parquet", "train-00000-of-00001.parquet"]);
    expect(readFileSync(join(out, "README.md"), "utf8")).toMatch(/Split by run \(`run_id`\)/);
  });

  it("more than 256 splits: both executors write the same split section and shards", () => {
    const base = readFileSync(fx("sft-valid.ndjson"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    const lines: string[] = [];
    for (let r = 0; lines.length < 3000; r++) for (const record of base) lines.push(JSON.stringify({ ...record, run_id: `${String(record.run_id)}-${r}` }));
    const input = join(root, "many-runs.ndjson");
    writeFileSync(input, `${lines.join("\n")}\n`);
    const split = Array.from({ length: 320 }, (_, i) => `s${i}=0.003125`).join(",");
    const outcomes = [["--workers", "2"], ["--workers", "0"]].map((args) => {
      const r = run("convert", input, "--out", join(root, `many-${args.join("")}`), "--split", split, "--split-by", "run", "--seats", "all", "--to", "jsonl", "--compression", "none", "--json", ...args);
      expect(r.code, r.stderr).toBe(0);
      const manifest = JSON.parse(r.stdout) as { split: { splits: Record<string, { rows: number }> }; shards: { path: string; rows: number; split: string; sha256: string }[] };
      return { split: manifest.split, shards: manifest.shards.map((s) => [s.path, s.rows, s.split, s.sha256]) };
    });
    // Rows reach the splits past the 256th.
    expect(Array.from({ length: 64 }, (_, i) => outcomes[1]?.split.splits[`s${256 + i}`]?.rows ?? 0).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    expect(outcomes[0]).toEqual(outcomes[1]);
  });

  it("JSON Lines splits too", () => {
    const r = run("convert", fx("sft-valid.ndjson"), "--out", join(root, "jsonl"), "--split", "train=1", "--to", "jsonl", "--json");
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).output).toMatchObject({ split: ["train"], engine: "parallel" });
  });

  it.each([
    [["--split", "train=0.9,test=0.2"], /fractions sum to 1.1/],
    [["--split", "train=0.5,train=0.5"], /each name a letter/],
    [["--split", "9lives=1"], /each name a letter/],
    [["--split-by", "run"], /--split-by needs --split/],
    [["--split-seed", "x"], /--split-seed needs --split/],
    [["--split", "train=1", "--split-by", "run", "--format", "dpo"], /--split-by run cannot split dpo records/],
  ])("exits 2 on %j", (args, message) => {
    const r = run("convert", fx("sft-valid.ndjson"), "--out", join(root, "bad"), ...args);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
  });

  it("refuses --split-by run once the records turn out to be DPO pairs", () => {
    const r = run("convert", fx("dpo-valid.ndjson"), "--out", join(root, "dpo"), "--split", "train=0.8,test=0.2", "--split-by", "run");
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/each pairs two runs \(run_chosen, run_rejected\) of one scenario; split them by scenario/);
  });
});
