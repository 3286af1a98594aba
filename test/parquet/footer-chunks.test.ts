import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ByteWriter } from "../../src/parquet/byte-writer.js";
import { columnPlan } from "../../src/parquet/column-plan.js";
import type { ChunkInfo } from "../../src/parquet/encode-column-chunk.js";
import { parquetFooter } from "./helpers/parquet-footer.js";
import { physicalType } from "../../src/parquet/schema-elements.js";
import { CompactType, ThriftWriter } from "../../src/parquet/thrift-writer.js";
import type { Field } from "../../src/schema/column-type.js";

// The footer stores each ColumnChunk's bytes directly (one call per chunk; docs/decisions.md). The reference
// here is what ThriftWriter writes for the same fields, field by field, as the footer wrote it before.

const columns: Field[] = [
  { name: "i", type: { kind: "int64" }, nullable: true },
  { name: "d", type: { kind: "float64" }, nullable: true },
  { name: "s", type: { kind: "list", item: { kind: "string" } }, nullable: true },
];
const plan = columnPlan(columns);
const CODECS = { none: 0, snappy: 1, gzip: 2, zstd: 6 } as const;

/** The row groups' list (FileMetaData field 4's elements) as ThriftWriter writes them. */
function referenceGroups(groups: readonly { columns: readonly ChunkInfo[]; offset: number; rows: number }[]): Uint8Array {
  const out = new ByteWriter(64);
  for (const [ordinal, group] of groups.entries()) {
    const t = new ThriftWriter(out).list(1, CompactType.STRUCT, group.columns.length);
    for (const chunk of group.columns) {
      t.itemStruct().i64(2, 0).struct(3).i32(1, physicalType(chunk.type));
      t.list(2, CompactType.I32, chunk.encodings.length);
      for (const e of chunk.encodings) t.itemI32(e === "PLAIN" ? 0 : 3);
      t.list(3, CompactType.BINARY, chunk.path.length);
      for (const p of chunk.path) t.itemString(p);
      t.i32(4, CODECS[chunk.codec]);
      t.i64(5, chunk.numValues).i64(6, chunk.uncompressedSize).i64(7, chunk.compressedSize).i64(9, group.offset + chunk.offset);
      t.struct(12).i64(3, chunk.nullCount);
      if (chunk.min !== null && chunk.max !== null) t.binary(5, plain8(chunk.type, chunk.max)).binary(6, plain8(chunk.type, chunk.min)).bool(7, true).bool(8, true);
      if (chunk.nanCount !== null) t.i64(9, chunk.nanCount);
      t.end().end().end();
    }
    const size = group.columns.reduce((n, c) => n + c.uncompressedSize, 0);
    const compressed = group.columns.reduce((n, c) => n + c.compressedSize, 0);
    t.i64(2, size).i64(3, group.rows).i64(5, group.offset).i64(6, compressed).i16(7, ordinal).end();
  }
  return out.bytes.slice(0, out.length);
}

function plain8(type: ChunkInfo["type"], value: number): Uint8Array {
  const bytes = new Uint8Array(8);
  const view = new DataView(bytes.buffer);
  if (type === "float64") view.setFloat64(0, value, true);
  else view.setBigInt64(0, BigInt(value), true);
  return bytes;
}

const size = fc.oneof(fc.integer({ min: 0, max: 300 }), fc.integer({ min: 0, max: Math.floor(Number.MAX_SAFE_INTEGER / 4) }));
const int = fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER });
const chunkArb = (leaf: number): fc.Arbitrary<ChunkInfo> => {
  const { path, type } = plan.leaves[leaf]!;
  const bounds = type === "float64" ? fc.tuple(fc.double({ noNaN: true }), fc.double({ noNaN: true })) : fc.tuple(int, int);
  return fc.record({ offset: size, compressedSize: size, uncompressedSize: size, numValues: size, nullCount: size, pages: fc.integer({ min: 1, max: 9 }), codec: fc.constantFrom("none", "snappy", "gzip", "zstd" as const), range: fc.option(bounds), nans: size }).map(
    ({ range, nans, ...c }) => ({
      ...c,
      path,
      type,
      encodings: leaf === 0 ? ["PLAIN"] : ["PLAIN", "RLE"],
      min: range === null ? null : Math.min(...range),
      max: range === null ? null : Math.max(...range),
      nanCount: type === "float64" ? nans : null,
    }),
  );
};
const groupArb = fc.record({ columns: fc.tuple(chunkArb(0), chunkArb(1), chunkArb(2)), offset: size, rows: fc.integer({ min: 0, max: 1e6 }) });

describe("the footer's column chunks", () => {
  it("are ThriftWriter's bytes for any sizes, offsets, statistics and codecs", () => {
    fc.assert(
      fc.property(fc.array(groupArb, { minLength: 1, maxLength: 4 }), (groups) => {
        // The same codec for a leaf in every group, as a run writes them.
        const same = groups.map((g) => ({ ...g, columns: g.columns.map((c, i) => ({ ...c, codec: groups[0]!.columns[i]!.codec })) }));
        const footer = parquetFooter(plan, same.map((g) => ({ offset: g.offset, encoded: { rows: g.rows, columns: g.columns, uncompressedSize: g.columns.reduce((n, c) => n + c.uncompressedSize, 0), compressedSize: g.columns.reduce((n, c) => n + c.compressedSize, 0) } })), { createdBy: "t" });
        const expected = referenceGroups(same);
        // FileMetaData: version, schema, num_rows, then the row groups' list header and elements.
        const text = Buffer.from(footer);
        expect(text.indexOf(Buffer.from(expected))).toBeGreaterThan(0);
      }),
      { numRuns: 300 },
    );
  });
});
