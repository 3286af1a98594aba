import fc from "fast-check";
import { deserializeTCompactProtocol } from "hyparquet/src/thrift.js";
import { describe, expect, it } from "vitest";
import { ByteWriter } from "../../src/parquet/byte-writer.js";
import { CompactType, ThriftWriter } from "../../src/parquet/thrift-writer.js";

const bytesOf = (t: ThriftWriter): number[] => [...t.out.bytes.subarray(0, t.out.length)];
const read = (t: ThriftWriter) => {
  const bytes = t.out.bytes.slice(0, t.out.length);
  return deserializeTCompactProtocol({ view: new DataView(bytes.buffer), offset: 0 });
};

describe("the Thrift compact protocol", () => {
  it("writes field headers as (delta << 4) | type, zigzag varints and a STOP", () => {
    const t = new ThriftWriter().i32(1, 1).i32(2, -1).i32(3, 300).end();
    expect(bytesOf(t)).toEqual([0x15, 0x02, 0x15, 0x01, 0x15, 0xd8, 0x04, 0x00]);
  });

  it("writes a field id more than 15 past the last as the type, then the id as a zigzag i16", () => {
    expect(bytesOf(new ThriftWriter().bool(1, true).bool(20, false).end())).toEqual([0x11, 0x02, 0x28, 0x00]);
  });

  it("writes strings as a varint length and UTF-8, and i64s past 2^32 exactly", () => {
    expect(bytesOf(new ThriftWriter().string(4, "é").end())).toEqual([0x48, 0x02, 0xc3, 0xa9, 0x00]);
    expect(read(new ThriftWriter().i64(1, 2 ** 53 - 1).i64(2, -(2 ** 53 - 1)).i64(3, 2 ** 32).end())).toEqual({
      field_1: BigInt(2 ** 53 - 1),
      field_2: -BigInt(2 ** 53 - 1),
      field_3: 2n ** 32n,
    });
  });

  it("writes short list headers as (size << 4) | type and long ones as 0xF_ then a varint size", () => {
    const short = new ThriftWriter().list(3, CompactType.I32, 2).itemI32(0).itemI32(3).end();
    expect(bytesOf(short)).toEqual([0x39, 0x25, 0x00, 0x06, 0x00]);
    const long = new ThriftWriter().list(1, CompactType.I32, 20);
    for (let i = 0; i < 20; i++) long.itemI32(i);
    long.end();
    expect(bytesOf(long).slice(0, 3)).toEqual([0x19, 0xf5, 20]);
    expect(read(long)).toEqual({ field_1: Array.from({ length: 20 }, (_, i) => i) });
  });

  it("nests structs and lists of structs, each with its own field ids", () => {
    const t = new ThriftWriter()
      .i32(1, 7)
      .struct(5)
      .i32(1, 9)
      .emptyStruct(3)
      .end()
      .list(6, CompactType.STRUCT, 2)
      .itemStruct()
      .string(4, "a")
      .end()
      .itemStruct()
      .byte(1, 64)
      .bool(2, true)
      .end()
      .i16(7, 3)
      .end();
    expect(read(t)).toEqual({
      field_1: 7,
      field_5: { field_1: 9, field_3: {} },
      field_6: [{ field_4: Uint8Array.from([97]) }, { field_1: 64, field_2: true }],
      field_7: 3,
    });
  });

  it("round-trips any i32 and safe-integer i64 through hyparquet's reader", () => {
    fc.assert(
      fc.property(fc.integer(), fc.maxSafeInteger(), (a, b) => {
        expect(read(new ThriftWriter(new ByteWriter(1)).i32(1, a).i64(2, b).end())).toEqual({ field_1: a, field_2: BigInt(b) });
      }),
    );
  });
});
