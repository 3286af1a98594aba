import type { Provenance } from "../core/provenance.js";

/** One non-blank line of an input, decoded as UTF-8 without its line end (and without a leading BOM). */
export interface TextLine {
  readonly kind: "line";
  readonly provenance: Provenance;
  readonly text: string;
  /** Length of the line in bytes, without its line end. */
  readonly bytes: number;
  /** Where the line stops being UTF-8 (byte offset in the line), when it does: `text` then holds U+FFFD there. */
  readonly invalidUtf8At?: number;
}

/** A line longer than `maxLineBytes`: never held whole; only its first bytes are kept for the quarantine. */
export interface OversizedLine {
  readonly kind: "too_long";
  readonly provenance: Provenance;
  /** The first bytes of the line (at most `headBytes`), decoded as UTF-8. */
  readonly head: string;
  /** Full length of the line in bytes, without its line end. */
  readonly bytes: number;
}

export type SourceLine = TextLine | OversizedLine;

export interface ReadOptions {
  /** Lines longer than this many bytes become `too_long` items. Default 64 MiB. */
  readonly maxLineBytes?: number;
  /** How many bytes of an oversized line to keep in `head`. Default 4096. */
  readonly headBytes?: number;
}

/** Size and digest of an input's raw bytes as stored (before decompression). */
export interface InputInfo {
  readonly path: string;
  readonly bytes: number;
  readonly sha256: string;
}

/**
 * An input that yields its lines. It can be read more than once (convert reads twice to resolve
 * superseded records whatever their order); each read starts from the first line.
 */
export interface LineSource {
  /** The input as the user named it; used as `provenance.source`. */
  readonly name: string;
  lines(options?: ReadOptions): AsyncIterable<SourceLine>;
  /**
   * The decompressed bytes, not split into lines. Sources that have it feed the engine, which splits
   * lines in its units; a source without it is spooled once into bytes (spooled-lines.ts). A chunk may be
   * valid only until the next one is asked for (its memory is reused): copy what must be kept.
   *
   * `memory`, when given, offers where to read the next chunk (asked before each read; null: nowhere): a
   * source that reads the stored bytes as they are may read into it (at most its length), so the caller
   * gets its chunk in place instead of copying it there. Others ignore it.
   */
  bytes?(memory?: () => Uint8Array | null): AsyncIterable<Buffer>;
  /** Size and sha256 of the raw input; reads the input if no full read has happened yet. */
  info(): Promise<InputInfo>;
}
