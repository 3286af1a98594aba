import { parsePath } from "../../../schema/field-path.js";
import type { PathStep } from "../../../schema/field-path.js";
import type { UntrustedPolicy } from "../../../stages/untrusted-policy.js";
import { CHOICE, JSON_VALUE, kindName, LIST, MAP, STRING, STRUCT } from "./schema-node.js";
import type { SchemaNode } from "./schema-node.js";

/**
 * The untrusted-text strip's one reading of the policy's paths: marks on the compiled schema for dropped
 * fields, redacted values, maps whose values are dropped, and the structs and maps deleted once a drop
 * leaves them empty. The wasm walk writes rows by them and `recordStripper` strips JS records by them. Its
 * quirks, kept from the first strip: a rule ending on `[]` does nothing, and only an object reached through
 * a field step is deleted when emptied.
 */
export function applyPolicy(root: SchemaNode, policy: UntrustedPolicy): void {
  for (const rule of policy.rules) {
    if (rule.action !== "keep") applyRule(root, rule.steps, rule.action, rule.path);
  }
}

/** Marks the fields at the format's untrusted paths, whatever the policy does with them (see `markSkeleton`). */
export function markUntrusted(root: SchemaNode, paths: readonly string[]): void {
  for (const path of paths) applyRule(root, parsePath(path), "untrusted", path);
}

function applyRule(root: SchemaNode, steps: readonly PathStep[], action: "drop" | "redact" | "untrusted", path: string): void {
  let node = root;
  for (const [k, step] of steps.entries()) {
    const last = k === steps.length - 1;
    const mismatch = () => new Error(`Untrusted path ${JSON.stringify(path)} does not fit the schema: step ${k + 1} meets a ${kindName(node.kind)}`);
    if (step.kind === "field") {
      const field = node.kind === STRUCT ? node.fields.find((f) => f.name === step.name) : undefined;
      if (field === undefined) throw mismatch();
      if (last) {
        if (action === "drop") field.dropped = true;
        else if (action === "redact") markRedacted(field.node, path);
        else field.untrusted = true;
        return;
      }
      // A struct or map a drop walks into through a field is deleted once the drop leaves it without keys.
      if (action === "drop" && (field.node.kind === STRUCT || field.node.kind === MAP)) field.node.pruneIfEmpty = true;
      node = field.node;
    } else if (step.kind === "items") {
      if (node.kind !== LIST || node.item === null) throw mismatch();
      // A rule ending in `[]` changes nothing: the strip's walk stops at a list item.
      if (last) return;
      node = node.item;
    } else {
      if (node.kind !== MAP || node.item === null) throw mismatch();
      if (last) {
        if (action === "drop") node.valuesDropped = true;
        else if (action === "redact") markRedacted(node.item, path);
        return;
      }
      node = node.item;
    }
  }
}

function markRedacted(node: SchemaNode, path: string): void {
  if (node.kind !== STRING && node.kind !== CHOICE && node.kind !== JSON_VALUE) {
    throw new Error(`Cannot redact ${JSON.stringify(path)}: it holds a ${kindName(node.kind)}`);
  }
  node.redact = true;
}
