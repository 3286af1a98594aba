import { ConfigError, IoError } from "../core/errors.js";
import { ioStep } from "../core/io-step.js";
import type { FileWriter, WrittenFile } from "../output/storage.js";
import { columnPlan } from "../parquet/column-plan.js";
import type { ColumnPlan } from "../parquet/column-plan.js";
import { DEFAULT_ZSTD_LEVEL, encodeRowGroup } from "../parquet/encode-row-group.js";
import type { EncodeOptions } from "../parquet/encode-row-group.js";
import { PARQUET_MAGIC, parquetFooter } from "../parquet/parquet-footer.js";
import type { PlacedRowGroup } from "../parquet/parquet-footer.js";
import { RowGroupBuilder } from "../parquet/row-group-builder.js";
import { shredRecord } from "../parquet/shred-record.js";
import { EVALSHARD_VERSION } from "../core/version.js";
import { wholeOption } from "../core/whole-option.js";
import { fileWriterOf } from "../output/shard-format.js";
import type { ShardFormat, ShardWriter } from "../output/shard-format.js";

/** Page compression of {@link nativeParquetFormat}. */
export type NativeParquetCompression = "zstd" | "gzip" | "snappy" | "none";

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

const COMPRESSIONS: readonly NativeParquetCompression[] = ["zstd", "gzip", "snappy", "none"];

/**
 * Parquet shards written by evalshard's own encoder: each record is shredded into column buffers, a row
 * group is encoded every `rowGroupRows` rows (or `rowGroupBytes`) and appended to the file, and `close()`
 * writes the footer.
 */
export function nativeParquetFormat(options: NativeParquetOptions): ShardFormat {
  if (!COMPRESSIONS.includes(options.compression)) {
    throw new ConfigError(`Expected Parquet compression to be one of ${COMPRESSIONS.join(", ")}, got ${JSON.stringify(options.compression)}`);
  }
  const rowGroupRows = options.rowGroupRows ?? 2048;
  const rowGroupBytes = options.rowGroupBytes ?? 64 << 20;
  for (const [key, n] of [["rowGroupRows", rowGroupRows], ["rowGroupBytes", rowGroupBytes]] as const) wholeOption(key, n, 1);
  const zstdLevel = options.zstdLevel ?? DEFAULT_ZSTD_LEVEL;
  if (!Number.isSafeInteger(zstdLevel) || zstdLevel < -7 || zstdLevel > 22) {
    throw new ConfigError(`Expected \`zstdLevel\` to be an integer from -7 to 22, got ${zstdLevel}`);
  }
  const encode: EncodeOptions = { codec: options.compression, zstdLevel };
  return {
    extension: ".parquet",
    description: `parquet/${options.compression}`,
    async open(target, columns) {
      if (columns.length === 0) throw new ConfigError(`Cannot write ${typeof target === "string" ? target : target.name}: no columns are left to write`);
      const plan = columnPlan(columns);
      return new NativeParquetShard(await fileWriterOf(target), plan, { encode, rowGroupRows, rowGroupBytes });
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
  readonly #groups: PlacedRowGroup[] = [];
  /** File offset of the next byte to write. */
  #offset = 0;
  readonly path: string;
  /** The file write under way: one at most, overlapping the shredding of the next row group. */
  #writing: Promise<void> = Promise.resolve();
  #state: "open" | "closed" | "aborted" = "open";

  constructor(
    private readonly file: FileWriter,
    private readonly plan: ColumnPlan,
    private readonly settings: ShardSettings,
  ) {
    this.path = file.name;
    this.#builder = new RowGroupBuilder(plan);
    this.#append(PARQUET_MAGIC);
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
        this.#append(parquetFooter(this.plan, this.#groups, { createdBy: `evalshard version ${EVALSHARD_VERSION}` }));
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

  /** Encodes the buffered rows as a row group and queues its bytes, after the previous write is done. */
  async #flush(): Promise<void> {
    const builder = this.#builder;
    if (builder.rows === 0) return;
    const { bytes, ...encoded } = encodeRowGroup(builder, this.settings.encode);
    builder.clear();
    await this.#writing;
    this.#groups.push({ encoded, offset: this.#offset });
    this.#append(bytes);
  }

  /** Queues `bytes` at the end of the file. */
  #append(bytes: Uint8Array): void {
    this.#offset += bytes.length;
    this.#writing = this.#writing.then(() => this.file.write(bytes));
    // Errors surface at the next flush, close or abort; keep them from going unhandled meanwhile.
    this.#writing.catch(() => undefined);
  }
}
