import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import fc from "fast-check";
import { parquetMetadata } from "hyparquet";
import { beforeAll, describe, expect, it } from "vitest";
import { columnPlan } from "../../src/parquet/column-plan.js";
import { encodeRowGroup } from "../../src/parquet/encode-row-group.js";
import { PARQUET_MAGIC } from "../../src/parquet/parquet-footer.js";
import { parquetFooter } from "./helpers/parquet-footer.js";
import { RowGroupBuilder } from "../../src/parquet/row-group-builder.js";
import type { ColumnType, Field } from "../../src/schema/column-type.js";
import { sqlString } from "../../src/schema/duckdb-type.js";
import { duckdbParquetFormat } from "../helpers/duckdb-parquet-format.js";
import { tempDir } from "../helpers/temp-dir.js";
import { EVERY_KIND } from "./helpers/column-arbitraries.js";
import { compareSchemas, readHyparquet, readNodeDuckdb, readPython, runPython } from "./helpers/read-back.js";
import { writeParquetFile } from "./helpers/write-parquet-file.js";

const itPython = runPython ? it : it.skip;
const root = tempDir("evalshard-native-footer-");
const field = (name: string, type: ColumnType): Field => ({ name, type, nullable: true });
const metadataOf = (file: string) => {
  const bytes = readFileSync(file);
  return parquetMetadata(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));
};

describe("a file without row groups", () => {
  const ours = join(root, "empty.parquet");
  const duckdb = join(root, "empty-duckdb.parquet");

  beforeAll(async () => {
    writeFileSync(ours, Buffer.concat([PARQUET_MAGIC, parquetFooter(columnPlan(EVERY_KIND), [], { createdBy: "test" })]));
    const format = duckdbParquetFormat({ compression: "zstd" });
    const writer = await format.open(duckdb, EVERY_KIND);
    await writer.close();
    await format.dispose();
  });

  it("is PAR1, the footer, its length and PAR1", () => {
    const bytes = readFileSync(ours);
    expect([...bytes.subarray(0, 4)]).toEqual([...PARQUET_MAGIC]);
    expect([...bytes.subarray(-4)]).toEqual([...PARQUET_MAGIC]);
    expect(bytes.readUInt32LE(bytes.length - 8)).toBe(bytes.length - 12);
  });

  it("reads as zero rows with hyparquet and DuckDB", async () => {
    expect(await readHyparquet(ours)).toEqual([]);
    expect(await readNodeDuckdb([ours])).toEqual([[]]);
  });

  itPython("reads as zero rows with pyarrow, with DuckDB's schema", async () => {
    expect((await readPython("pyarrow", [ours]))[ours]?.rows).toEqual([]);
    const [schemas] = await compareSchemas([[ours, duckdb]]);
    expect(schemas?.a).toBe(schemas?.b);
    expect(schemas?.equal).toBe(true);
  });
});

