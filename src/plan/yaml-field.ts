import type { z } from "zod";
import { shown } from "./option-kind.js";
import type { Zod } from "./option-kind.js";
import type { OptionSpec, OptionTable } from "./option-spec.js";

/** An option's value in a pipeline file: the kind's zod type, its constraint, as the table states them. */
export function yamlValue<T>(zod: Zod, spec: OptionSpec<T>): z.ZodType<T> {
  const kind = spec.kind;
  return kind.zod(zod).refine((v) => kind.accepts(v), {
    error: (issue) => kind.message?.("the value", issue.input) ?? `expected ${kind.expected}, got ${shown(issue.input)}`,
  }) as unknown as z.ZodType<T>;
}

/** A key with the option's default (the table's), filled in when the file leaves it out. */
export function yamlDefaulted<T>(zod: Zod, spec: OptionSpec<T> & { readonly default: T }): z.ZodDefault<z.ZodType<T>> {
  return yamlValue(zod, spec).default(spec.default as z.util.NoUndefined<T>);
}

export function yamlOptional<T>(zod: Zod, spec: OptionSpec<T>): z.ZodOptional<z.ZodType<T>> {
  return yamlValue(zod, spec).optional();
}

/**
 * Pipeline-file keys under `prefix` ("" for the top level, or e.g. "output") for the table's options that the
 * hand-written shape (`written`) does not name yet: a new option gets its key with no edit of the pipeline
 * spec. Nested keys (`select.seats`) become strict objects, optional unless a key inside is required.
 */
export function yamlKeysBeyond(zod: Zod, table: OptionTable, prefix: string, written: readonly string[]): Record<string, z.ZodType> {
  const tree = new Map<string, OptionSpec<unknown>[]>();
  const leaves: Record<string, z.ZodType> = {};
  for (const spec of Object.values(table) as OptionSpec<unknown>[]) {
    const key = spec.yaml?.key;
    if (key === undefined || key.startsWith("source.")) continue;
    const rest = prefix === "" ? key : key.startsWith(`${prefix}.`) ? key.slice(prefix.length + 1) : null;
    if (rest === null) continue;
    const [head, ...tail] = rest.split(".") as [string, ...string[]];
    if (written.includes(head)) continue;
    if (tail.length === 0) leaves[head] = yamlLeaf(zod, spec);
    else tree.set(head, [...(tree.get(head) ?? []), spec]);
  }
  for (const [head, specs] of tree) {
    const at = prefix === "" ? head : `${prefix}.${head}`;
    const group = zod.strictObject(yamlKeysBeyond(zod, Object.fromEntries(specs.map((s, i) => [String(i), s])), at, []));
    leaves[head] = specs.some((s) => s.required === true) ? group : group.optional();
  }
  return leaves;
}

function yamlLeaf(zod: Zod, spec: OptionSpec<unknown>): z.ZodType {
  if (spec.required === true) return yamlValue(zod, spec);
  if (spec.default !== undefined && typeof spec.default !== "function") return yamlDefaulted(zod, spec as OptionSpec<unknown> & { default: unknown });
  return yamlOptional(zod, spec);
}
