import { isUtf8 } from "node:buffer";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { firstInvalidUtf8 } from "../../src/sources/first-invalid-utf8.js";

describe("firstInvalidUtf8 says where a line stops being UTF-8", () => {
  it("agrees with Node's isUtf8 on random bytes, and the prefix before the offset is UTF-8", () => {
    // Mostly text, with stray high bytes: both sides of the line between valid and not are reached.
    const bytes = fc.array(fc.oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0x80, max: 0xff }), fc.constantFrom(0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x98, 0x80, 0xed, 0xa0)), { maxLength: 24 });
    fc.assert(
      fc.property(bytes, (list) => {
        const buf = Uint8Array.from(list);
        const at = firstInvalidUtf8(buf);
        expect(at === -1).toBe(isUtf8(buf));
        if (at !== -1) expect(isUtf8(buf.subarray(0, at))).toBe(true);
      }),
      { numRuns: 20_000 },
    );
  });

  it("counts from start within a larger buffer", () => {
    const buf = Buffer.from([0x80, 0x41, 0x42, 0xc0, 0xaf, 0x43]);
    expect(firstInvalidUtf8(buf, 1, 6)).toBe(2);
    expect(firstInvalidUtf8(buf, 1, 3)).toBe(-1);
  });
});
