import type { Field } from "../schema/column-type.js";
import { LocalFileWriter } from "./local-file-writer.js";
import type { FileWriter, WrittenFile } from "./storage.js";

/** One shard file being written. Records arrive already validated, filtered and stripped. */
export interface ShardWriter {
  /** Appends one record. */
  write(record: Readonly<Record<string, unknown>>): Promise<void>;
  /**
   * Appends `rows` whole lines encoded elsewhere (the unit engine's JSON Lines), each ending in a newline; the
   * bytes are the caller's again once this resolves. Only a line format has it.
   */
  writeLines?(lines: Uint8Array, rows: number): Promise<void>;
  /** Rows written so far. */
  readonly rows: number;
  /** Finishes the file and closes its writer; tells its size and sha256. */
  close(): Promise<WrittenFile>;
  /** Gives up: removes whatever was written. */
  abort(): Promise<void>;
}

/**
 * Where a shard's bytes go: a {@link FileWriter} the storage gave, or a local path (for tools and tests,
 * which then get a `LocalFileWriter` there).
 */
export type ShardTarget = FileWriter | string;

/** A kind of shard file (Parquet, JSONL): the small interface every output format sits behind. */
export interface ShardFormat {
  /** File name suffix including compression, e.g. ".parquet", ".jsonl.zst". */
  readonly extension: string;
  /** Short description for the manifest, e.g. "parquet/zstd". */
  readonly description: string;
  open(target: ShardTarget, columns: readonly Field[]): Promise<ShardWriter>;
  /** Releases shared resources (an engine connection) once every shard is closed. */
  dispose(): Promise<void>;
}

export interface ShardInfo {
  /** Path relative to the output directory, with "/" separators. */
  readonly path: string;
  readonly rows: number;
  readonly bytes: number;
  readonly sha256: string;
  /** The split it belongs to, in a split dataset (`--split`); absent in a dataset of one `train` split. */
  readonly split?: string;
}

/** The writer of a shard target: the one given, or a new local file at the path given. */
export async function fileWriterOf(target: ShardTarget): Promise<FileWriter> {
  return typeof target === "string" ? LocalFileWriter.create(target) : target;
}
