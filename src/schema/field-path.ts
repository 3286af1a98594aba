import { ConfigError } from "../core/errors.js";
import type { ColumnType, Field } from "./column-type.js";

/**
 * A path into a record: `coaching.guidance`, `tuples[].state.transcript_window[].content`,
 * `scores.per_trait.*.evidence`. `[]` steps into every list item, `*` into every map value.
 */
export type PathStep = { readonly kind: "field"; readonly name: string } | { readonly kind: "items" } | { readonly kind: "values" };

export function parsePath(path: string): PathStep[] {
  const steps: PathStep[] = [];
  for (const part of path.split(".")) {
    const m = /^([A-Za-z_][A-Za-z0-9_]*|\*)((?:\[\])*)$/.exec(part);
    if (m === null || m[1] === undefined) {
      throw new ConfigError(`Malformed field path ${JSON.stringify(path)}: expected names joined by ".", with "[]" after a list and "*" for map values`);
    }
    steps.push(m[1] === "*" ? { kind: "values" } : { kind: "field", name: m[1] });
    for (let i = 0; i < (m[2] ?? "").length / 2; i++) steps.push({ kind: "items" });
  }
  return steps;
}

/** Visits every column type, inner nodes and leaves alike, with its path in path syntax. */
export function walkColumns(fields: readonly Field[], visit: (type: ColumnType, path: string) => void): void {
  const walk = (type: ColumnType, path: string): void => {
    visit(type, path);
    if (type.kind === "struct") for (const f of type.fields) walk(f.type, `${path}.${f.name}`);
    else if (type.kind === "list") walk(type.item, `${path}[]`);
    else if (type.kind === "map") walk(type.value, `${path}.*`);
  };
  for (const f of fields) walk(f.type, f.name);
}

/** Every path the columns declare, leaves and inner nodes alike, in path syntax. */
export function declaredPaths(fields: readonly Field[]): string[] {
  const out: string[] = [];
  walkColumns(fields, (_, path) => out.push(path));
  return out;
}

/** The columns with the given paths removed (a path to a list item's field removes it from the item struct). */
export function pruneColumns(fields: readonly Field[], paths: readonly PathStep[][]): Field[] {
  return fields.flatMap((f) => {
    const here = paths.filter((p) => p[0]?.kind === "field" && p[0].name === f.name);
    if (here.some((p) => p.length === 1)) return [];
    if (here.length === 0) return [f];
    return [{ ...f, type: pruneType(f.type, here.map((p) => p.slice(1))) }];
  });
}

function pruneType(type: ColumnType, paths: PathStep[][]): ColumnType {
  switch (type.kind) {
    case "struct":
      return { kind: "struct", fields: pruneColumns(type.fields, paths) };
    case "list":
      return { kind: "list", item: pruneType(type.item, paths.filter((p) => p[0]?.kind === "items").map((p) => p.slice(1))) };
    case "map":
      return { kind: "map", value: pruneType(type.value, paths.filter((p) => p[0]?.kind === "values").map((p) => p.slice(1))) };
    default:
      return type;
  }
}

/** The type at a path, or null when the columns do not declare it. */
export function typeAt(fields: readonly Field[], steps: readonly PathStep[]): ColumnType | null {
  let type: ColumnType = { kind: "struct", fields };
  for (const step of steps) {
    if (step.kind === "field" && type.kind === "struct") {
      const f: Field | undefined = type.fields.find((x) => x.name === step.name);
      if (f === undefined) return null;
      type = f.type;
    } else if (step.kind === "items" && type.kind === "list") type = type.item;
    else if (step.kind === "values" && type.kind === "map") type = type.value;
    else return null;
  }
  return type;
}
