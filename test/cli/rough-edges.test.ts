import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FORMATS } from "../../src/formats/index.js";
import { FORMAT_NAMES } from "../../src/formats/format.js";
import { FIXTURES } from "../helpers/flow.js";
import { logLines } from "../helpers/log-lines.js";
import { HAS_SCRIPT, onTerminal } from "../helpers/on-terminal.js";
import { spawnCli } from "../helpers/spawn-cli.js";
import { tempDir } from "../helpers/temp-dir.js";

// Issue 22's small rough edges, each through the built CLI as a newcomer meets it.
const root = tempDir("evalshard-rough-");
const SFT = `${FIXTURES}records/sft-valid.ndjson`;
let n = 0;
const fresh = () => join(root, `case${n++}`);

describe("a JSON array input", () => {
  const arrays = { "one line": '[{"format_version":"1.1","run_id":"r"}]\n', "pretty-printed": '[\n  {\n    "format_version": "1.1"\n  }\n]\n' };
  for (const [shape, text] of Object.entries(arrays)) {
    it(`(${shape}) is named as one, and NDJSON as what is read (exit 2)`, async () => {
      const dir = fresh();
      mkdirSync(dir);
      writeFileSync(join(dir, "export.json"), text);
      const r = await spawnCli(["convert", join(dir, "export.json"), "--out", join(dir, "out")]);
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(/^evalshard: ".*export\.json" is a JSON array, but evalshard reads NDJSON: one JSON record per line/m);
      expect(r.stderr).not.toMatch(/pass --format/);
    });
  }

  it("an NDJSON input naming no format still asks for --format", async () => {
    const dir = fresh();
    mkdirSync(dir);
    writeFileSync(join(dir, "x.ndjson"), '{"a":1}\n');
    const r = await spawnCli(["convert", join(dir, "x.ndjson"), "--out", join(dir, "out")]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/No line of .* names its format .*: pass --format sft\|rl\|dpo/);
  });
});

describe("a failed command leaves nothing it created", () => {
  it("convert: the --out folders it made on the way are gone; a folder that was there stays", async () => {
    const dir = fresh();
    mkdirSync(dir);
    writeFileSync(join(dir, "bad.json"), "[]\n[1]\n");
    const nested = await spawnCli(["convert", join(dir, "bad.json"), "--out", join(dir, "a", "b", "out")]);
    expect(nested.status).toBe(2);
    expect(readdirSync(dir)).toEqual(["bad.json"]);
    mkdirSync(join(dir, "mine"));
    const kept = await spawnCli(["convert", join(dir, "bad.json"), "--out", join(dir, "mine")]);
    expect(kept.status).toBe(2);
    expect(readdirSync(join(dir, "mine"))).toEqual([]); // the user's folder, left as it was
  });

  it("pull: a service it cannot reach leaves no --out folder it made", async () => {
    const out = join(fresh(), "pulled");
    // Nothing listens on port 9: the pull fails to connect after validating its options.
    const r = await spawnCli(["pull", "sft", "--base-url", "http://127.0.0.1:9", "--out", out], { EVAL_OWNER_TOKEN: "not-a-real-token-0123456789" });
    expect(r.status).not.toBe(0);
    expect(existsSync(out)).toBe(false);
    expect(existsSync(join(out, ".."))).toBe(false);
  });
});

describe("inspect", () => {
  it("prints int64 columns as numbers, in text and in --json", async () => {
    const out = fresh();
    expect((await spawnCli(["convert", SFT, "--out", out])).status).toBe(0);
    const json = await spawnCli(["inspect", out, "--json"]);
    expect(json.status, json.stderr).toBe(0);
    const row = (JSON.parse(json.stdout) as { rows: { scenario: { seed: unknown }; scorecard_version: unknown }[] }).rows[0];
    expect(typeof row?.scenario.seed).toBe("number");
    expect(typeof row?.scorecard_version).toBe("number");
    const text = await spawnCli(["inspect", out]);
    expect(text.stdout).toMatch(/"seed":42[,}]/);
    expect(text.stdout).not.toMatch(/"seed":"42"/);
  });
});

