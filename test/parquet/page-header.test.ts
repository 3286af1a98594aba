import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ByteWriter } from "../../src/parquet/byte-writer.js";
import { writePageHeader } from "../../src/parquet/page-header.js";
import { ThriftWriter } from "../../src/parquet/thrift-writer.js";

/** The PageHeader of a V1 data page (parquet.thrift) as ThriftWriter writes it: DATA_PAGE, PLAIN values, RLE levels. */
function thriftHeader(uncompressed: number, compressed: number, values: number): Uint8Array {
  const t = new ThriftWriter(new ByteWriter(8));
  t.i32(1, 0).i32(2, uncompressed).i32(3, compressed).struct(5).i32(1, values).i32(2, 0).i32(3, 3).i32(4, 3).end().end();
  return t.out.bytes.slice(0, t.out.length);
}

describe("writePageHeader", () => {
  it("writes ThriftWriter's bytes for any i32 sizes and counts, after what the writer held", () => {
    const i32 = fc.oneof(fc.integer({ min: 0, max: 200 }), fc.integer({ min: 0, max: 2 ** 31 - 1 }), fc.constantFrom(63, 64, 127, 128, 8191, 8192, 2 ** 21 - 1, 2 ** 21, 2 ** 28, 2 ** 31 - 1));
    fc.assert(
      fc.property(i32, i32, i32, fc.integer({ min: 0, max: 40 }), (uncompressed, compressed, values, before) => {
        // A writer close to full: the header must make its own room.
        const out = new ByteWriter(Math.max(1, before));
        for (let i = 0; i < before; i++) out.u8(i);
        writePageHeader(out, uncompressed, compressed, values);
        const prefix = Uint8Array.from({ length: before }, (_, i) => i);
        expect(out.bytes.slice(0, out.length)).toEqual(Uint8Array.from([...prefix, ...thriftHeader(uncompressed, compressed, values)]));
      }),
      { numRuns: 2000 },
    );
  });
});
