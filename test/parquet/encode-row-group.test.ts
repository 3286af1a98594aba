import { describe, expect, it } from "vitest";
import { ConfigError } from "../../src/core/errors.js";
import { columnPlan } from "../../src/parquet/column-plan.js";
import type { ColumnPlan } from "../../src/parquet/column-plan.js";
import { encodeRowGroup } from "../../src/parquet/encode-row-group.js";
import type { EncodeOptions } from "../../src/parquet/encode-row-group.js";
import { RowGroupBuilder } from "../../src/parquet/row-group-builder.js";
import { shredRecord } from "../../src/parquet/shred-record.js";
import type { ColumnType, Field } from "../../src/schema/column-type.js";
import { readPages } from "./helpers/read-pages.js";

type Row = Record<string, unknown>;
const field = (name: string, type: ColumnType): Field => ({ name, type, nullable: true });

const COLUMNS: Field[] = [
  field("id", { kind: "int64" }),
  field("score", { kind: "float64" }),
  field("tags", { kind: "list", item: { kind: "string" } }),
  field("ok", { kind: "bool" }),
];

function built(records: readonly Row[], columns: readonly Field[] = COLUMNS): { plan: ColumnPlan; builder: RowGroupBuilder } {
  const plan = columnPlan(columns);
  const builder = new RowGroupBuilder(plan);
  for (const r of records) {
    builder.beginRow();
    shredRecord(plan, r, builder.leaves);
  }
  return { plan, builder };
}

const rowsOf = (n: number): Row[] =>
  Array.from({ length: n }, (_, i) => ({
    id: i % 7 === 0 ? null : i * 1000 - 3,
    score: i % 5 === 0 ? null : (i - 10) / 4,
    tags: i % 6 === 0 ? [] : Array.from({ length: (i % 4) + 1 }, (_, k) => `tag ${i}.${k} ${"x".repeat(k * 10)}`),
    ok: i % 3 === 0,
  }));

describe("pages", () => {
  it("end at the first row start after pageBytes of values, so no row spans two pages", () => {
    const { plan, builder } = built(rowsOf(200));
    const { bytes, columns } = encodeRowGroup(builder, { codec: "zstd", pageBytes: 300 });
    const tags = columns[2]!;
    const leaf = plan.leaves[2]!;
    const pages = readPages(bytes, tags, leaf.maxDef, leaf.maxRep);
    expect(pages.length).toBeGreaterThan(5);
    expect(tags.pages).toBe(pages.length);
    for (const page of pages) expect(page.reps[0]).toBe(0);
    for (const page of pages.slice(0, -1)) expect(page.valueBytes).toBeGreaterThanOrEqual(300);
    expect(pages.reduce((n, p) => n + p.numValues, 0)).toBe(tags.numValues);
    expect(pages.flatMap((p) => p.reps).filter((r) => r === 0)).toHaveLength(200);
  });

  it("are ~1 MiB of values by default", () => {
    const { plan, builder } = built(Array.from({ length: 5 }, () => ({ tags: ["y".repeat(600 << 10)] })));
    const { bytes, columns } = encodeRowGroup(builder, { codec: "none" });
    const pages = readPages(bytes, columns[2]!, plan.leaves[2]!.maxDef, plan.leaves[2]!.maxRep);
    expect(pages.map((p) => p.numValues)).toEqual([2, 2, 1]);
  });

  it("hold repetition levels, then definition levels, then PLAIN values (booleans bit-packed)", () => {
    const { plan, builder } = built([{ ok: true }, { ok: null }, { ok: false }, { ok: true }]);
    const { bytes, columns } = encodeRowGroup(builder, { codec: "none" });
    const [page] = readPages(bytes, columns[3]!, plan.leaves[3]!.maxDef, 0);
    expect(page!.defs).toEqual([1, 0, 1, 1]);
    expect(page!.valueBytes).toBe(1);
    const end = columns[3]!.offset + columns[3]!.compressedSize;
    expect(bytes[end - 1]).toBe(0b101);
  });

  it("decode to the same levels whatever the codec", () => {
    const { plan, builder } = built(rowsOf(300));
    const leaf = plan.leaves[2]!;
    const levelsWith = (codec: EncodeOptions["codec"]) => {
      const { bytes, columns } = encodeRowGroup(builder, { codec, pageBytes: 2000 });
      return readPages(bytes, columns[2]!, leaf.maxDef, leaf.maxRep).map((p) => [p.reps, p.defs, p.valueBytes]);
    };
    const plain = levelsWith("none");
    expect(levelsWith("zstd")).toEqual(plain);
    expect(levelsWith("gzip")).toEqual(plain);
  });
});

