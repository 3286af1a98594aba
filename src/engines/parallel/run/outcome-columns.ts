import type { PackedKeys } from "./packed-keys.js";

/**
 * A batch's per-line outcome columns: what main keeps until the batch's unit is decided. They travel in a
 * shared slot when one is given and they fit, so main allocates nothing per batch: as copies they were
 * external memory that main (which rarely collects) let pile up in its malloc heap.
 */
export interface OutcomeColumns {
  /** Each non-blank line's kind (LINE_ROW, ...). */
  readonly kinds: Uint8Array;
  /** Valid lines: dedup keys, scorecard versions and line digests (`lineDigest`). */
  readonly keys: PackedKeys;
  readonly versions: Float64Array;
  readonly digests: Float64Array;
  /** Valid lines: their line in the batch (0: its first) and their first byte's offset in it. */
  readonly lines: Float64Array;
  readonly starts: Float64Array;
  /** Rows: their input lines' lengths. */
  readonly rowBytes: Float64Array;
}

/** Where the columns lie in a slot: their lengths, in this order, each start aligned to 8 bytes. */
export interface SlotLayout {
  readonly lines: number;
  readonly valid: number;
  readonly rows: number;
  readonly keyBytes: number;
}

const align = (n: number): number => (n + 7) & ~7;

function offsets(layout: SlotLayout): { ends: number; versions: number; digests: number; lines: number; starts: number; rowBytes: number; keys: number; kinds: number; total: number } {
  const versions = 0;
  const digests = versions + 8 * layout.valid;
  const lines = digests + 8 * layout.valid;
  const starts = lines + 8 * layout.valid;
  const rowBytes = starts + 8 * layout.valid;
  const ends = rowBytes + 8 * layout.rows;
  const keys = align(ends + 4 * layout.valid);
  const kinds = keys + layout.keyBytes;
  return { ends, versions, digests, lines, starts, rowBytes, keys, kinds, total: kinds + layout.lines };
}

/** Copies the columns into `slot`; returns their layout, or null when they do not fit. */
export function writeOutcomeColumns(columns: OutcomeColumns, slot: Uint8Array): SlotLayout | null {
  const layout: SlotLayout = { lines: columns.kinds.length, valid: columns.versions.length, rows: columns.rowBytes.length, keyBytes: columns.keys.bytes.length };
  const at = offsets(layout);
  if (at.total > slot.length) return null;
  const { buffer, byteOffset } = slot;
  new Float64Array(buffer, byteOffset + at.versions, layout.valid).set(columns.versions);
  new Float64Array(buffer, byteOffset + at.digests, layout.valid).set(columns.digests);
  new Float64Array(buffer, byteOffset + at.lines, layout.valid).set(columns.lines);
  new Float64Array(buffer, byteOffset + at.starts, layout.valid).set(columns.starts);
  new Float64Array(buffer, byteOffset + at.rowBytes, layout.rows).set(columns.rowBytes);
  new Uint32Array(buffer, byteOffset + at.ends, layout.valid).set(columns.keys.ends);
  slot.set(columns.keys.bytes, at.keys);
  slot.set(columns.kinds, at.kinds);
  return layout;
}

/** Views of the columns `writeOutcomeColumns` put in `slot` (valid while the slot is not reused). */
export function readOutcomeColumns(layout: SlotLayout, slot: Uint8Array): OutcomeColumns {
  const at = offsets(layout);
  const { buffer, byteOffset } = slot;
  return {
    versions: new Float64Array(buffer, byteOffset + at.versions, layout.valid),
    digests: new Float64Array(buffer, byteOffset + at.digests, layout.valid),
    lines: new Float64Array(buffer, byteOffset + at.lines, layout.valid),
    starts: new Float64Array(buffer, byteOffset + at.starts, layout.valid),
    rowBytes: new Float64Array(buffer, byteOffset + at.rowBytes, layout.rows),
    keys: { ends: new Uint32Array(buffer, byteOffset + at.ends, layout.valid), bytes: new Uint8Array(buffer, byteOffset + at.keys, layout.keyBytes) },
    kinds: new Uint8Array(buffer, byteOffset + at.kinds, layout.lines),
  };
}
