import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readOutcomeColumns, writeOutcomeColumns } from "../../../../src/engines/parallel/run/outcome-columns.js";
import type { OutcomeColumns } from "../../../../src/engines/parallel/run/outcome-columns.js";
import { PackedKeysWriter } from "../../../../src/engines/parallel/run/packed-keys.js";

const columnsOf = (lines: readonly { kind: number; key: string; version: number; rowBytes: number | null }[]): OutcomeColumns => {
  const keys = new PackedKeysWriter();
  for (const l of lines) keys.add(l.key);
  return {
    kinds: Uint8Array.from(lines.map((l) => l.kind)),
    keys: keys.done(),
    versions: Float64Array.from(lines.map((l) => l.version)),
    digests: Float64Array.from(lines.map((l) => l.version / 2)),
    lines: Float64Array.from(lines.map((_, i) => i)),
    starts: Float64Array.from(lines.map((_, i) => i * 100)),
    rowBytes: Float64Array.from(lines.flatMap((l) => (l.rowBytes === null ? [] : [l.rowBytes]))),
  };
};
const plain = (c: OutcomeColumns) => ({ kinds: [...c.kinds], ends: [...c.keys.ends], keys: [...c.keys.bytes], versions: [...c.versions], digests: [...c.digests], lines: [...c.lines], starts: [...c.starts], rowBytes: [...c.rowBytes] });

describe("outcome columns in a shared slot", () => {
  it("read back as written, whatever their lengths (property)", () => {
    const line = fc.record({ kind: fc.integer({ min: 0, max: 3 }), key: fc.string({ unit: "grapheme", maxLength: 40 }), version: fc.double(), rowBytes: fc.option(fc.nat()) });
    fc.assert(
      fc.property(fc.array(line, { maxLength: 300 }), (lines) => {
        const columns = columnsOf(lines);
        const slot = new Uint8Array(new SharedArrayBuffer(1 << 16));
        const layout = writeOutcomeColumns(columns, slot);
        expect(layout).not.toBeNull();
        expect(plain(readOutcomeColumns(layout as NonNullable<typeof layout>, slot))).toEqual(plain(columns));
      }),
      { numRuns: 100 },
    );
  });

  it("do not go in a slot too small for them (they are sent as they are)", () => {
    const columns = columnsOf(Array.from({ length: 50 }, (_, i) => ({ kind: 0, key: `["run_${i}",0]`, version: 1, rowBytes: 100 })));
    expect(writeOutcomeColumns(columns, new Uint8Array(new SharedArrayBuffer(512)))).toBeNull();
    expect(writeOutcomeColumns(columns, new Uint8Array(new SharedArrayBuffer(4096)))).not.toBeNull();
  });
});