describe("the encoded row group", () => {
  it("owns its ArrayBuffer exactly (a structured clone copies only it), and its metadata is plain data", () => {
    const { builder } = built(rowsOf(50));
    const encoded = encodeRowGroup(builder, { codec: "zstd" });
    expect(encoded.bytes.byteOffset).toBe(0);
    expect(encoded.bytes.buffer.byteLength).toBe(encoded.bytes.length);
    const copy = structuredClone(encoded);
    expect(copy.columns).toEqual(JSON.parse(JSON.stringify(encoded.columns)));
    expect(copy.bytes.length).toBe(copy.compressedSize);
    expect(Buffer.from(copy.bytes).equals(Buffer.from(encoded.bytes))).toBe(true);
  });

  it("with `scratch`, gives a view of the encoder's memory with the same bytes, overwritten by the next call", () => {
    const { builder } = built(rowsOf(50));
    const copied = encodeRowGroup(builder, { codec: "zstd" });
    const view = encodeRowGroup(builder, { codec: "zstd", scratch: true });
    expect(view.bytes.buffer.byteLength).toBeGreaterThan(view.bytes.length);
    expect(Buffer.from(view.bytes).equals(Buffer.from(copied.bytes))).toBe(true);
    const { builder: other } = built(rowsOf(7));
    encodeRowGroup(other, { codec: "none", scratch: true });
    expect(Buffer.from(view.bytes).equals(Buffer.from(copied.bytes))).toBe(false);
  });

  it("lays the chunks out back to back in leaf order", () => {
    const { plan, builder } = built(rowsOf(50));
    const { bytes, columns, rows, uncompressedSize } = encodeRowGroup(builder, { codec: "gzip" });
    expect(rows).toBe(50);
    expect(columns.map((c) => c.path)).toEqual(plan.leaves.map((l) => l.path));
    let at = 0;
    for (const c of columns) {
      expect(c.offset).toBe(at);
      at += c.compressedSize;
    }
    expect(at).toBe(bytes.length);
    expect(uncompressedSize).toBe(columns.reduce((n, c) => n + c.uncompressedSize, 0));
  });

  it("counts values and nulls the way pyarrow and DuckDB do: every entry without a value is a null", () => {
    const { builder } = built([{ tags: ["a", null] }, { tags: [] }, { tags: null }, {}]);
    const tags = encodeRowGroup(builder, { codec: "none" }).columns[2]!;
    expect({ numValues: tags.numValues, nullCount: tags.nullCount }).toEqual({ numValues: 5, nullCount: 4 });
    expect(tags.encodings).toEqual(["PLAIN", "RLE"]);
  });

  it("carries the min and max of INT64 and DOUBLE chunks, zero bounds as -0 / +0", () => {
    const { builder } = built([{ id: -(2 ** 53 - 1), score: 0 }, { id: 2 ** 53 - 1, score: -0 }, { id: 5 }, {}]);
    const [id, score, tags, ok] = encodeRowGroup(builder, { codec: "none" }).columns;
    expect([id!.min, id!.max, id!.nanCount]).toEqual([-(2 ** 53 - 1), 2 ** 53 - 1, null]);
    expect([score!.min, score!.max, score!.nanCount]).toEqual([-0, 0, 0]);
    expect([tags!.min, tags!.max, ok!.min]).toEqual([null, null, null]);
    const none = encodeRowGroup(built([{}]).builder, { codec: "none" }).columns[0]!;
    expect([none.min, none.max]).toEqual([null, null]);
  });

  it("leaves the builder as it was: encoding twice gives the same bytes", () => {
    const { builder } = built(rowsOf(30));
    expect(encodeRowGroup(builder, { codec: "zstd" })).toEqual(encodeRowGroup(builder, { codec: "zstd" }));
  });

  it("compresses: zstd and gzip pages are smaller than plain ones on repetitive data", () => {
    const { builder } = built(rowsOf(500));
    const size = (options: EncodeOptions) => encodeRowGroup(builder, options).bytes.length;
    expect(size({ codec: "zstd" })).toBeLessThan(size({ codec: "none" }) / 2);
    expect(size({ codec: "gzip" })).toBeLessThan(size({ codec: "none" }) / 2);
    expect(size({ codec: "zstd", zstdLevel: 9 })).toBeLessThanOrEqual(size({ codec: "zstd", zstdLevel: -5 }));
  });

  it("rejects an unknown codec and a level zstd does not have", () => {
    const { builder } = built([]);
    expect(() => encodeRowGroup(builder, { codec: "lz4" as never })).toThrow(ConfigError);
    expect(() => encodeRowGroup(builder, { codec: "zstd", zstdLevel: 23 })).toThrow(/from -7 to 22, got 23/);
    expect(() => encodeRowGroup(builder, { codec: "zstd", pageBytes: 0 })).toThrow(ConfigError);
  });
});
