import type { CommandName, OptionTable } from "./option-spec.js";

/**
 * Options (by the table's names) placed where a pipeline file has them: `maxQuarantined` -> `max_quarantined`,
 * `to` -> `output.to`. Options without a pipeline key, or not given, are left out.
 */
export function toYamlKeys(table: OptionTable, command: CommandName, values: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const doc: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(table)) {
    const value = values[name];
    if (spec.yaml === undefined || !spec.takenBy.includes(command) || value === undefined) continue;
    const path = spec.yaml.key.split(".");
    let at = doc;
    for (const step of path.slice(0, -1)) at = (at[step] ??= {}) as Record<string, unknown>;
    at[path.at(-1) as string] = value;
  }
  return doc;
}

/** The reverse: a parsed pipeline file's values by the table's option names (what its source kind has). */
export function fromYamlKeys(table: OptionTable, doc: unknown, sourceKind: string): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(table)) {
    if (spec.yaml === undefined) continue;
    if (spec.yaml.sources !== undefined && !(spec.yaml.sources as readonly string[]).includes(sourceKind)) continue;
    let at: unknown = doc;
    for (const step of spec.yaml.key.split(".")) at = at !== null && typeof at === "object" ? (at as Record<string, unknown>)[step] : undefined;
    if (at !== undefined) values[name] = at;
  }
  return values;
}
