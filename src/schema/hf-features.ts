import type { ColumnType, Field } from "./column-type.js";

/** A Hugging Face scalar dtype as written in `dataset_info.features`. */
export type HfDtype = "string" | "int64" | "float64" | "bool";

/** The YAML form of a feature type, without its name: `datasets`' own `Features._to_yaml_list` shape. */
export type HfFeatureType =
  | { readonly dtype: HfDtype }
  | { readonly struct: readonly HfField[] }
  /** A list of scalars is written `list: string`, a list of structs `list: [fields]`, anything else nested. */
  | { readonly list: HfDtype | readonly HfField[] | HfFeatureType };

export type HfField = { readonly name: string } & HfFeatureType;

/**
 * The `dataset_info.features` list for columns written as Parquet by this package.
 * json columns are `string` (JSON text). A map is a list of `{key, value}` structs, the layout the
 * Parquet writer gives maps, because `datasets` has no map feature and rejects Arrow map columns.
 */
export function hfFeatures(fields: readonly Field[]): HfField[] {
  return fields.map((f) => ({ name: f.name, ...featureType(f.type) }));
}

function featureType(type: ColumnType): HfFeatureType {
  switch (type.kind) {
    case "string":
    case "json":
      return { dtype: "string" };
    case "int64":
      return { dtype: "int64" };
    case "float64":
      return { dtype: "float64" };
    case "bool":
      return { dtype: "bool" };
    case "struct":
      return { struct: hfFeatures(type.fields) };
    case "list":
      return { list: simplify(featureType(type.item)) };
    case "map":
      return { list: [{ name: "key", dtype: "string" }, { name: "value", ...featureType(type.value) }] };
  }
}

/** `datasets` writes a list item as a bare dtype or a bare field list where it can; do the same. */
function simplify(item: HfFeatureType): HfDtype | readonly HfField[] | HfFeatureType {
  if ("dtype" in item) return item.dtype;
  if ("struct" in item) return item.struct;
  return item;
}
