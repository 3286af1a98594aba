import { DuckDBInstance } from "@duckdb/node-api";

/** Rows of Parquet files as DuckDB's Node client reads them (maps come back as [{key, value}]). */
export async function readParquetRows(files: readonly string[]): Promise<{ columns: { name: string; type: string }[]; rows: Record<string, unknown>[] }> {
  const instance = await DuckDBInstance.create(":memory:");
  const connection = await instance.connect();
  try {
    const list = `[${files.map((f) => `'${f.replaceAll("'", "''")}'`).join(", ")}]`;
    const described = (await connection.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet(${list})`)).getRowObjectsJson();
    const rows = (await connection.runAndReadAll(`SELECT * FROM read_parquet(${list})`)).getRowObjectsJson() as Record<string, unknown>[];
    return { columns: described.map((r) => ({ name: String(r.column_name), type: String(r.column_type) })), rows };
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}
