/**
 * DuckDB's Node client, loaded on first use: loading it takes ~0.35 s, a third of a 200 MiB conversion,
 * and the parallel engine never needs it.
 */
export function loadDuckDB(): Promise<typeof import("@duckdb/node-api")> {
  loading ??= import("@duckdb/node-api");
  return loading;
}

let loading: Promise<typeof import("@duckdb/node-api")> | undefined;
