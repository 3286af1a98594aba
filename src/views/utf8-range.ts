import { Buffer } from "node:buffer";

/**
 * A text as the parallel engine's walk read it: UTF-8 bytes `[start, end)` of `bytes` (a JSON value's text, or
 * a string's content with its escapes decoded), in place of the JS value. Only `rl-steps` is handed these (for
 * its observation and window texts), which it writes as they are when its checks clear them, saving a decode
 * and an encode per text (docs/decisions.md). Valid only while the record is viewed: the bytes are the walk's
 * buffer, which the next line reuses; never kept.
 */
export class Utf8Range {
  constructor(
    readonly bytes: Uint8Array,
    readonly start: number,
    readonly end: number,
  ) {}

  /** The text as a JS string. */
  text(): string {
    return Buffer.from(this.bytes.buffer, this.bytes.byteOffset, this.bytes.byteLength).toString("utf8", this.start, this.end);
  }
}
