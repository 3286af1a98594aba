import { open, rm } from "node:fs/promises";
import type { FileHandle } from "node:fs/promises";
import { ConfigError, IoError } from "../errors.js";
import { columnPlan } from "../parquet/column-plan.js";
import type { ColumnPlan } from "../parquet/column-plan.js";
import { DEFAULT_ZSTD_LEVEL, encodeRowGroup } from "../parquet/encode-row-group.js";
import type { EncodeOptions } from "../parquet/encode-row-group.js";
import { PARQUET_MAGIC, parquetFooter } from "../parquet/parquet-footer.js";
import type { PlacedRowGroup } from "../parquet/parquet-footer.js";
import { RowGroupBuilder } from "../parquet/row-group-builder.js";
import { shredRecord } from "../parquet/shred-record.js";
import { EVALSHARD_VERSION } from "../version.js";
import type { ShardFormat, ShardWriter } from "./shard-writer.js";

/** Page compression of {@link nativeParquetFormat}. */
export type NativeParquetCompression = "zstd" | "gzip" | "none";

/** Options of {@link nativeParquetFormat}. */
export interface NativeParquetOptions {
  readonly compression: NativeParquetCompression;
  /** zstd level; default {@link DEFAULT_ZSTD_LEVEL}. */
  readonly zstdLevel?: number;
  /** Rows per row group. Default 2048, as the DuckDB writer's groups. */
  readonly rowGroupRows?: number;
  /** A row group is also cut once its buffers hold about this many bytes. Default 64 MiB. */
  readonly rowGroupBytes?: number;
}

const COMPRESSIONS: readonly NativeParquetCompression[] = ["zstd", "gzip", "none"];

/**
 * Parquet shards written by evalshard's own encoder: each record is shredded into column buffers, a row
 * group is encoded every `rowGroupRows` rows (or `rowGroupBytes`) and appended to the file, and `close()`
 * writes the footer. Same contract as `parquetFormat`, with no staging file and no engine.
 */
export function nativeParquetFormat(options: NativeParquetOptions): ShardFormat {
  if (!COMPRESSIONS.includes(options.compression)) {
    throw new ConfigError(`Expected Parquet compression to be one of ${COMPRESSIONS.join(", ")}, got ${JSON.stringify(options.compression)}`);
  }
  const rowGroupRows = options.rowGroupRows ?? 2048;
  const rowGroupBytes = options.rowGroupBytes ?? 64 << 20;
  for (const [key, n] of [["rowGroupRows", rowGroupRows], ["rowGroupBytes", rowGroupBytes]] as const) {
    if (!Number.isSafeInteger(n) || n < 1) throw new ConfigError(`Expected \`${key}\` to be an integer from 1 and up, got ${n}`);
  }
  const zstdLevel = options.zstdLevel ?? DEFAULT_ZSTD_LEVEL;
  if (!Number.isSafeInteger(zstdLevel) || zstdLevel < -7 || zstdLevel > 22) {
    throw new ConfigError(`Expected \`zstdLevel\` to be an integer from -7 to 22, got ${zstdLevel}`);
  }
  const encode: EncodeOptions = { codec: options.compression, zstdLevel };
  return {
    extension: ".parquet",
    description: `parquet/${options.compression}`,
    async open(path, columns) {
      if (columns.length === 0) throw new ConfigError(`Cannot write ${path}: no columns are left to write`);
      const plan = columnPlan(columns);
      let file: FileHandle;
      try {
        file = await open(path, "w");
      } catch (error) {
        throw new IoError(`Cannot create ${path}: ${(error as Error).message}`, path, { cause: error });
      }
      return new NativeParquetShard(path, file, plan, { encode, rowGroupRows, rowGroupBytes });
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
  /** The file write under way: one at most, overlapping the shredding of the next row group. */
  #writing: Promise<void> = Promise.resolve();
  #state: "open" | "closed" | "aborted" = "open";

  constructor(
    readonly path: string,
    private readonly file: FileHandle,
    private readonly plan: ColumnPlan,
    private readonly settings: ShardSettings,
  ) {
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

  async close(): Promise<void> {
    if (this.#state !== "open") throw new IoError(`Cannot close ${this.path}: the shard is ${this.#state}`, this.path);
    this.#state = "closed";
    try {
      try {
        await this.#flush();
        this.#append(parquetFooter(this.plan, this.#groups, { createdBy: `evalshard version ${EVALSHARD_VERSION}` }));
        await this.#writing;
      } finally {
        await this.file.close();
      }
    } catch (error) {
      await rm(this.path, { force: true });
      throw error instanceof IoError ? error : new IoError(`Cannot write the Parquet shard ${this.path}: ${(error as Error).message}`, this.path, { cause: error });
    }
  }

  async abort(): Promise<void> {
    const wasOpen = this.#state === "open";
    this.#state = "aborted";
    if (wasOpen) await this.#writing.catch(() => undefined).then(() => this.file.close()).catch(() => undefined);
    await rm(this.path, { force: true });
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
    const at = this.#offset;
    this.#offset += bytes.length;
    this.#writing = this.#writing.then(async () => {
      try {
        let done = 0;
        while (done < bytes.length) done += (await this.file.write(bytes, done, bytes.length - done, at + done)).bytesWritten;
      } catch (error) {
        throw new IoError(`Cannot write ${this.path}: ${(error as Error).message}`, this.path, { cause: error });
      }
    });
    // Errors surface at the next flush, close or abort; keep them from going unhandled meanwhile.
    this.#writing.catch(() => undefined);
  }
}
