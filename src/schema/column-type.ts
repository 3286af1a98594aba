/** A typed column, independent of any engine: the one description Parquet, DuckDB and HF features derive from. */
export type ColumnType =
  | { readonly kind: "string" }
  | { readonly kind: "int64" }
  | { readonly kind: "float64" }
  | { readonly kind: "bool" }
  /** A value of unknown shape, stored as JSON text in a plain string column (every reader reads it as a string). */
  | { readonly kind: "json" }
  | { readonly kind: "struct"; readonly fields: readonly Field[] }
  | { readonly kind: "list"; readonly item: ColumnType }
  | { readonly kind: "map"; readonly value: ColumnType };

export interface Field {
  readonly name: string;
  readonly type: ColumnType;
  /** False only where the schema requires a non-null value. */
  readonly nullable: boolean;
  /** A JSON Lines row leaves the key out where the value is null (OpenAI's `weight`, allowed on assistant messages only). */
  readonly omitNull?: boolean;
}