describe("--help", () => {
  for (const command of ["convert", "pull", "validate"]) {
    it(`${command}: sizes as people write them, and every format's untrusted paths`, async () => {
      const r = await spawnCli([command, "--help"]);
      expect(r.status).toBe(0);
      expect(r.stdout).not.toMatch(/\d{7,}/); // no 536870912 or 67108864
      if (command === "convert") expect(r.stdout).toMatch(/default: 512MiB/); // pull's shards are buckets
      expect(r.stdout).toMatch(/default: 64MiB/);
      for (const name of FORMAT_NAMES) {
        for (const path of FORMATS[name].untrustedPaths) expect(r.stdout, `${name} ${path}`).toContain(path);
      }
    });
  }
});

describe("one error prefix", () => {
  const cases: Record<string, string[]> = {
    "an unknown flag (commander's usage error)": ["convert", SFT, "--out", "x", "--bogus"],
    "a missing required flag": ["convert", SFT],
    "an unknown command": ["convrt"],
    "a bad option value": ["convert", SFT, "--out", "x", "--shard-rows", "0"],
    "an input that does not exist": ["convert", "/nonexistent/in.ndjson", "--out", "x"],
  };
  for (const [what, args] of Object.entries(cases)) {
    it(`${what}: every line starts with "evalshard: "`, async () => {
      const r = await spawnCli(args);
      expect(r.status).not.toBe(0);
      // Commander's hints ("(Did you mean convert?)", "(run with --help for usage)") continue the message above.
      const lines = r.stderr.split("\n").filter((l) => l !== "" && !/^\((Did you mean|run with --help)/.test(l));
      expect(lines.length).toBeGreaterThan(0);
      for (const line of lines) expect(line).toMatch(/^evalshard: /);
    });
  }
});

describe("convert: JSON log lines off a terminal", () => {
  it("one line per phase (opened, converted, published) with the counts of the manifest", async () => {
    const out = fresh();
    const r = await spawnCli(["convert", SFT, "--out", out, "--json", "--no-filter-participation-gated"]);
    expect(r.status, r.stderr).toBe(0);
    const manifest = JSON.parse(r.stdout) as { records_in: number; records_out: number; shards: unknown[]; output: { engine: string } };
    const lines = logLines(r.stderr);
    expect(lines.map((l) => l.phase)).toEqual(["opened", "converted", "published"]);
    for (const line of lines) expect(line).toMatchObject({ command: "convert" });
    expect(lines[0]).toMatchObject({ inputs: 1 });
    expect(lines[1]).toMatchObject({ engine: manifest.output.engine, records_in: manifest.records_in, records_out: manifest.records_out, quarantined: 0 });
    expect(lines[2]).toMatchObject({ published: true, shards: manifest.shards.length, written_to: out });
    expect(r.stderr.split("\n").filter((l) => l !== "")).toHaveLength(3); // nothing else
  });

  it("with --out -: none, stderr carries the manifest alone", async () => {
    const r = await spawnCli(["convert", SFT, "--out", "-", "--to", "jsonl", "--no-filter-participation-gated"]);
    expect(r.status, r.stderr).toBe(0);
    expect(logLines(r.stderr)).toEqual([]);
    expect(JSON.parse(r.stderr)).toMatchObject({ records_out: 2 });
  });
});

describe.skipIf(!HAS_SCRIPT)("convert: progress on a terminal", () => {
  it("a redrawn status line, no JSON log lines, cleared before the summary", async () => {
    const out = await onTerminal(["convert", SFT, "--out", fresh(), "--no-filter-participation-gated"]);
    expect(out).toContain("\r\x1b[2Kconvert  opening inputs");
    expect(out).toMatch(/\r\x1b\[2Kconvert {2}\d+\.\ds {2}3 records in, 2 out \((parallel|stages) engine\); publishing\r\x1b\[2Krecords in 3, out 2/);
    expect(out).not.toContain('{"ts"');
  });

  it("a failure clears the line first, so the message starts at its beginning", async () => {
    const dir = fresh();
    mkdirSync(dir);
    writeFileSync(join(dir, "export.json"), "[]\n");
    const out = await onTerminal(["convert", join(dir, "export.json"), "--out", join(dir, "out")]);
    expect(out).toMatch(/\r\x1b\[2Kevalshard: ".*export\.json" is a JSON array/);
  });
});
