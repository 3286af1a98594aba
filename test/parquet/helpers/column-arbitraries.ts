import fc from "fast-check";
import type { ColumnType, Field } from "../../../src/schema/column-type.js";

type Row = Record<string, unknown>;

const field = (name: string, type: ColumnType): Field => ({ name, type, nullable: true });
const STR: ColumnType = { kind: "string" };
const INT: ColumnType = { kind: "int64" };
const DBL: ColumnType = { kind: "float64" };
const BOOL: ColumnType = { kind: "bool" };
const JSON_T: ColumnType = { kind: "json" };

/** Every kind of column, nested every way: lists of lists, maps of lists, lists of maps of structs. */
export const EVERY_KIND: readonly Field[] = [
  field("s", STR),
  field("i", INT),
  field("d", DBL),
  field("b", BOOL),
  field("j", JSON_T),
  field("strs", { kind: "list", item: STR }),
  field("grid", { kind: "list", item: { kind: "list", item: INT } }),
  field("st", { kind: "struct", fields: [field("a", STR), field("flags", { kind: "list", item: BOOL }), field("inner", { kind: "struct", fields: [field("x", DBL)] })] }),
  field("m", { kind: "map", value: { kind: "list", item: STR } }),
  field("rows", { kind: "list", item: { kind: "map", value: { kind: "struct", fields: [field("n", INT), field("j", JSON_T)] } } }),
  field("js", { kind: "list", item: JSON_T }),
];

const leafType = fc.constantFrom<ColumnType>(STR, INT, DBL, BOOL, JSON_T);

/** Random column types, up to a few levels of structs, lists and maps. */
export const columnTypeArb: fc.Arbitrary<ColumnType> = fc.letrec<{ type: ColumnType; struct: ColumnType; list: ColumnType; map: ColumnType }>((tie) => ({
  type: fc.oneof({ maxDepth: 4, depthIdentifier: "type" }, leafType, tie("struct"), tie("list"), tie("map")),
  struct: fc.array(tie("type"), { minLength: 1, maxLength: 3 }).map((types) => ({ kind: "struct" as const, fields: types.map((t, i) => field(`f${i}`, t)) })),
  list: tie("type").map((item) => ({ kind: "list" as const, item })),
  map: tie("type").map((value) => ({ kind: "map" as const, value })),
})).type;

/** Random dataset columns, named c0, c1, ... */
export const columnsArb: fc.Arbitrary<Field[]> = fc.array(columnTypeArb, { minLength: 1, maxLength: 4 }).map((types) => types.map((t, i) => field(`c${i}`, t)));

const textArb = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.string({ unit: "grapheme", maxLength: 8 }),
  fc.constantFrom("", "🚀", "Zoë 🚀 日本語 עִבְרִית", "e\u0301", "nul\u0000", "x".repeat(200)),
);
const intArb = fc.oneof(fc.integer(), fc.maxSafeInteger(), fc.constantFrom(0, -0, 2 ** 53 - 1, -(2 ** 53 - 1), 2 ** 32, -(2 ** 32), 2 ** 31, -(2 ** 31) - 1));
const doubleArb = fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constantFrom(-0, 0, 0.1, -1e-300, 1.7976931348623157e308, 5e-324));
// A JSON leaf holding JSON null is the same as a missing one: null is left to the nullish branch.
const jsonArb = fc.jsonValue({ maxDepth: 2 }).filter((v) => v !== null);

/** Random values of a column type: null and absent at every level, empty lists and maps included. */
export function valueArb(type: ColumnType): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: 1, arbitrary: fc.constantFrom(null, undefined) }, { weight: 4, arbitrary: presentArb(type) });
}

function presentArb(type: ColumnType): fc.Arbitrary<unknown> {
  switch (type.kind) {
    case "string":
      return textArb;
    case "int64":
      return intArb;
    case "float64":
      return doubleArb;
    case "bool":
      return fc.boolean();
    case "json":
      return jsonArb;
    case "list":
      return fc.array(valueArb(type.item), { maxLength: 4 });
    case "map":
      return fc.dictionary(textArb, valueArb(type.value), { maxKeys: 3 });
    case "struct":
      return recordArb(type.fields);
  }
}

/** Random records of the columns; a field may be absent, null or present. */
export function recordArb(columns: readonly Field[]): fc.Arbitrary<Row> {
  return fc.record(Object.fromEntries(columns.map((f) => [f.name, valueArb(f.type)])), { requiredKeys: [] }) as fc.Arbitrary<Row>;
}
