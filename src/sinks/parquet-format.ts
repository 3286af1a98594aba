import { nativeParquetFormat } from "./native-parquet-format.js";
import type { NativeParquetCompression, NativeParquetOptions } from "./native-parquet-format.js";

/** Parquet page compression; "none" writes uncompressed pages. */
export type ParquetCompression = NativeParquetCompression;

/** Options of {@link parquetFormat}. */
export type ParquetOptions = NativeParquetOptions;

/**
 * Parquet shards, written by evalshard's own encoder for every codec. The name is kept from when DuckDB
 * wrote these shards (it no longer ships: docs/decisions.md); it is {@link nativeParquetFormat}.
 */
export const parquetFormat: (options: ParquetOptions) => ReturnType<typeof nativeParquetFormat> = nativeParquetFormat;
