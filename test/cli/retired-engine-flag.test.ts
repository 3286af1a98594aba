import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FIXTURES } from "../helpers/flow.js";
import { tempDir } from "../helpers/temp-dir.js";
import { withoutLogLines } from "../helpers/log-lines.js";

// The CLI as users run it (the built bin): a cron line written for an earlier version, with its --engine.
const BIN = new URL("../../dist/cli/main.js", import.meta.url).pathname;
const run = (...args: string[]) => {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: "utf8" });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
};
const input = `${FIXTURES}records/sft-valid.ndjson`;
const root = tempDir("evalshard-retired-engine-");
const WARNING = /^evalshard: warning: --engine (auto|parallel) is deprecated and ignored: one engine runs every plan; --workers N sets its worker threads \(0: main's thread alone\)$/m;

describe("--engine (removed in this version, issue 33)", () => {
  it("is gone from every command's help", () => {
    for (const command of ["convert", "validate", "pull", "run"]) expect(run(command, "--help").stdout).not.toMatch(/--engine/);
  });

  it.each(["auto", "parallel"])("convert --engine %s still converts, with one warning line naming the flag and --workers", (engine) => {
    const out = join(root, `convert-${engine}`);
    const r = run("convert", input, "--out", out, "--engine", engine, "--seats", "all", "--json");
    expect(r.code, r.stderr).toBe(0);
    expect(withoutLogLines(r.stderr).match(new RegExp(WARNING.source, "gm"))).toHaveLength(1);
    expect(withoutLogLines(r.stderr)).toMatch(new RegExp(`--engine ${engine} is deprecated`));
    const manifest = JSON.parse(r.stdout) as { records_out: number; output: { engine: string } };
    expect(manifest.records_out).toBe(3);
    expect(manifest.output.engine).toBe("parallel");
  });

  it("convert --engine stages is a usage error naming the value, before anything is created", () => {
    const out = join(root, "convert-stages");
    const r = run("convert", input, "--out", out, "--engine", "stages");
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^evalshard: --engine stages: the stages engine was removed in this version/m);
    expect(existsSync(out)).toBe(false);
  });

  it("another value is a usage error naming it and --workers", () => {
    const r = run("convert", input, "--out", join(root, "convert-other"), "--engine", "fast");
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--engine "fast": --engine is deprecated .*--workers N/);
  });

  it("a night (run) takes the same treatment: auto warns and runs, stages is a usage error", () => {
    const file = join(root, "night.yaml");
    writeFileSync(file, `version: 1\nname: retired\nsource:\n  kind: files\n  format: sft\n  inputs: [${input}]\noutput:\n  dir: ${join(root, "night")}\n  buckets: 2\n`);
    const stages = run("run", file, "--engine", "stages", "--json");
    expect(stages.code).toBe(2);
    expect(stages.stderr).toMatch(/--engine stages: the stages engine was removed in this version/);
    expect(existsSync(join(root, "night"))).toBe(false);
    const auto = run("run", file, "--engine", "auto", "--min-records", "1", "--json");
    expect(auto.code, auto.stderr).toBe(0);
    expect(withoutLogLines(auto.stderr)).toMatch(WARNING);
    expect(JSON.parse(readFileSync(join(root, "night", "manifest.json"), "utf8")).records_out).toBeGreaterThan(0);
  });

  it("pull --engine stages is a usage error before any request", () => {
    // Nothing listens on the port: a request would be a connection error, not a usage error.
    const r = run("pull", "sft", "--base-url", "http://127.0.0.1:9", "--out", join(root, "pull"), "--engine", "stages");
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--engine stages: the stages engine was removed in this version/);
  });
});
