import fc from "fast-check";
import { readRleBitPackedHybrid } from "hyparquet/src/encoding.js";
import { describe, expect, it } from "vitest";
import { ByteWriter } from "../../src/parquet/byte-writer.js";
import { bitWidth, packBooleans, writeRleHybrid } from "../../src/parquet/rle-hybrid.js";

const encode = (values: readonly number[], width: number): number[] => {
  const out = new ByteWriter(16);
  writeRleHybrid(out, Uint8Array.from(values), 0, values.length, width);
  return [...out.bytes.subarray(0, out.length)];
};

/** Decodes with hyparquet's reader, an independent implementation. */
const decode = (bytes: Uint8Array, width: number, count: number): number[] => {
  const output = new Array<number>(count).fill(-1);
  readRleBitPackedHybrid({ view: new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), offset: 0 }, width, output, bytes.length);
  return output;
};

describe("the RLE/bit-packing hybrid writes the spec's bytes", () => {
  it("bit-packs 0..7 at width 3 LSB first, as Encodings.md shows (10001000 11000110 11111010)", () => {
    expect(encode([0, 1, 2, 3, 4, 5, 6, 7], 3)).toEqual([0b11, 0b10001000, 0b11000110, 0b11111010]);
  });

  it("writes a run of 8 or more equal values as one RLE run: varint(count << 1), then the value in one byte", () => {
    expect(encode(Array(10).fill(1), 1)).toEqual([20, 1]);
    expect(encode(Array(300).fill(5), 3)).toEqual([0xd8, 0x04, 5]);
  });

  it("pads the last bit-packed group with zeros", () => {
    expect(encode([1, 1, 0], 1)).toEqual([0b11, 0b011]);
  });

  it("bit-packs short runs and switches to RLE for a long one", () => {
    expect(encode([1, 0, ...Array(20).fill(2)], 2)).toEqual([0b11, 0b10100001, 0b10101010, 28, 2]);
  });

  it("keeps a bit-packed run at most 63 groups so its header is one byte", () => {
    const values = Array.from({ length: 64 * 8 }, (_, i) => i % 2);
    const bytes = encode(values, 1);
    expect(bytes[0]).toBe((63 << 1) | 1);
    expect(bytes[64]).toBe(0b11);
    expect(bytes).toHaveLength(66);
  });

  it("round-trips any levels through hyparquet's decoder", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 8 }).chain((width) =>
          fc.tuple(
            fc.constant(width),
            fc.array(fc.oneof(fc.integer({ min: 0, max: (1 << width) - 1 }), fc.constant(0)), { maxLength: 300 }).chain((xs) =>
              fc.array(fc.tuple(fc.integer({ min: 0, max: xs.length }), fc.integer({ min: 1, max: 40 })), { maxLength: 3 }).map((runs) => {
                const out = [...xs];
                for (const [at, n] of runs) out.splice(at, 0, ...Array<number>(n).fill(xs[0] ?? 0));
                return out;
              }),
            ),
          ),
        ),
        ([width, values]) => {
          expect(decode(Uint8Array.from(encode(values, width)), width, values.length)).toEqual(values);
        },
      ),
    );
  });

  it("encodes a slice of the array without touching its neighbours", () => {
    const out = new ByteWriter(16);
    writeRleHybrid(out, Uint8Array.from([3, 3, 1, 2, 3, 3]), 2, 4, 2);
    expect(decode(out.bytes.slice(0, out.length), 2, 2)).toEqual([1, 2]);
  });
});

describe("bit widths", () => {
  it("are the bits of the max level", () => {
    expect([0, 1, 2, 3, 4, 7, 8, 255].map(bitWidth)).toEqual([0, 1, 2, 2, 3, 3, 4, 8]);
  });
});

describe("PLAIN booleans", () => {
  it("pack one bit per value, LSB first, the last byte zero-padded", () => {
    const out = new ByteWriter(4);
    packBooleans(out, Uint8Array.from([1, 0, 1, 1, 0, 0, 0, 0, 1, 1]), 0, 10);
    expect([...out.bytes.subarray(0, out.length)]).toEqual([0b00001101, 0b11]);
  });

  it("pack nothing for no values", () => {
    const out = new ByteWriter(4);
    packBooleans(out, new Uint8Array(3), 1, 1);
    expect(out.length).toBe(0);
  });
});
