import { Buffer } from "node:buffer";

/**
 * A text as the parallel engine's walk read it: UTF-8 bytes `[start, end)` of `bytes` (a JSON value's text, or
 * a string's content with its escapes decoded), in place of the JS value. Only `rl-steps` is handed these (for
 * its observation and window texts), which it writes as they are when its checks clear them, saving a decode
 * and an encode per text (docs/decisions.md). Valid only while the record is viewed: the bytes are the walk's
 * buffer, which the next line reuses; never kept.
 */
export class Utf8Range {
  /**
   * `checked`: what the walk's own byte check found, when it made one (the parallel engine's wasm walk, for
   * `rl-steps`): for a text, whether it is clear of everything the sanitizer or an injection pattern could start
   * at (what `ViewEnv.clearBytes` answers); for a JSON value, whether it is already `JSON.stringify`'s text (what
   * `ViewEnv.jsonForm` answers); null when it made none. Only the engine's `clearBytes` and `jsonForm` read it.
   */
  constructor(
    readonly bytes: Uint8Array,
    readonly start: number,
    readonly end: number,
    readonly checked: boolean | null = null,
  ) {}

  /** The text as a JS string. */
  text(): string {
    return Buffer.from(this.bytes.buffer, this.bytes.byteOffset, this.bytes.byteLength).toString("utf8", this.start, this.end);
  }
}
