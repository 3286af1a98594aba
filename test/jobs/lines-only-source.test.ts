import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { convert, fileSource, type LineSource, type Manifest, type ReadOptions, type SourceLine } from "../../src/index.js";
import { mixedLinesInput } from "../helpers/mixed-lines-input.js";
import { tempDir } from "../helpers/temp-dir.js";

// Issue 33: a library caller's source that has lines but no bytes runs on the units, spooled once into the
// run's scratch; its quarantine and manifest still name it, at its own lines and offsets.
const root = tempDir("evalshard-lines-only-");
const input = mixedLinesInput(root);

/** The file's lines, with no `bytes()`: what a caller's own line iterable looks like. */
const linesOnly = (name: string): LineSource => {
  const file = fileSource(input);
  async function* lines(options?: ReadOptions): AsyncGenerator<SourceLine> {
    for await (const line of file.lines(options)) yield { ...line, provenance: { ...line.provenance, source: name } };
  }
  return { name, lines, info: async () => ({ ...(await file.info()), path: name }) };
};

const run = async (inputs: readonly (string | LineSource)[], to: "parquet" | "jsonl") => {
  const out = join(root, `out-${to}-${typeof inputs[0] === "string" ? "file" : "lines"}`);
  const { manifest } = await convert({ inputs, out, to, maxLineBytes: 4096, maxQuarantined: 1, maxStreamErrors: 5, seats: "all" });
  const data = join(out, "data");
  const shards = readdirSync(data).sort().map((f) => readFileSync(join(data, f)));
  const quarantine = readFileSync(join(out, "_quarantine", "sft.ndjson"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
  return { manifest: manifest as Manifest & { output: { engine: string } }, shards, quarantine };
};

describe("a source without bytes", { timeout: 120_000 }, () => {
  for (const to of ["parquet", "jsonl"] as const) {
    it(`runs on the units and writes the file's ${to} shards byte for byte, its quarantine naming the caller's source at the file's lines`, async () => {
      const file = await run([input], to);
      const lines = await run([linesOnly("caller-feed")], to);
      expect(lines.manifest.output.engine).toBe("parallel");
      expect(lines.shards.length).toBeGreaterThan(0);
      expect(lines.shards).toEqual(file.shards);
      expect(lines.manifest.inputs.map((i) => i.path)).toEqual(["caller-feed"]);
      expect(lines.manifest.inputs[0]?.sha256).toBe(file.manifest.inputs[0]?.sha256);
      const { records_in, records_out, dropped, quarantined, stream_errors } = file.manifest;
      expect(lines.manifest).toMatchObject({ records_in, records_out, dropped, quarantined, stream_errors });
      expect(Object.keys(quarantined)).toEqual(expect.arrayContaining(["invalid_json", "invalid_utf8", "line_too_long"]));
      expect(lines.quarantine).toEqual(file.quarantine.map((q) => ({ ...q, source: "caller-feed" })));
    });
  }
});
