import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { FIXTURES } from "../helpers/flow.js";
import { tempDir } from "../helpers/temp-dir.js";
import { withoutLogLines } from "../helpers/log-lines.js";

// The CLI as users run it: the built bin (npm test builds first).
const BIN = new URL("../../dist/cli/main.js", import.meta.url).pathname;
const run = (...args: string[]) => {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: "utf8" });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
};
const fx = (name: string) => `${FIXTURES}records/${name}`;
const root = tempDir();

describe("evalshard CLI", () => {
  it("convert: exit 0 and a summary; the same code path as the library", () => {
    const out = join(root, "a");
    const r = run("convert", fx("sft-valid.ndjson"), fx("sft-duplicates.ndjson"), "--out", out, "--shard-rows", "2", "--seats", "all", "--no-filter-participation-gated");
    expect(withoutLogLines(r.stderr)).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/records in 9, out 6/);
    const manifest = JSON.parse(readFileSync(join(out, "manifest.json"), "utf8"));
    expect(manifest.shards).toHaveLength(3);
    expect(manifest.options.shard_rows).toBe(2);
  });

  it("convert: --untrusted and --no-filter-* reach the pipeline", () => {
    const out = join(root, "b");
    const r = run("convert", fx("sft-filters.ndjson"), "--out", out, "--to", "jsonl", "--compression", "none", "--untrusted", "coaching.guidance=keep", "--no-filter-flagged", "--json");
    expect(r.code).toBe(0);
    const manifest = JSON.parse(r.stdout);
    expect(manifest.options.filters.flagged).toBe(false);
    expect(manifest.untrusted["coaching.guidance"]).toBe("keep");
    expect(readFileSync(join(out, manifest.shards[0].path), "utf8")).toContain("Slow down.");
  });

  it("convert: --workers chooses how it runs (main's thread alone, or worker threads), the manifest names the one engine", () => {
    const executors = ["0", "1"].map((workers) => {
      const out = join(root, `workers-${workers}`);
      const r = run("convert", fx("sft-valid.ndjson"), fx("sft-duplicates.ndjson"), "--out", out, "--workers", workers, "--json");
      expect(r.code).toBe(0);
      return JSON.parse(r.stdout) as { output: { engine: string }; records_out: number; dropped: object };
    });
    expect(executors.map((m) => m.output.engine)).toEqual(["parallel", "parallel"]);
    expect(executors[0]?.records_out).toBe(executors[1]?.records_out);
    expect(executors[0]?.dropped).toEqual(executors[1]?.dropped);
    expect(run("convert", fx("sft-valid.ndjson"), "--out", join(root, "workers-bad"), "--workers", "-1").code).toBe(2);
  });

  it("exit 3 when the quarantined share is over --max-quarantined, publishing only with --publish-anyway", () => {
    const out = join(root, "c");
    const r = run("convert", fx("sft-bad-lines.ndjson"), "--out", out, "--max-quarantined", "0.5");
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/not published: .*quarantined/);
    expect(existsSync(join(out, "manifest.json"))).toBe(false);
    const anyway = run("convert", fx("sft-bad-lines.ndjson"), "--out", out, "--max-quarantined", "0.5", "--publish-anyway");
    expect(anyway.code).toBe(3);
    expect(anyway.stderr).toMatch(/published anyway/);
    expect(existsSync(join(out, "manifest.json"))).toBe(true);
  });

  it("exit 2 for usage and configuration errors, naming the value", () => {
    const cases: [string[], RegExp][] = [
      [["convert", fx("sft-valid.ndjson")], /--out/],
      [["convert", fx("sft-valid.ndjson"), "--out", join(root, "d"), "--shard-rows", "ten"], /--shard-rows.*"ten"/],
      [["convert", fx("sft-valid.ndjson"), "--out", join(root, "d"), "--format", "ppo"], /ppo/],
      [["convert", fx("sft-valid.ndjson"), "--out", join(root, "d"), "--untrusted", "nope"], /"nope"/],
      [["convert", fx("sft-valid.ndjson"), "--out", join(root, "d"), "--max-quarantined", "2"], /--max-quarantined.*"2"/],
      [["convert", join(root, "no-such-file.ndjson"), "--out", join(root, "d")], /no-such-file\.ndjson/],
      [["convert", fx("sft-valid.ndjson"), "--out", join(root, "d"), "--bogus"], /bogus/],
    ];
    for (const [args, message] of cases) {
      const r = run(...args);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr, args.join(" ")).toMatch(message);
    }
  });

  it("exit 1 for an input that cannot be read, naming it", () => {
    const bad = join(root, "corrupt.ndjson.gz");
    writeFileSync(bad, Buffer.concat([gzipSync("{}\n").subarray(0, 12), Buffer.from("garbage")]));
    const r = run("convert", bad, "--out", join(root, "e"));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("corrupt.ndjson.gz");
  });

  it("a dataset path that does not exist: inspect and report exit 1 naming it, verify finds manifest_missing (exit 5)", () => {
    const missing = join(root, "no-such-dataset");
    for (const command of ["inspect", "report"]) {
      const r = run(command, missing, ...(command === "report" ? ["--out", join(root, "missing.html")] : []));
      expect(r.code, command).toBe(1);
      expect(r.stderr, command).toMatch(/^evalshard: .*no-such-dataset/);
    }
    const verified = run("verify", missing);
    expect(verified.code).toBe(5);
    expect(verified.stdout).toContain("manifest_missing");
  });

  it("validate: counts by reason and the first offending lines, writing nothing", () => {
    const r = run("validate", fx("sft-bad-lines.ndjson"), "--show", "2", "--max-quarantined", "1");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/format sft 1\.1/);
    expect(r.stdout).toMatch(/quarantined: invalid_json 2, mixed_format 1, schema 4, unsupported_format_version 2/);
    expect(r.stdout).toContain(`${fx("sft-bad-lines.ndjson")}:2 (offset`);
    expect(r.stdout.trim().split("\n").filter((l) => l.includes(":3 (offset"))).toHaveLength(1);
    expect(run("validate", fx("sft-bad-lines.ndjson")).code).toBe(3);
  });

  it("inspect: manifest summary, schema and rows of an output or a shard", () => {
    const out = join(root, "f");
    expect(run("convert", fx("sft-valid.ndjson"), "--out", out, "--seats", "all").code).toBe(0);
    const r = run("inspect", out, "--rows", "1");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/sft 1\.1 dataset/);
    expect(r.stdout).toMatch(/scores: STRUCT\(/);
    expect(r.stdout).toMatch(/"run_id":"run-001"/);
    const shard = run("inspect", join(out, "data/train-00000-of-00001.parquet"), "--json");
    expect(JSON.parse(shard.stdout).totalRows).toBe(3);
  });

  it("schema: prints the generated JSON Schema of a format", () => {
    const r = run("schema", "--format", "rl");
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(readFileSync(new URL("../../schemas/rl-1.0.schema.json", import.meta.url), "utf8"));
  });

  it("--help and --version exit 0", () => {
    expect(run("--version").code).toBe(0);
    expect(run("convert", "--help").stdout).toMatch(/--no-filter-participation-gated/);
  });
});
