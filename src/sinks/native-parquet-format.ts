import { ConfigError, IoError } from "../core/errors.js";
import { ioStep } from "../core/io-step.js";
import { ParquetShard } from "../output/parquet-shard.js";
import type { WrittenFile } from "../output/storage.js";
import { columnPlan } from "../parquet/column-plan.js";
import type { ColumnPlan } from "../parquet/column-plan.js";
import { DEFAULT_ZSTD_LEVEL, encodeRowGroup, pageLevel } from "../parquet/encode-row-group.js";
import type { PageCodec } from "../parquet/compress-page.js";
import type { EncodeOptions } from "../parquet/encode-row-group.js";
import { RowGroupBuilder } from "../parquet/row-group-builder.js";
import { shredRecord } from "../parquet/shred-record.js";
import { wholeOption } from "../core/whole-option.js";
import { fileWriterOf } from "../output/shard-format.js";
import type { ShardFormat, ShardWriter } from "../output/shard-format.js";

/** Page compression of {@link nativeParquetFormat}. */
export type NativeParquetCompression = PageCodec;

/** Options of {@link nativeParquetFormat}. */
export interface NativeParquetOptions {
  readonly compression: NativeParquetCompression;
  /** zstd level; default `DEFAULT_ZSTD_LEVEL`. */
  readonly zstdLevel?: number;
  /** Rows per row group. Default 2048, as the DuckDB writer's groups. */
  readonly rowGroupRows?: number;
  /** A row group is also cut once its buffers hold about this many bytes. Default 64 MiB. */
  readonly rowGroupBytes?: number;
}

/** Options of {@link parquetFormat}. */
export type ParquetOptions = NativeParquetOptions;

/**
 * {@link nativeParquetFormat}, by the name it had when DuckDB wrote these shards (DuckDB no longer ships:
 * docs/decisions.md).
 */
export const parquetFormat: (options: ParquetOptions) => ShardFormat = nativeParquetFormat;

/**
 * Parquet shards written by evalshard's own encoder: each record is shredded into column buffers, a row
 * group is encoded every `rowGroupRows` rows (or `rowGroupBytes`) and appended to the file, and `close()`
 * writes the footer.
 */
export function nativeParquetFormat(options: NativeParquetOptions): ShardFormat {
  const encode: EncodeOptions = { codec: options.compression, zstdLevel: options.zstdLevel ?? DEFAULT_ZSTD_LEVEL };
  pageLevel(encode);
  const rowGroupRows = options.rowGroupRows ?? 2048;
  const rowGroupBytes = options.rowGroupBytes ?? 64 << 20;
  for (const [key, n] of [["rowGroupRows", rowGroupRows], ["rowGroupBytes", rowGroupBytes]] as const) wholeOption(key, n, 1);
  return {
    extension: ".parquet",
    description: `parquet/${options.compression}`,
    async open(target, columns) {
      if (columns.length === 0) throw new ConfigError(`Cannot write ${typeof target === "string" ? target : target.name}: no columns are left to write`);
      const plan = columnPlan(columns);
      const file = await fileWriterOf(target);
      return new NativeParquetShard(file.name, await ParquetShard.open(file, plan), plan, { encode, rowGroupRows, rowGroupBytes });
    },
    dispose: async () => undefined,
  };
}

interface ShardSettings {
  readonly encode: EncodeOptions;
  readonly rowGroupRows: number;
  readonly rowGroupBytes: number;
}

class NativeParquetShard implements ShardWriter {
  rows = 0;
  readonly #builder: RowGroupBuilder;
  /** The row group being written: one at most, overlapping the shredding of the next. */
  #writing: Promise<void> = Promise.resolve();
  #state: "open" | "closed" | "aborted" = "open";

  constructor(
    readonly path: string,
    private readonly file: ParquetShard,
    private readonly plan: ColumnPlan,
    private readonly settings: ShardSettings,
  ) {
    this.#builder = new RowGroupBuilder(plan);
  }

  async write(record: Readonly<Record<string, unknown>>): Promise<void> {
    if (this.#state !== "open") throw new IoError(`Cannot write to ${this.path}: the shard is ${this.#state}`, this.path);
    const builder = this.#builder;
    builder.beginRow();
    try {
      shredRecord(this.plan, record, builder.leaves);
    } catch (error) {
      // A value that does not fit its column: the row goes, the shard stays usable.
      builder.discardRow();
      throw new IoError(`Cannot write a record to ${this.path}: ${(error as Error).message}`, this.path, { cause: error });
    }
    this.rows += 1;
    if (builder.rows >= this.settings.rowGroupRows || builder.bytes >= this.settings.rowGroupBytes) await this.#flush();
  }

  async close(): Promise<WrittenFile> {
    if (this.#state !== "open") throw new IoError(`Cannot close ${this.path}: the shard is ${this.#state}`, this.path);
    this.#state = "closed";
    return ioStep(this.path, "write the Parquet shard", async () => {
      try {
        await this.#flush();
        await this.#writing;
        return await this.file.close();
      } catch (error) {
        await this.file.abort();
        throw error;
      }
    });
  }

  async abort(): Promise<void> {
    const wasOpen = this.#state === "open";
    this.#state = "aborted";
    if (wasOpen) await this.#writing.catch(() => undefined);
    await this.file.abort();
  }

  /** Encodes the buffered rows as a row group and starts writing it, after the previous one is written. */
  async #flush(): Promise<void> {
    const builder = this.#builder;
    if (builder.rows === 0) return;
    const group = encodeRowGroup(builder, this.settings.encode);
    builder.clear();
    await this.#writing;
    this.#writing = this.file.append(group);
    // Errors surface at the next flush, close or abort; keep them from going unhandled meanwhile.
    this.#writing.catch(() => undefined);
  }
}
