import { ByteWriter } from "./byte-writer.js";

/** Element and field types of the Thrift compact protocol. */
export const CompactType = {
  TRUE: 1,
  FALSE: 2,
  BYTE: 3,
  I16: 4,
  I32: 5,
  I64: 6,
  DOUBLE: 7,
  BINARY: 8,
  LIST: 9,
  STRUCT: 12,
} as const;

const encoder = new TextEncoder();

/**
 * Writes Thrift structs in the compact protocol, field by field, the way Parquet's page headers and footer
 * are serialized. Fields of a struct must come in increasing id order; `end()` closes the innermost struct.
 * The writer starts inside a top-level struct, which `end()` also closes.
 */
export class ThriftWriter {
  readonly out: ByteWriter;
  /** Last field id written in each open struct, innermost last. */
  readonly #last: number[] = [0];

  constructor(out: ByteWriter = new ByteWriter(256)) {
    this.out = out;
  }

  i32(id: number, value: number): this {
    this.#field(id, CompactType.I32);
    this.#zigzag32(value);
    return this;
  }

  i16(id: number, value: number): this {
    this.#field(id, CompactType.I16);
    this.#zigzag32(value);
    return this;
  }

  /** An i64 given as a safe integer. */
  i64(id: number, value: number): this {
    this.#field(id, CompactType.I64);
    this.#zigzag64(value);
    return this;
  }

  /** An i8. */
  byte(id: number, value: number): this {
    this.#field(id, CompactType.BYTE);
    this.out.u8(value & 0xff);
    return this;
  }

  bool(id: number, value: boolean): this {
    this.#field(id, value ? CompactType.TRUE : CompactType.FALSE);
    return this;
  }

  binary(id: number, value: Uint8Array): this {
    this.#field(id, CompactType.BINARY);
    this.out.varint(value.length);
    this.out.append(value);
    return this;
  }

  string(id: number, value: string): this {
    return this.binary(id, encoder.encode(value));
  }

  /** Opens a struct-valued field; write its fields, then `end()`. */
  struct(id: number): this {
    this.#field(id, CompactType.STRUCT);
    this.#last.push(0);
    return this;
  }

  /** A field holding an empty struct, such as the members of Parquet's LogicalType union. */
  emptyStruct(id: number): this {
    return this.struct(id).end();
  }

  /** Closes the innermost struct. */
  end(): this {
    this.out.u8(0);
    this.#last.pop();
    return this;
  }

  /** Opens a list field of `size` elements of `type`; follow with that many `item*` calls. */
  list(id: number, type: number, size: number): this {
    this.#field(id, CompactType.LIST);
    if (size < 15) this.out.u8((size << 4) | type);
    else {
      this.out.u8(0xf0 | type);
      this.out.varint(size);
    }
    return this;
  }

  itemI32(value: number): this {
    this.#zigzag32(value);
    return this;
  }

  itemString(value: string): this {
    const bytes = encoder.encode(value);
    this.out.varint(bytes.length);
    this.out.append(bytes);
    return this;
  }

  /** Opens a struct element of a list; write its fields, then `end()`. */
  itemStruct(): this {
    this.#last.push(0);
    return this;
  }

  #field(id: number, type: number): void {
    const depth = this.#last.length - 1;
    const delta = id - (this.#last[depth] as number);
    if (delta > 0 && delta <= 15) this.out.u8((delta << 4) | type);
    else {
      this.out.u8(type);
      this.#zigzag32(id);
    }
    this.#last[depth] = id;
  }

  #zigzag32(value: number): void {
    this.out.varint(((value << 1) ^ (value >> 31)) >>> 0);
  }

  #zigzag64(value: number): void {
    if (value >= 0) {
      // 2 * value is exact up to 2^54, where bit operators would stop at 32 bits.
      this.out.varint(value * 2);
      return;
    }
    // -2v - 1 is not exact in a double beyond 2^52: write the zigzag varint from a BigInt (footer only).
    let n = (BigInt(-value) << 1n) - 1n;
    while (n >= 0x80n) {
      this.out.u8(Number(n & 0x7fn) | 0x80);
      n >>= 7n;
    }
    this.out.u8(Number(n));
  }
}
