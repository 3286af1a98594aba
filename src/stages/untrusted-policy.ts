import { ConfigError } from "../errors.js";
import type { Format } from "../formats/format.js";
import type { Field } from "../schema/column-type.js";
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
export function resolveUntrustedPolicy(format: Format, overrides: Readonly<Record<string, string>> = {}): UntrustedPolicy {
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
export function outputColumns(format: Format, policy: UntrustedPolicy): Field[] {
  const dropped = policy.rules.filter((r) => r.action === "drop").map((r) => [...r.steps]);
  return withoutEmptyStructs(pruneColumns(format.columns, dropped));
}

function withoutEmptyStructs(fields: readonly Field[]): Field[] {
  return fields.flatMap((f) => {
    if (f.type.kind !== "struct") return [f];
    const inner = withoutEmptyStructs(f.type.fields);
    return inner.length === 0 ? [] : [{ ...f, type: { kind: "struct" as const, fields: inner } }];
  });
}
