/**
 * The row count a Parquet file's footer declares (`FileMetaData.num_rows`), read from the footer's Thrift
 * compact encoding. `verify` needs this one field: a skipper over the compact protocol is ~60 lines,
 * where a reader library would be a new runtime dependency. Throws an `Error` saying what is malformed.
 */
export function parquetRowCount(footer: Uint8Array): number {
  const reader = new CompactReader(footer);
  let last = 0;
  for (;;) {
    const header = reader.byte();
    if (header === 0) throw new Error("the footer has no num_rows field");
    const type = header & 0x0f;
    const delta = header >> 4;
    const id = delta === 0 ? reader.zigzag() : last + delta;
    last = id;
    if (id === 3) {
      if (type !== I64) throw new Error(`the footer's num_rows has Thrift type ${type}, expected i64`);
      const rows = reader.zigzag();
      if (rows < 0) throw new Error(`the footer declares ${rows} rows`);
      return rows;
    }
    reader.skip(type);
  }
}

/** Where the footer starts and how long it is, from a file's last 8 bytes (length, then "PAR1"). */
export function parquetFooterLength(tail: Uint8Array): number {
  if (tail.length < 8 || !isMagic(tail, tail.length - 4)) throw new Error("it does not end with the Parquet magic PAR1");
  const at = tail.length - 8;
  return (tail[at]! | (tail[at + 1]! << 8) | (tail[at + 2]! << 16) | (tail[at + 3]! << 24)) >>> 0;
}

/** Whether bytes `at..at+4` are "PAR1". */
export function isMagic(bytes: Uint8Array, at: number): boolean {
  return bytes[at] === 0x50 && bytes[at + 1] === 0x41 && bytes[at + 2] === 0x52 && bytes[at + 3] === 0x31;
}

const BOOL_TRUE = 1;
const BOOL_FALSE = 2;
const I8 = 3;
const I16 = 4;
const I32 = 5;
const I64 = 6;
const DOUBLE = 7;
const BINARY = 8;
const LIST = 9;
const SET = 10;
const MAP = 11;
const STRUCT = 12;

class CompactReader {
  #at = 0;
  constructor(private readonly bytes: Uint8Array) {}

  byte(): number {
    const value = this.bytes[this.#at++];
    if (value === undefined) throw new Error("the footer is truncated");
    return value;
  }

  varint(): number {
    let value = 0;
    for (let scale = 1; ; scale *= 128) {
      const b = this.byte();
      value += (b & 0x7f) * scale;
      if ((b & 0x80) === 0) return value;
      if (scale > 2 ** 56) throw new Error("the footer holds an overlong varint");
    }
  }

  zigzag(): number {
    const n = this.varint();
    return n % 2 === 0 ? n / 2 : -(n + 1) / 2;
  }

  /** Skips one value of Thrift compact `type`; bools in a field header carry their value there. */
  skip(type: number, inContainer = false): void {
    switch (type) {
      case BOOL_TRUE:
      case BOOL_FALSE:
        if (inContainer) this.byte();
        return;
      case I8:
        this.byte();
        return;
      case I16:
      case I32:
      case I64:
        this.varint();
        return;
      case DOUBLE:
        this.advance(8);
        return;
      case BINARY:
        this.advance(this.varint());
        return;
      case LIST:
      case SET: {
        const header = this.byte();
        const size = header >> 4 === 15 ? this.varint() : header >> 4;
        for (let i = 0; i < size; i++) this.skip(header & 0x0f, true);
        return;
      }
      case MAP: {
        const size = this.varint();
        if (size === 0) return;
        const kinds = this.byte();
        for (let i = 0; i < size; i++) {
          this.skip(kinds >> 4, true);
          this.skip(kinds & 0x0f, true);
        }
        return;
      }
      case STRUCT:
        for (let header = this.byte(); header !== 0; header = this.byte()) {
          if (header >> 4 === 0) this.zigzag();
          this.skip(header & 0x0f);
        }
        return;
      default:
        throw new Error(`the footer holds an unknown Thrift type ${type}`);
    }
  }

  advance(n: number): void {
    this.#at += n;
    if (this.#at > this.bytes.length) throw new Error("the footer is truncated");
  }
}
