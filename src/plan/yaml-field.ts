import type { z } from "zod";
import { shown } from "./option-kind.js";
import type { Zod } from "./option-kind.js";
import type { OptionSpec } from "./option-spec.js";

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
