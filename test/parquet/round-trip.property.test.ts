import { join } from "node:path";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import type { Field } from "../../src/schema/column-type.js";
import { parquetFormat } from "../../src/sinks/native-parquet-format.js";
import { tempDir } from "../helpers/temp-dir.js";
import { EVERY_KIND, columnsArb, recordArb } from "./helpers/column-arbitraries.js";
import { compareSchemas, readHyparquet, readNodeDuckdb, readPython, runPython } from "./helpers/read-back.js";
import { expectedRow, rowFromEngine } from "./helpers/record-space.js";
import { writeParquetFile } from "./helpers/write-parquet-file.js";
import type { WriteOptions } from "./helpers/write-parquet-file.js";

type Row = Record<string, unknown>;
const itPython = runPython ? it : it.skip;
const root = tempDir("evalshard-native-rt-");

interface Case {
  readonly columns: Field[];
  readonly records: Row[];
  readonly options: WriteOptions;
}

const optionsArb: fc.Arbitrary<WriteOptions> = fc.record({
  codec: fc.constantFrom("zstd" as const, "gzip" as const, "snappy" as const, "none" as const),
  rowGroupRows: fc.integer({ min: 1, max: 5 }),
  // 1 byte: a page per row; 1 MiB: one page per chunk.
  pageBytes: fc.constantFrom(1, 24, 200, 1 << 20),
});

const caseArb = (columns: fc.Arbitrary<Field[]>, maxRecords: number): fc.Arbitrary<Case> =>
  columns.chain((cols) => fc.record({ columns: fc.constant(cols), records: fc.array(recordArb(cols), { maxLength: maxRecords }), options: optionsArb }));

/** Checks every row an engine read against what its record should read back as. */
function expectRows(c: Case, rows: readonly Row[], what: string): void {
  expect(rows, what).toHaveLength(c.records.length);
  rows.forEach((row, i) => {
    expect(rowFromEngine(c.columns, row), `${what}, row ${i}`).toEqual(expectedRow(c.columns, c.records[i] as Row));
  });
}

describe("random columns and records round-trip through hyparquet", () => {
  it("reads back every record, whatever the nesting, nulls, codec, row groups and pages", async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(caseArb(columnsArb, 12), async (c) => {
        const file = join(root, `hyparquet-${n++}.parquet`);
        writeParquetFile(file, c.columns, c.records, c.options);
        expectRows(c, await readHyparquet(file), `hyparquet ${JSON.stringify(c.options)}`);
      }),
      { numRuns: 150 },
    );
  });
});

describe("random columns and records round-trip through DuckDB and pyarrow", () => {
  // One batch of files read by one process per engine: a Python start per case would be too slow.
  const seed = Number(process.env.FC_SEED ?? Math.floor(Math.random() * 2 ** 31));
  const cases: Case[] = [
    ...fc.sample(caseArb(columnsArb, 10), { numRuns: 30, seed }),
    ...fc.sample(caseArb(fc.constant([...EVERY_KIND]), 60), { numRuns: 3, seed }),
  ];
  const files = cases.map((_, i) => join(root, `batch-${i}.parquet`));
  const where = (i: number) => `case ${i} of seed ${seed} (FC_SEED=${seed} reproduces it): ${JSON.stringify(cases[i]?.columns)} ${JSON.stringify(cases[i]?.options)}`;

  beforeAll(() => {
    cases.forEach((c, i) => writeParquetFile(files[i] as string, c.columns, c.records, c.options));
  });

  it("reads back with @duckdb/node-api", async () => {
    const read = await readNodeDuckdb(files);
    cases.forEach((c, i) => expectRows(c, read[i] as Row[], where(i)));
  });

  itPython("reads back with pyarrow", async () => {
    const read = await readPython("pyarrow", files);
    cases.forEach((c, i) => expectRows(c, read[files[i] as string]?.rows ?? [], where(i)));
  });

  itPython("reads back with python duckdb", async () => {
    const read = await readPython("duckdb", files);
    cases.forEach((c, i) => expectRows(c, read[files[i] as string]?.rows ?? [], where(i)));
  });

  itPython("has the Arrow schema pyarrow reads from DuckDB's shard of the same columns", async () => {
    const format = parquetFormat({ compression: "zstd" });
    const theirs = cases.map((_, i) => join(root, `batch-${i}-duckdb.parquet`));
    try {
      for (const [i, c] of cases.entries()) await (await format.open(theirs[i] as string, c.columns)).close();
    } finally {
      await format.dispose();
    }
    const schemas = await compareSchemas(files.map((f, i) => [f, theirs[i] as string] as const));
    schemas.forEach((s, i) => expect(s.a, where(i)).toBe(s.b));
    schemas.forEach((s, i) => expect(s.equal, where(i)).toBe(true));
  });
});