describe("the FileMetaData", () => {
  it("holds the schema as DuckDB lays it out: optional everywhere but the repeated list groups", () => {
    const file = join(root, "schema.parquet");
    writeParquetFile(file, EVERY_KIND, [{ s: "x" }], { codec: "none", rowGroupRows: 1 });
    const meta = metadataOf(file);
    expect(meta.version).toBe(1);
    expect(meta.created_by).toBe("evalshard tests");
    const elements = meta.schema.map((e) => [e.name, e.type, e.repetition_type, e.num_children, e.converted_type, e.logical_type?.type]);
    expect(elements.slice(0, 13)).toEqual([
      ["schema", undefined, "REQUIRED", EVERY_KIND.length, undefined, undefined],
      ["s", "BYTE_ARRAY", "OPTIONAL", undefined, "UTF8", "STRING"],
      ["i", "INT64", "OPTIONAL", undefined, "INT_64", "INTEGER"],
      ["d", "DOUBLE", "OPTIONAL", undefined, undefined, undefined],
      ["b", "BOOLEAN", "OPTIONAL", undefined, undefined, undefined],
      // JSON text as a string, which every reader reads as one (no JSON logical type: docs/decisions.md).
      ["j", "BYTE_ARRAY", "OPTIONAL", undefined, "UTF8", "STRING"],
      ["strs", undefined, "OPTIONAL", 1, "LIST", "LIST"],
      ["list", undefined, "REPEATED", 1, undefined, undefined],
      ["element", "BYTE_ARRAY", "OPTIONAL", undefined, "UTF8", "STRING"],
      ["grid", undefined, "OPTIONAL", 1, "LIST", "LIST"],
      ["list", undefined, "REPEATED", 1, undefined, undefined],
      ["element", undefined, "OPTIONAL", 1, "LIST", "LIST"],
      ["list", undefined, "REPEATED", 1, undefined, undefined],
    ]);
    expect(meta.schema[2]?.logical_type).toEqual({ type: "INTEGER", bitWidth: 64, isSigned: true });
  });

  it("places each chunk at its row group's absolute offset, with its statistics", () => {
    const file = join(root, "stats.parquet");
    const columns = [field("i", { kind: "int64" }), field("d", { kind: "float64" }), field("s", { kind: "string" })];
    const groups = writeParquetFile(file, columns, [{ i: 5, d: -1.5, s: "a" }, { i: -7 }, { d: 2 }, {}], { codec: "zstd", rowGroupRows: 3 });
    const meta = metadataOf(file);
    expect(meta.num_rows).toBe(4n);
    expect(meta.row_groups.map((g) => Number(g.num_rows))).toEqual([3, 1]);
    meta.row_groups.forEach((g, i) => {
      expect(Number(g.file_offset)).toBe(groups[i]?.offset);
      expect(Number(g.columns[0]?.meta_data?.data_page_offset)).toBe(groups[i]?.offset);
    });
    const [i, d, s] = meta.row_groups[0]!.columns.map((c) => c.meta_data!.statistics!);
    expect([i?.null_count, i?.min_value, i?.max_value]).toEqual([1n, -7n, 5n]);
    expect([d?.null_count, d?.min_value, d?.max_value]).toEqual([1n, -1.5, 2]);
    expect([s?.null_count, s?.min_value]).toEqual([2n, undefined]);
    expect(meta.row_groups[1]!.columns[0]!.meta_data!.statistics!.min_value).toBeUndefined();
  });

  it("refuses row groups that do not match the plan", () => {
    const plan = columnPlan([field("a", { kind: "string" })]);
    const other = new RowGroupBuilder(columnPlan([field("b", { kind: "string" })]));
    const { bytes: _, ...encoded } = encodeRowGroup(other, { codec: "none" });
    expect(() => parquetFooter(plan, [{ encoded, offset: 4 }], { createdBy: "test" })).toThrow(/chunk 0 is b where the schema has a/);
  });
});

describe("statistics DuckDB prunes row groups with", () => {
  it("give the same answers as scanning every row", async () => {
    const file = join(root, "pruning.parquet");
    const columns = [field("i", { kind: "int64" }), field("d", { kind: "float64" })];
    const records = fc.sample(
      fc.record({ i: fc.option(fc.maxSafeInteger(), { nil: null }), d: fc.option(fc.double({ noNaN: true, noDefaultInfinity: true }), { nil: null }) }),
      { numRuns: 400 },
    );
    writeParquetFile(file, columns, records, { codec: "zstd", rowGroupRows: 16 });
    const instance = await DuckDBInstance.create(":memory:");
    const connection = await instance.connect();
    try {
      for (const r of records.slice(0, 40)) {
        for (const [column, value] of [
          ["i", r.i],
          ["d", r.d],
        ] as const) {
          if (value === null) continue;
          // A quoted double: DuckDB reads an unquoted 0.0000028692324299730014 as a DECIMAL and rounds it on the cast.
          const literal = column === "i" ? `${value}::BIGINT` : `'${value}'::DOUBLE`;
          const got = (await connection.runAndReadAll(`SELECT count(*)::INTEGER AS n FROM read_parquet(${sqlString(file)}) WHERE ${column} >= ${literal}`)).getRowObjects()[0]?.n;
          expect(got, `${column} >= ${value}`).toBe(records.filter((x) => x[column] !== null && (x[column] as number) >= value).length);
        }
      }
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  });
});
