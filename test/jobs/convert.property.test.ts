import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { parquetReadObjects } from "hyparquet";
import { zstdDecompressSync as zstdDecompress } from "node:zlib";
import { describe, expect, it } from "vitest";
import { convert } from "../../src/jobs/convert.js";
import { FORMATS } from "../../src/formats/index.js";
import type { FormatName } from "../../src/formats/format.js";
import { reconciles } from "../../src/output/manifest.js";
import type { ColumnType, Field } from "../../src/schema/column-type.js";
import { declaredPaths } from "../../src/schema/field-path.js";
import { outputColumns, resolveUntrustedPolicy } from "../../src/stages/untrusted-policy.js";
import { dpoArb, rlArb, sftArb } from "../helpers/arbitraries.js";
import { evalshardLeftovers } from "../helpers/local-layout.js";
import { tempDir } from "../helpers/temp-dir.js";

const root = tempDir();
let n = 0;

/** Every key present must be declared by the (pruned) columns; json-typed values are opaque. */
function undeclared(value: unknown, type: ColumnType, path: string): string[] {
  if (value === null || value === undefined || type.kind === "json") return [];
  if (type.kind === "struct") {
    const fields = new Map(type.fields.map((f) => [f.name, f]));
    return Object.entries(value as Record<string, unknown>).flatMap(([k, v]) => {
      const f = fields.get(k);
      return f === undefined ? [`${path}.${k}`] : undeclared(v, f.type, `${path}.${k}`);
    });
  }
  if (type.kind === "list") return (value as unknown[]).flatMap((v) => undeclared(v, type.item, `${path}[]`));
  if (type.kind === "map") {
    // Parquet readers hand maps back as [{key, value}] entries; JSON has objects.
    const values = Array.isArray(value) ? value.map((e: { value: unknown }) => e.value) : Object.values(value as Record<string, unknown>);
    return values.flatMap((v) => undeclared(v, type.value, `${path}.*`));
  }
  return [];
}

async function readRows(dir: string, files: readonly string[], to: "parquet" | "jsonl"): Promise<Record<string, unknown>[]> {
  if (to === "jsonl") return files.flatMap((f) => readFileSync(join(dir, f), "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l)));
  const rows: Record<string, unknown>[] = [];
  for (const f of files) {
    const bytes = readFileSync(join(dir, f));
    rows.push(...((await parquetReadObjects({ file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength), compressors: { ZSTD: (input: Uint8Array) => new Uint8Array(zstdDecompress(input)) } })) as Record<string, unknown>[]));
  }
  return rows;
}

const cases: [FormatName, fc.Arbitrary<object>][] = [["sft", sftArb], ["rl", rlArb], ["dpo", dpoArb]];

describe("property: nothing untrusted or undeclared survives, and the counts reconcile", () => {
  for (const [name, arb] of cases) {
    it(`${name}: random records with random extra keys and junk lines`, async () => {
      const format = FORMATS[name];
      const columns: Field[] = outputColumns(format, resolveUntrustedPolicy(format));
      const struct: ColumnType = { kind: "struct", fields: columns };
      for (const untrusted of format.untrustedPaths) expect(declaredPaths(columns)).not.toContain(untrusted);
      await fc.assert(
        fc.asyncProperty(fc.array(arb, { maxLength: 12 }), fc.array(fc.constantFrom("not json", "{}", '{"error":"partial_stream","run_index":0}', "[]"), { maxLength: 3 }), fc.constantFrom("parquet" as const, "jsonl" as const), async (records, junk, to) => {
          const dir = join(root, `case-${n++}`);
          mkdirSync(dir);
          const lines = [...records.map((r) => JSON.stringify(r)), ...junk];
          writeFileSync(join(dir, "in.ndjson"), `${lines.join("\n")}\n`);
          const { manifest } = await convert({ inputs: [join(dir, "in.ndjson")], out: join(dir, "out"), to, format: name, shardRows: 5, maxQuarantined: 1, maxStreamErrors: 1_000_000, ...(to === "jsonl" ? { compression: "none" as const } : {}) });
          expect(reconciles(manifest)).toBe(true);
          const streamErrors = junk.filter((j) => j.includes("partial_stream")).length;
          expect(manifest.records_in).toBe(lines.length - streamErrors);
          expect(manifest.stream_errors).toBe(streamErrors);
          const rows = await readRows(join(dir, "out"), manifest.shards.map((s) => s.path), to);
          expect(rows).toHaveLength(manifest.records_out);
          for (const row of rows) {
            const present = Object.fromEntries(Object.entries(row).filter(([, v]) => v !== null && v !== undefined));
            expect(undeclared(present, struct, "")).toEqual([]);
          }
          expect(evalshardLeftovers(join(dir, "out"))).toEqual([]);
        }),
        { numRuns: 12, seed: 20261121 },
      );
    });
  }
});
