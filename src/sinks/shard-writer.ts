import type { Field } from "../schema/column-type.js";

/** One shard file being written. Records arrive already validated, filtered and stripped. */
export interface ShardWriter {
  /**
   * Appends one record. `json`, when given, must be `JSON.stringify(record)`: a caller that already
   * serialized the record (to measure it for rotation) passes the text so a writer that needs it does not
   * serialize it again.
   */
  write(record: Readonly<Record<string, unknown>>, json?: string): Promise<void>;
  /** Rows written so far. */
  readonly rows: number;
  /** Finishes the file at the path it was opened with. */
  close(): Promise<void>;
  /** Gives up: removes whatever was written. */
  abort(): Promise<void>;
}

/** A kind of shard file (Parquet, JSONL): the small interface every output format sits behind. */
export interface ShardFormat {
  /** File name suffix including compression, e.g. ".parquet", ".jsonl.zst". */
  readonly extension: string;
  /** Short description for the manifest, e.g. "parquet/zstd". */
  readonly description: string;
  open(path: string, columns: readonly Field[]): Promise<ShardWriter>;
  /** Releases shared resources (an engine connection) once every shard is closed. */
  dispose(): Promise<void>;
}

export interface ShardInfo {
  /** Path relative to the output directory, with "/" separators. */
  readonly path: string;
  readonly rows: number;
  readonly bytes: number;
  readonly sha256: string;
}
