/** What the scanner is reading: a fixed-size field, or the bytes of a block or skippable frame it steps over. */
type Field = "magic" | "descriptor" | "header" | "blockHeader" | "blockBody" | "checksum" | "skipSize" | "skipBody" | "unknown";

const ZSTD_MAGIC = 0xfd2fb528;
const SKIPPABLE_MAGIC = 0x184d2a50;
const DICT_ID_BYTES = [0, 1, 2, 4] as const;
const CONTENT_SIZE_BYTES = [0, 2, 4, 8] as const;

/**
 * Where the zstd frames of a stream end, read from the frame and block headers alone (RFC 8878, 3.1), without
 * decompressing. Node 22 and 24's zstd decoder stops at the end of the first frame and drops the rest, so
 * concatenated frames (`cat a.zst b.zst`, pzstd) are decoded one frame per decoder. Bytes that are not a frame
 * stop the scan: the decoder they reach reports them.
 */
export class ZstdFrameEnds {
  #field: Field = "magic";
  /** Bytes of the fixed-size field being read. */
  #bytes: number[] = [];
  /** The field's size, or the bytes left of a body. */
  #want = 4;
  #checksum = false;
  #lastBlock = false;

  /**
   * Why the bytes seen so far are not whole frames (they stop inside one, or hold bytes that are not a frame),
   * or undefined when they are: Node 22.15's decoder ends a truncated frame without an error.
   */
  get incomplete(): string | undefined {
    if (this.#field === "unknown") return "bytes that are not a zstd frame";
    if (this.#field !== "magic" || this.#bytes.length > 0) return "unexpected end of input inside a zstd frame";
    return undefined;
  }

  /** Offsets in `chunk` just past each frame that ends in it, in order. */
  ends(chunk: Uint8Array): number[] {
    const ends: number[] = [];
    let i = 0;
    while (i < chunk.length && this.#field !== "unknown") {
      if (this.#field === "blockBody" || this.#field === "skipBody") {
        const take = Math.min(this.#want, chunk.length - i);
        i += take;
        this.#want -= take;
        if (this.#want > 0) break;
        if (this.#field === "skipBody") this.#frameEnd(ends, i);
        else this.#blockEnd(ends, i);
        continue;
      }
      this.#bytes.push(chunk[i++] ?? 0);
      if (this.#bytes.length < this.#want) continue;
      const field = this.#bytes;
      this.#bytes = [];
      this.#read(field, ends, i);
    }
    return ends;
  }

  #read(field: number[], ends: number[], at: number): void {
    switch (this.#field) {
      case "magic": {
        const magic = littleEndian(field);
        if (magic === ZSTD_MAGIC) this.#next("descriptor", 1);
        else if ((magic & 0xfffffff0) >>> 0 === SKIPPABLE_MAGIC) this.#next("skipSize", 4);
        else this.#field = "unknown";
        return;
      }
      case "descriptor": {
        const d = field[0] ?? 0;
        const singleSegment = (d >> 5) & 1;
        this.#checksum = ((d >> 2) & 1) === 1;
        const contentSize = d >> 6 === 0 ? singleSegment : (CONTENT_SIZE_BYTES[d >> 6] ?? 0);
        const rest = (singleSegment === 1 ? 0 : 1) + (DICT_ID_BYTES[d & 3] ?? 0) + contentSize;
        if (rest === 0) this.#next("blockHeader", 3);
        else this.#next("header", rest);
        return;
      }
      case "header":
        this.#next("blockHeader", 3);
        return;
      case "blockHeader": {
        const header = littleEndian(field);
        this.#lastBlock = (header & 1) === 1;
        const type = (header >> 1) & 3;
        // An RLE block holds one byte, repeated; type 3 is reserved (a corrupt frame: left to the decoder).
        const body = type === 1 ? 1 : header >>> 3;
        if (type === 3) this.#field = "unknown";
        else if (body === 0) this.#blockEnd(ends, at);
        else this.#next("blockBody", body);
        return;
      }
      case "checksum":
        this.#frameEnd(ends, at);
        return;
      case "skipSize": {
        const size = littleEndian(field);
        if (size === 0) this.#frameEnd(ends, at);
        else this.#next("skipBody", size);
        return;
      }
      default:
        return;
    }
  }

  #blockEnd(ends: number[], at: number): void {
    if (!this.#lastBlock) this.#next("blockHeader", 3);
    else if (this.#checksum) this.#next("checksum", 4);
    else this.#frameEnd(ends, at);
  }

  #frameEnd(ends: number[], at: number): void {
    ends.push(at);
    this.#next("magic", 4);
  }

  #next(field: Field, want: number): void {
    this.#field = field;
    this.#want = want;
  }
}

function littleEndian(bytes: readonly number[]): number {
  let value = 0;
  for (let i = bytes.length - 1; i >= 0; i--) value = value * 256 + (bytes[i] ?? 0);
  return value;
}
