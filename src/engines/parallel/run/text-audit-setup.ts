import type { FormatBasics } from "../../../formats/format.js";
import { parsePath, typeAt } from "../../../schema/field-path.js";
import type { PathStep } from "../../../schema/field-path.js";
import type { UntrustedAction, UntrustedPolicy } from "../../../stages/untrusted-policy.js";
import { textAuditPaths } from "../../../views/record-text-audit.js";

/**
 * The text scan of a plain run (issue 18) as the workers run it over each kept record's skeleton: plain
 * data, settled in main from the format and the untrusted policy.
 */
export interface TextAuditSetup {
  /** The paths scanned (`textAuditPaths`), less those the policy drops: the stages' stripped record has none there. */
  readonly paths: readonly string[];
  /** What the skeleton must hold for them: a list of JSON-typed items (SFT `trace_steps`) is named to its items. */
  readonly reads: readonly string[];
  /** The policy's drop and redact rules at or below a scanned path: applied to the skeleton as strip applies them to the record. */
  readonly rules: readonly { readonly path: string; readonly action: Exclude<UntrustedAction, "keep"> }[];
}

/** The workers' text scan for `format` under `policy`. */
export function textAuditSetup(format: Pick<FormatBasics, "name" | "untrustedPaths" | "columns">, policy: UntrustedPolicy): TextAuditSetup {
  const rules = policy.rules.filter((r) => r.action !== "keep");
  const dropped = (steps: readonly PathStep[]) => rules.some((r) => r.action === "drop" && startsWith(steps, r.steps));
  const paths = textAuditPaths(format).filter((p) => !dropped(parsePath(p)));
  const reads = paths.map((p) => {
    let read = p;
    for (let type = typeAt(format.columns, parsePath(p)); type?.kind === "list"; type = type.item) read += "[]";
    return read;
  });
  const touching = rules.filter((r) => paths.some((p) => startsWith(r.steps, parsePath(p))));
  return { paths, reads, rules: touching.map((r) => ({ path: r.path, action: r.action as Exclude<UntrustedAction, "keep"> })) };
}

/** `steps` begins with (or is) `prefix`. */
function startsWith(steps: readonly PathStep[], prefix: readonly PathStep[]): boolean {
  if (prefix.length > steps.length) return false;
  return prefix.every((s, i) => {
    const t = steps[i] as PathStep;
    return s.kind === t.kind && (s.kind !== "field" || (t.kind === "field" && s.name === t.name));
  });
}
