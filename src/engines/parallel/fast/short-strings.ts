import type { Buffer } from "node:buffer";

/** Longest string worth interning: identifiers, roles, trait names, hashes. */
const MAX_LENGTH = 32;
const SLOTS = 1024;

/**
 * Decodes short UTF-8 strings through a small direct-mapped cache keyed by their bytes. The skeleton needs
 * JS strings for a dozen short values per record, and most of them repeat from record to record (roles,
 * trait names, model names); a hit costs a byte comparison instead of a native decode and an allocation.
 */
export class ShortStrings {
  private readonly bytes = new Uint8Array(SLOTS * MAX_LENGTH);
  private readonly lengths = new Int32Array(SLOTS).fill(-1);
  private readonly strings: string[] = new Array<string>(SLOTS).fill("");

  /** The text of `src[start, end)` (valid UTF-8 without escapes). */
  get(src: Buffer, start: number, end: number): string {
    const length = end - start;
    if (length > MAX_LENGTH) return (src as unknown as Utf8Slicer).utf8Slice(start, end);
    let h = length;
    for (let p = start; p < end; p++) h = Math.imul(h ^ (src[p] as number), 0x01000193);
    const slot = (h >>> 0) % SLOTS;
    const at = slot * MAX_LENGTH;
    const bytes = this.bytes;
    if (this.lengths[slot] === length) {
      let same = true;
      for (let k = 0; k < length && same; k++) same = bytes[at + k] === src[start + k];
      if (same) return this.strings[slot] as string;
    }
    const text = (src as unknown as Utf8Slicer).utf8Slice(start, end);
    for (let k = 0; k < length; k++) bytes[at + k] = src[start + k] as number;
    this.lengths[slot] = length;
    this.strings[slot] = text;
    return text;
  }
}

/** Node's Buffer has this since forever; it is what `toString("utf8", start, end)` ends up calling. */
interface Utf8Slicer {
  utf8Slice(start: number, end: number): string;
}
