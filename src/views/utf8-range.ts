import { Buffer } from "node:buffer";

/**
 * A text as the parallel engine's walk read it: UTF-8 bytes `[start, end)` of `bytes` (a JSON value's text, or
 * a string's content with its escapes decoded), in place of the JS value. Only `rl-steps` is handed these (for
 * its observation and window texts), which it writes as they are when its checks clear them, saving a decode
 * and an encode per text (docs/decisions.md). Valid only while the record is viewed: the bytes are the walk's
 * buffer, which the next line reuses, and so is the range itself ({@link Utf8Ranges}); never kept.
 */
export class Utf8Range {
  /**
   * `checked`: what the walk's own byte check found, when it made one (the parallel engine's wasm walk, for
   * `rl-steps`): for a text, whether it is clear of everything the sanitizer or an injection pattern could start
   * at (what `ViewEnv.clearBytes` answers); for a JSON value, whether it is already `JSON.stringify`'s text (what
   * `ViewEnv.jsonForm` answers); null when it made none. Only the engine's `clearBytes` and `jsonForm` read it.
   * Read-only to everyone but {@link Utf8Ranges}, which sets them when it hands the range out again.
   */
  constructor(
    public bytes: Uint8Array,
    public start: number,
    public end: number,
    public checked: boolean | null = null,
  ) {}

  /** The text as a JS string. */
  text(): string {
    return Buffer.from(this.bytes.buffer, this.bytes.byteOffset, this.bytes.byteLength).toString("utf8", this.start, this.end);
  }
}

/**
 * The ranges one walk hands out, reused line after line: a line's ranges live only while its record is viewed
 * (see {@link Utf8Range}), so the next line's walk takes them again after {@link reset} instead of allocating
 * ~5 objects per RL step (fewer young-generation collections in a view worker; docs/decisions.md).
 */
export class Utf8Ranges {
  readonly #all: Utf8Range[] = [];
  #used = 0;

  /** A new line: every range handed out before may be handed out again. */
  reset(): void {
    this.#used = 0;
  }

  /** A range of these bytes, one not handed out since the last {@link reset}. */
  next(bytes: Uint8Array, start: number, end: number, checked: boolean | null): Utf8Range {
    const all = this.#all;
    const range = all[this.#used++];
    if (range === undefined) {
      const made = new Utf8Range(bytes, start, end, checked);
      all.push(made);
      return made;
    }
    range.bytes = bytes;
    range.start = start;
    range.end = end;
    range.checked = checked;
    return range;
  }
}
