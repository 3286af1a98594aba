import { mkdtemp, open, rm, symlink } from "node:fs/promises";
import { randomBytes } from "node:crypto";
import { DuckDBInstance } from "@duckdb/node-api";
import type { FileHandle } from "node:fs/promises";
import { createReadStream } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ConfigError, IoError } from "../../src/core/errors.js";
import { LocalFileWriter } from "../../src/output/local-file-writer.js";
import type { FileWriter, WrittenFile } from "../../src/output/storage.js";
import { duckdbColumns, duckdbSelectList, sqlIdentifier, sqlString } from "../../src/schema/duckdb-type.js";
import type { ColumnType, Field } from "../../src/schema/column-type.js";
import { fileWriterOf } from "../../src/output/shard-format.js";
import type { ShardFormat, ShardWriter } from "../../src/output/shard-format.js";

/** Parquet page compression; "none" writes uncompressed pages. */
export type ParquetCompression = "zstd" | "gzip" | "snappy" | "none";

/** Options of {@link parquetFormat}. */
export interface ParquetOptions {
  readonly compression: ParquetCompression;
  /**
   * Rows per row group; small groups keep DuckDB's memory flat. Default 2048. DuckDB fills groups a
   * 2048-row chunk at a time, so smaller values behave like 2048.
   */
  readonly rowGroupRows?: number;
  /**
   * How map columns are written. "entries" (default): a list of `{key, value}` structs, which
   * Hugging Face `datasets` can load; "map": Parquet's MAP, which `datasets` rejects.
   */
  readonly maps?: "entries" | "map";
  /** DuckDB `memory_limit`; DuckDB caches up to it, so it bounds the conversion's memory. Default "512MB". */
  readonly memoryLimit?: string;
  /**
   * DuckDB threads for the conversion. Default 1: measured on 200 MiB and 1 GiB SFT, one thread holds peak
   * memory flat at ~375 MB while two grow it from ~600 to ~765 MB, and the conversion of one shard overlaps
   * the validation of the next, which is the slower side.
   */
  readonly threads?: number;
}

const CODECS: Readonly<Record<ParquetCompression, string>> = { zstd: "zstd", gzip: "gzip", snappy: "snappy", none: "uncompressed" };
const FLUSH_BYTES = 1 << 20;
/** DuckDB's default `maximum_object_size`; raised per shard when a line is longer. */
const MIN_OBJECT_SIZE = 16 << 20;

/**
 * The reference Parquet writer of the tests (DuckDB, a devDependency since evalshard writes every codec
 * itself): our encoder's files are compared with its schema and values. Each record is staged as one JSON line in a local file; `close()` has DuckDB convert
 * the staged file with explicit column types into a local Parquet file, then deletes the staged one.
 * DuckDB reads and writes files itself, so both stay local: next to the target on the local storage
 * (`<path>.stage.ndjson`, `<path>.duckdb.parquet`, the latter then renamed onto the target), in the temp
 * directory for any other storage (then copied into the storage's writer).
 * Conversions run one at a time, each in its own short-lived in-process DuckDB instance.
 */
export function duckdbParquetFormat(options: ParquetOptions): ShardFormat {
  const codec = CODECS[options.compression];
  if (codec === undefined) {
    throw new ConfigError(`Expected Parquet compression to be one of ${Object.keys(CODECS).join(", ")}, got ${JSON.stringify(options.compression)}`);
  }
  const rowGroupRows = options.rowGroupRows ?? 2048;
  if (!Number.isSafeInteger(rowGroupRows) || rowGroupRows < 1) {
    throw new ConfigError(`Expected \`rowGroupRows\` to be an integer from 1 and up, got ${rowGroupRows}`);
  }
  const memoryLimit = options.memoryLimit ?? "512MB";
  if (!/^\d+(\.\d+)?\s*[KMGT]i?B$/i.test(memoryLimit)) {
    throw new ConfigError(`Expected \`memoryLimit\` to be a size such as "1GB", got ${JSON.stringify(memoryLimit)}`);
  }
  const threads = options.threads ?? 1;
  if (!Number.isSafeInteger(threads) || threads < 1) {
    throw new ConfigError(`Expected \`threads\` to be an integer from 1 and up, got ${threads}`);
  }
  const engine = new Engine(memoryLimit, threads);
  const maps = options.maps ?? "entries";
  return {
    extension: ".parquet",
    description: `parquet/${options.compression}`,
    async open(target, columns) {
      if (columns.length === 0) throw new ConfigError(`Cannot write ${typeof target === "string" ? target : target.name}: no columns are left to write`);
      // Render now so a bad schema fails before anything is staged.
      const selectList = duckdbSelectList(columns, { maps });
      const outer = jsonAsText(columns, maps);
      const columnTypes = duckdbColumns(columns);
      const convert = (stage: string, maxLine: number, path: string) => {
        const read = `read_ndjson(${sqlString(stage)}, columns=${columnTypes}, format='newline_delimited', records=true, compression='uncompressed', hive_partitioning=false, union_by_name=false, ignore_errors=false, maximum_object_size=${Math.max(MIN_OBJECT_SIZE, maxLine + 1)})`;
        return engine.run(
          `COPY (SELECT ${outer} FROM (SELECT ${selectList} FROM ${read})) TO ${sqlString(path)} (FORMAT parquet, COMPRESSION ${codec}, ROW_GROUP_SIZE ${rowGroupRows})`,
        );
      };
      return ParquetShard.open(await fileWriterOf(target), convert);
    },
    dispose: () => engine.dispose(),
  };
}

