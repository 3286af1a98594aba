import { ConfigError } from "../core/errors.js";
import type { FormatBasics } from "../formats/format.js";
import type { ColumnType, Field } from "../schema/column-type.js";
import { declaredPaths, parsePath, pruneColumns, typeAt } from "../schema/field-path.js";
import type { PathStep } from "../schema/field-path.js";

export const UNTRUSTED_ACTIONS = ["drop", "redact", "keep"] as const;
export type UntrustedAction = (typeof UNTRUSTED_ACTIONS)[number];

export interface UntrustedRule {
  readonly path: string;
  readonly steps: readonly PathStep[];
  readonly action: UntrustedAction;
}

/** What happens to each untrusted path of one format: the format's defaults, overridden by path. */
export interface UntrustedPolicy {
  readonly rules: readonly UntrustedRule[];
  /** path -> action, for the manifest. */
  readonly summary: Readonly<Record<string, UntrustedAction>>;
}

/**
 * Resolves the policy for a format. Every path the spec calls untrusted is dropped unless an override
 * names it; overrides may also name any other declared path, to drop or redact it too.
 */
export function resolveUntrustedPolicy(format: FormatBasics, overrides: Readonly<Record<string, string>> = {}): UntrustedPolicy {
  const actions = new Map<string, UntrustedAction>(format.untrustedPaths.map((p) => [p, "drop"]));
  const declared = new Set(declaredPaths(format.columns));
  for (const [path, action] of Object.entries(overrides)) {
    if (!(UNTRUSTED_ACTIONS as readonly string[]).includes(action)) {
      throw new ConfigError(`Unknown untrusted policy ${JSON.stringify(action)} for ${JSON.stringify(path)}: expected drop, redact or keep`);
    }
    if (!declared.has(path)) {
      throw new ConfigError(`Untrusted path ${JSON.stringify(path)} is not a field of ${format.name} ${format.version} records; untrusted paths there: ${format.untrustedPaths.join(", ")}`);
    }
    actions.set(path, action as UntrustedAction);
  }
  const rules = [...actions].map(([path, action]) => {
    const steps = parsePath(path);
    const type = typeAt(format.columns, steps);
    if (action === "redact" && type?.kind !== "string" && type?.kind !== "json") {
      throw new ConfigError(`Cannot redact ${JSON.stringify(path)}: it holds ${type?.kind ?? "nothing"}, and only text can be redacted; use drop`);
    }
    return { path, steps, action };
  });
  return { rules, summary: Object.fromEntries(actions) };
}

/** The columns a dataset has under the policy: dropped paths removed, and structs they emptied too. */
export function outputColumns(format: FormatBasics, policy: UntrustedPolicy): Field[] {
  const dropped = policy.rules.filter((r) => r.action === "drop").map((r) => [...r.steps]);
  return withoutEmptyStructs(pruneColumns(format.columns, dropped));
}

function withoutEmptyStructs(fields: readonly Field[]): Field[] {
  return fields.flatMap((f) => {
    const type = nonEmpty(f.type);
    return type === null ? [] : [{ ...f, type }];
  });
}

/** The type without structs left with no fields, wherever they sit; null when nothing is left. */
function nonEmpty(type: ColumnType): ColumnType | null {
  switch (type.kind) {
    case "struct": {
      const fields = withoutEmptyStructs(type.fields);
      return fields.length === 0 ? null : { kind: "struct", fields };
    }
    case "list": {
      const item = nonEmpty(type.item);
      return item === null ? null : { kind: "list", item };
    }
    case "map": {
      const value = nonEmpty(type.value);
      return value === null ? null : { kind: "map", value };
    }
    default:
      return type;
  }
}
