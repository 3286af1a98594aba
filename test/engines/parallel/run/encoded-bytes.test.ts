import { describe, expect, it } from "vitest";
import { EncodedBytes } from "../../../../src/engines/parallel/run/encoded-bytes.js";

const bytes = (...values: number[]) => Uint8Array.from(values);

describe("EncodedBytes: a unit's row groups back to back, in the shared slot while they fit", () => {
  it("writes into the slot and has nothing to copy while the groups fit", () => {
    const slot = new Uint8Array(new SharedArrayBuffer(8));
    const encoded = new EncodedBytes(slot);
    encoded.add(bytes(1, 2, 3));
    encoded.add(bytes(4, 5, 6, 7, 8));
    expect(encoded.copied()).toBeNull();
    expect([...slot]).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it("once a group overflows the slot, copies everything, the slot's part included, in order", () => {
    const slot = new Uint8Array(new SharedArrayBuffer(4));
    const encoded = new EncodedBytes(slot);
    encoded.add(bytes(1, 2, 3));
    encoded.add(bytes(4, 5));
    encoded.add(bytes(6));
    const copy = encoded.copied();
    expect(copy === null ? null : [...copy]).toEqual([1, 2, 3, 4, 5, 6]);
    expect(copy?.buffer).toBeInstanceOf(ArrayBuffer);
  });

  it("without a slot, copies (an empty unit too)", () => {
    const encoded = new EncodedBytes(null);
    expect([...(encoded.copied() ?? [9])]).toEqual([]);
    const source = bytes(7, 8);
    encoded.add(source);
    const copy = encoded.copied();
    source[0] = 0;
    expect(copy === null ? null : [...copy]).toEqual([7, 8]);
  });
});
