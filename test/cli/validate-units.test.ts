import { createReadStream, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { mixedLinesInput } from "../helpers/mixed-lines-input.js";
import { runCli } from "../helpers/run-cli.js";
import { tempDir } from "../helpers/temp-dir.js";

// Issue 33: validate runs convert's checks on the units, and stdin converts there as a file does.
const root = tempDir("evalshard-validate-units-");
const input = mixedLinesInput(root);
const LIMITS = ["--max-line-bytes", "4096", "--max-quarantined", "1", "--max-stream-errors", "5", "--seats", "all"];

const quarantineOf = (out: string) =>
  readFileSync(join(out, "_quarantine", "sft.ndjson"), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { source: string; line: number; offset: number; reason: string; detail: string });
const shardsOf = (out: string) => readdirSync(join(out, "data")).sort().map((f) => readFileSync(join(out, "data", f)));

describe("validate on the units", { timeout: 120_000 }, () => {
  it("says the units ran, and counts and shows what convert quarantines, with file, line and offset; on main's thread too", async () => {
    const out = join(root, "converted");
    const converted = await runCli(["convert", input, "--out", out, ...LIMITS]);
    expect(converted.code, converted.stderr).toBe(0);
    const manifest = JSON.parse(readFileSync(join(out, "manifest.json"), "utf8")) as Record<string, unknown>;
    const quarantined = quarantineOf(out);
    for (const workers of [[], ["--workers", "0"]]) {
      const r = await runCli(["validate", input, "--json", "--show", "100", ...LIMITS, ...workers]);
      expect(r.code, r.stderr).toBe(0);
      const result = JSON.parse(r.stdout) as Record<string, unknown>;
      expect(result.engine).toBe("parallel");
      for (const key of ["records_in", "records_out", "dropped", "quarantined", "stream_errors"]) expect(result[key], key).toEqual(manifest[key]);
      expect(result.first_bad).toEqual(quarantined.map(({ source, line, offset, reason, detail }) => ({ source, line, offset, reason, detail })));
      expect(quarantined.map((q) => q.reason)).toEqual(expect.arrayContaining(["invalid_json", "invalid_utf8", "line_too_long"]));
    }
  });
});

describe("convert from stdin on the units", { timeout: 120_000 }, () => {
  for (const to of ["parquet", "jsonl"]) {
    it(`writes the file's ${to} shards byte for byte, its quarantine naming "-"`, async () => {
      const fromFile = join(root, `file-${to}`);
      const fromStdin = join(root, `stdin-${to}`);
      expect((await runCli(["convert", input, "--out", fromFile, "--to", to, ...LIMITS])).code).toBe(0);
      const r = await runCli(["convert", "-", "--out", fromStdin, "--to", to, ...LIMITS], { stdin: createReadStream(input) });
      expect(r.code, r.stderr).toBe(0);
      const manifest = JSON.parse(readFileSync(join(fromStdin, "manifest.json"), "utf8")) as { output: { engine: string }; inputs: { path: string }[] };
      expect(manifest.output.engine).toBe("parallel");
      expect(manifest.inputs.map((i) => i.path)).toEqual(["-"]);
      expect(shardsOf(fromStdin)).toEqual(shardsOf(fromFile));
      expect(quarantineOf(fromStdin)).toEqual(quarantineOf(fromFile).map((q) => ({ ...q, source: "-" })));
    });
  }
});
