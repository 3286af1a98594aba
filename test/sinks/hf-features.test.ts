import { describe, expect, it } from "vitest";
import { FORMATS } from "../../src/formats/index.js";
import type { ColumnType, Field } from "../../src/schema/column-type.js";
import { hfFeatures } from "../../src/schema/hf-features.js";

const f = (name: string, type: ColumnType): Field => ({ name, type, nullable: true });

describe("hfFeatures writes datasets' YAML feature list", () => {
  it("gives scalars a dtype, and json columns the string dtype", () => {
    const kinds = ["string", "int64", "float64", "bool", "json"] as const;
    expect(hfFeatures(kinds.map((kind) => f(kind, { kind })))).toEqual([
      { name: "string", dtype: "string" },
      { name: "int64", dtype: "int64" },
      { name: "float64", dtype: "float64" },
      { name: "bool", dtype: "bool" },
      { name: "json", dtype: "string" },
    ]);
  });

  it("nests structs as field lists", () => {
    expect(hfFeatures([f("seat", { kind: "struct", fields: [f("role", { kind: "string" }), f("index", { kind: "int64" })] })])).toEqual([
      { name: "seat", struct: [{ name: "role", dtype: "string" }, { name: "index", dtype: "int64" }] },
    ]);
  });

  it("writes a list of scalars as `list: dtype`, of structs as `list: [fields]`, of lists nested", () => {
    expect(
      hfFeatures([
        f("tags", { kind: "list", item: { kind: "string" } }),
        f("steps", { kind: "list", item: { kind: "json" } }),
        f("pairs", { kind: "list", item: { kind: "struct", fields: [f("index", { kind: "int64" })] } }),
        f("grid", { kind: "list", item: { kind: "list", item: { kind: "float64" } } }),
      ]),
    ).toEqual([
      { name: "tags", list: "string" },
      { name: "steps", list: "string" },
      { name: "pairs", list: [{ name: "index", dtype: "int64" }] },
      { name: "grid", list: { list: "float64" } },
    ]);
  });

  it("writes a map as the list of {key, value} entries the Parquet writer produces", () => {
    const type: ColumnType = { kind: "map", value: { kind: "struct", fields: [f("mean", { kind: "float64" })] } };
    expect(hfFeatures([f("per_trait", type)])).toEqual([
      { name: "per_trait", list: [{ name: "key", dtype: "string" }, { name: "value", struct: [{ name: "mean", dtype: "float64" }] }] },
    ]);
    expect(hfFeatures([f("m", { kind: "map", value: { kind: "list", item: { kind: "string" } } })])).toEqual([
      { name: "m", list: [{ name: "key", dtype: "string" }, { name: "value", list: "string" }] },
    ]);
  });

  it("describes the SFT scores column", () => {
    const scores = hfFeatures(FORMATS.sft.columns).find((c) => c.name === "scores");
    expect(scores).toEqual({
      name: "scores",
      struct: [
        {
          name: "per_trait",
          list: [
            { name: "key", dtype: "string" },
            { name: "value", struct: [{ name: "mean", dtype: "float64" }, { name: "variance", dtype: "float64" }, { name: "evidence", list: "string" }] },
          ],
        },
        { name: "win_conditions", list: [{ name: "id", dtype: "string" }, { name: "description", dtype: "string" }, { name: "met", dtype: "bool" }] },
        { name: "outcomes", struct: [{ name: "met_count", dtype: "int64" }, { name: "total_checks", dtype: "int64" }, { name: "total_actions", dtype: "int64" }] },
      ],
    });
  });
});