type Convert = (stage: string, maxLine: number, path: string) => Promise<void>;

class ParquetShard implements ShardWriter {
  rows = 0;
  #maxLine = 0;
  #buffer: string[] = [];
  #buffered = 0;
  #writing: Promise<unknown> = Promise.resolve();
  #state: "open" | "closed" | "aborted" = "open";
  #closing: Promise<WrittenFile> | null = null;

  private constructor(
    private readonly target: FileWriter,
    readonly stage: string,
    /** Where DuckDB writes the shard. */
    private readonly converted: string,
    private readonly file: FileHandle,
    private readonly convert: Convert,
  ) {}

  get path(): string {
    return this.target.name;
  }

  static async open(target: FileWriter, convert: Convert): Promise<ParquetShard> {
    const base = target instanceof LocalFileWriter ? target.path : join(tmpdir(), `evalshard-shard-${process.pid}-${randomBytes(6).toString("hex")}`);
    const stage = `${base}.stage.ndjson`;
    try {
      return new ParquetShard(target, stage, `${base}.duckdb.parquet`, await open(stage, "w"), convert);
    } catch (error) {
      await target.abort();
      throw new IoError(`Cannot create the staging file ${stage}: ${(error as Error).message}`, stage, { cause: error });
    }
  }

  async write(record: Readonly<Record<string, unknown>>): Promise<void> {
    if (this.#state !== "open") throw new IoError(`Cannot write to ${this.path}: the shard is ${this.#state}`, this.path);
    let line = JSON.stringify(record);
    // JSON.stringify escapes lone surrogates as \udXXX; DuckDB (and UTF-8) cannot hold them.
    if (line.includes("\\ud")) line = JSON.stringify(wellFormed(record));
    const size = Buffer.byteLength(line) + 1;
    this.#buffer.push(line, "\n");
    this.#buffered += size;
    this.rows += 1;
    if (size > this.#maxLine) this.#maxLine = size;
    if (this.#buffered >= FLUSH_BYTES) await this.#flush();
  }

  close(): Promise<WrittenFile> {
    if (this.#state !== "open") return Promise.reject(new IoError(`Cannot close ${this.path}: the shard is ${this.#state}`, this.path));
    this.#state = "closed";
    this.#closing = this.#close();
    return this.#closing;
  }

  async #close(): Promise<WrittenFile> {
    try {
      try {
        await this.#flush();
      } finally {
        await this.file.close();
      }
      await withReadablePath(this.stage, (readable) => this.convert(readable, this.#maxLine, this.converted));
      await rm(this.stage, { force: true });
      return await closeWithLocalFile(this.target, this.converted);
    } catch (error) {
      await this.target.abort();
      throw error instanceof IoError ? error : new IoError(`Cannot write the Parquet shard ${this.path}: ${(error as Error).message}`, this.path, { cause: error });
    } finally {
      await rm(this.stage, { force: true });
      await rm(this.converted, { force: true });
    }
  }

  async abort(): Promise<void> {
    const wasOpen = this.#state === "open";
    this.#state = "aborted";
    if (wasOpen) await this.#writing.then(() => this.file.close()).catch(() => undefined);
    // A conversion under way would write the target after we removed it.
    await this.#closing?.catch(() => undefined);
    await rm(this.stage, { force: true });
    await rm(this.converted, { force: true });
    await this.target.abort();
  }

  #flush(): Promise<unknown> {
    if (this.#buffer.length === 0) return this.#writing;
    const text = this.#buffer.join("");
    this.#buffer = [];
    this.#buffered = 0;
    this.#writing = this.#writing.then(() => this.file.write(text)).catch((error: unknown) => {
      throw error instanceof IoError ? error : new IoError(`Cannot write the staging file ${this.stage}: ${(error as Error).message}`, this.stage, { cause: error });
    });
    return this.#writing;
  }
}

/** Makes `file` hold the finished local file `local`: copied into it. */
async function closeWithLocalFile(file: FileWriter, local: string): Promise<WrittenFile> {
  for await (const chunk of createReadStream(local)) await file.write(chunk as Buffer);
  return file.close();
}

/**
 * DuckDB treats `*`, `?` and `[` in a file name as a glob and has no escape for them, so a path holding
 * one is read through a symlink with a plain name in a private temp directory.
 */
async function withReadablePath<T>(path: string, fn: (readable: string) => Promise<T>): Promise<T> {
  if (!/[*?[\]{}\\]/.test(path)) return fn(path);
  const dir = await mkdtemp(join(tmpdir(), "evalshard-stage-"));
  if (/[*?[\]{}\\]/.test(dir)) throw new IoError(`The temp directory ${dir} holds glob characters DuckDB would expand`, dir);
  try {
    const link = join(dir, "stage.ndjson");
    await symlink(path, link);
    return await fn(link);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** The value with every lone surrogate (in strings and keys) replaced by U+FFFD. */
function wellFormed(value: unknown): unknown {
  if (typeof value === "string") return value.replace(LONE_SURROGATE, "\ufffd");
  if (Array.isArray(value)) return value.map(wellFormed);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [wellFormed(k), wellFormed(v)]));
  }
  return value;
}

/**
 * Runs the conversions one at a time, each in a fresh in-process DuckDB instance: an instance keeps what a
 * COPY allocated, so one shared instance grew from ~600 to ~900 MB peak RSS over eight 128 MiB shards of a
 * 1 GiB input, while a fresh one per shard stayed at ~600 MB. Opening an instance takes milliseconds.
 */
class Engine {
  #queue: Promise<unknown> = Promise.resolve();
  readonly #tempDir = join(tmpdir(), `evalshard-duckdb-${process.pid}-${Math.random().toString(36).slice(2)}`);

  constructor(
    private readonly memoryLimit: string,
    private readonly threads: number,
  ) {}

  run(sql: string): Promise<void> {
    const result = this.#queue.then(async () => {
      const instance = await DuckDBInstance.create(":memory:", {
        threads: String(this.threads),
        memory_limit: this.memoryLimit,
        temp_directory: this.#tempDir,
        preserve_insertion_order: "true",
        autoinstall_known_extensions: "false",
        autoload_known_extensions: "false",
      });
      try {
        const connection = await instance.connect();
        try {
          await connection.run(sql);
        } finally {
          connection.closeSync();
        }
      } finally {
        instance.closeSync();
      }
    });
    this.#queue = result.catch(() => undefined);
    return result;
  }

