import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
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
    ["parallel", []],
    ["stages", ["--engine", "stages"]],
  ])("writes one shard set per split in the Hugging Face layout, on the %s engine", (engine, args) => {
    const out = join(root, `ok-${engine}`);
    const r = run("convert", fx("sft-valid.ndjson"), "--out", out, "--split", "train=0.5,test=0.5", "--split-by", "run", "--split-seed", "abc", "--seats", "all", "--json", ...args);
    // Nothing on stderr but the warning that, without --scorecards, gating cannot act, and that three runs cannot
    // land on 50/50 (issue 36).
    expect(withoutLogLines(r.stderr)).toMatch(/^evalshard: warning: participation_gated: no scorecards were given[^\n]*\nevalshard: warning: split: [^\n]*of 3 groups\)[^\n]*\n?$/);
    expect(r.code).toBe(0);
    const manifest = JSON.parse(r.stdout);
    expect(manifest.output).toMatchObject({ split: ["train", "test"], engine });
    expect(manifest.split).toMatchObject({ by: "run", seed: "abc", fractions: { train: 0.5, test: 0.5 } });
    // sft-valid's three seats are of three runs.
    expect(manifest.split.splits.train.rows + manifest.split.splits.test.rows).toBe(3);
    expect(manifest.split.splits.train.groups + manifest.split.splits.test.groups).toBe(3);
    expect(readdirSync(join(out, "data")).sort()).toEqual(["test-00000-of-00001.parquet", "train-00000-of-00001.parquet"]);
    expect(readFileSync(join(out, "README.md"), "utf8")).toMatch(/Split by run \(`run_id`\)/);
  });

  it("both engines give the same manifest split section and shards", () => {
    const manifests = ["parallel", "stages"].map((engine) => {
      const r = run("convert", fx("sft-valid.ndjson"), fx("sft-filters.ndjson"), "--out", join(root, `same-${engine}`), "--split", "a=0.3,b=0.3,c=0.4", "--split-by", "run", "--seats", "all", "--engine", engine, "--json");
      expect(r.code).toBe(0);
      return JSON.parse(r.stdout);
    });
    const [parallel, stages] = manifests;
    expect(parallel.split).toEqual(stages.split);
    expect(parallel.shards.map((s: { path: string; rows: number; split: string }) => [s.path, s.rows, s.split])).toEqual(stages.shards.map((s: { path: string; rows: number; split: string }) => [s.path, s.rows, s.split]));
  });

  it("JSON Lines splits on the parallel engine too", () => {
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
