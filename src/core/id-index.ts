import { KeyIndex } from "./key-index.js";

/** Bytes the encoding buffer holds before its first growth (UTF-16 needs two a character). */
const SCRATCH_BYTES = 1024;
/**
 * The last byte of an id's key: how the bytes before it encode the id. Part of the key, because the two
 * encodings share byte strings (ASCII "\u0000\u0001" and UTF-16 "\u0100" are both 00 01).
 */
const LATIN1 = 0;
const UTF16 = 1;

/** An `IdIndex` as it crosses to a worker: each id's key back to back, and where each ends. */
export interface IdIndexData {
  readonly bytes: Uint8Array;
  readonly ends: Uint32Array;
}

/**
 * Opaque identifiers (run ids) numbered 0, 1, 2, ... in the order first added, kept off the JS heap in a
 * {@link KeyIndex}. A pull keeps its per-run state in typed arrays indexed by these numbers instead of Maps
 * keyed by strings, so what it holds per run is a few bytes outside the heap, not strings, Map entries and
 * objects the heap lets grow 4x before collecting (docs/decisions.md, "Nightly pull memory: per-run state off
 * the heap"). Ids are compared as they are, never parsed: an all-ASCII id is keyed by its bytes, any other by its
 * UTF-16 code units (lossless for every JS string, lone surrogates included), each followed by its encoding.
 */
export class IdIndex {
  readonly #keys = new KeyIndex();
  /** The id being looked up, encoded; `#view` is the same bytes as a plain Uint8Array. */
  #scratch: Buffer = Buffer.allocUnsafe(SCRATCH_BYTES);
  // KeyIndex reads keys through a plain Uint8Array, as the parallel engine's dedup passes them: one class
  // for its byte loads (docs/decisions.md "hot code shape", one shape).
  #view = viewOf(this.#scratch);

  static of(data: IdIndexData): IdIndex {
    const index = new IdIndex();
    for (let n = 0, start = 0; n < data.ends.length; start = data.ends[n] as number, n++) index.#keys.add(data.bytes, start, data.ends[n] as number);
    return index;
  }

  get size(): number {
    return this.#keys.size;
  }

  /** The ids' keys, for {@link IdIndex.of}. */
  toData(): IdIndexData {
    const ends = new Uint32Array(this.size);
    for (let n = 0, end = 0; n < this.size; n++) ends[n] = end += this.#keys.key(n).length;
    const bytes = new Uint8Array(ends[this.size - 1] ?? 0);
    for (let n = 0; n < this.size; n++) bytes.set(this.#keys.key(n), (ends[n] as number) - this.#keys.key(n).length);
    return { bytes, ends };
  }

  /** The number of `id`: its existing one, or the next. */
  add(id: string): number {
    const length = this.#encode(id);
    return this.#keys.add(this.#view, 0, length);
  }

  /** The number of `id`, or -1 when it was never added. */
  indexOf(id: string): number {
    const length = this.#encode(id);
    return this.#keys.get(this.#view, 0, length);
  }

  /** Id number `index` as a string (a new one each call). */
  id(index: number): string {
    const key = this.#keys.key(index);
    const end = key.length - 1;
    return Buffer.from(key.buffer, key.byteOffset, end).toString(key[end] === UTF16 ? "utf16le" : "latin1");
  }

  /** Puts `id`'s key in the scratch buffer, a new one when it is too small (so read `#view` after); gives its length. */
  #encode(id: string): number {
    const ascii = Buffer.byteLength(id, "utf8") === id.length;
    const need = (ascii ? id.length : id.length * 2) + 1;
    if (need > this.#scratch.length) {
      this.#scratch = Buffer.allocUnsafe(need * 2);
      this.#view = viewOf(this.#scratch);
    }
    const length = this.#scratch.write(id, 0, ascii ? "latin1" : "utf16le");
    this.#scratch[length] = ascii ? LATIN1 : UTF16;
    return length + 1;
  }
}

function viewOf(buffer: Buffer): Uint8Array {
  return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.length);
}