  async dispose(): Promise<void> {
    await this.#queue;
    await rm(this.#tempDir, { recursive: true, force: true });
  }
}

/**
 * The outer select list that casts every json value, at any depth, to VARCHAR: evalshard writes JSON text as
 * plain strings (no JSON logical type), and the reference must write what our encoder does.
 */
function jsonAsText(columns: readonly Field[], maps: "entries" | "map"): string {
  return columns.map((f) => (hasJson(f.type) ? `CAST(${sqlIdentifier(f.name)} AS ${textType(f.type, maps)}) AS ${sqlIdentifier(f.name)}` : sqlIdentifier(f.name))).join(", ");
}

function hasJson(type: ColumnType): boolean {
  if (type.kind === "json") return true;
  if (type.kind === "list") return hasJson(type.item);
  if (type.kind === "map") return hasJson(type.value);
  if (type.kind === "struct") return type.fields.some((f) => hasJson(f.type));
  return false;
}

function textType(type: ColumnType, maps: "entries" | "map"): string {
  switch (type.kind) {
    case "json":
    case "string":
      return "VARCHAR";
    case "int64":
      return "BIGINT";
    case "float64":
      return "DOUBLE";
    case "bool":
      return "BOOLEAN";
    case "list":
      return `${textType(type.item, maps)}[]`;
    case "map":
      return maps === "map" ? `MAP(VARCHAR, ${textType(type.value, maps)})` : `STRUCT("key" VARCHAR, "value" ${textType(type.value, maps)})[]`;
    case "struct":
      return `STRUCT(${type.fields.map((f) => `${sqlIdentifier(f.name)} ${textType(f.type, maps)}`).join(", ")})`;
  }
}
