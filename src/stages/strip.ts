import type * as Crypto from "node:crypto";
import { lazyBuiltin } from "../core/lazy-builtin.js";
import { mapKept } from "../core/flow.js";
import type { PathStep } from "../schema/field-path.js";
import type { ValidRecord } from "../formats/valid-record.js";
import type { UntrustedPolicy } from "./untrusted-policy.js";

const nodeCrypto = lazyBuiltin<typeof Crypto>("node:crypto");

/** Prefix of a redacted value; the sha256 that follows keeps repeats of one text visible. */
export const REDACTION_MARKER = "[evalshard:redacted]";

export function redaction(value: unknown): string {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return `${REDACTION_MARKER} sha256=${nodeCrypto().createHash("sha256").update(text).digest("hex")}`;
}

/** Removes or redacts untrusted text before anything reaches a dataset. */
export function strip(policy: UntrustedPolicy) {
  const stripRecord = recordStripper(policy);
  return mapKept<ValidRecord, ValidRecord>((value) => {
    stripRecord(value.record);
    return value;
  });
}

/** The strip stage's rule for one record, which it changes in place. */
export function recordStripper(policy: UntrustedPolicy): (record: Record<string, unknown>) => void {
  const rules = policy.rules.filter((r) => r.action !== "keep");
  return (record) => {
    for (const rule of rules) apply(record, rule.steps, 0, rule.action === "drop" ? "drop" : "redact");
  };
}

type Node = Record<string, unknown>;

/** Applies the action at the path below `node`; returns true when `node` was emptied by a drop. */
function apply(node: unknown, steps: readonly PathStep[], at: number, action: "drop" | "redact"): boolean {
  const step = steps[at];
  if (step === undefined || node === null || typeof node !== "object") return false;
  const last = at === steps.length - 1;
  if (step.kind === "items") {
    if (Array.isArray(node)) for (const item of node) apply(item, steps, at + 1, action);
    return false;
  }
  const object = node as Node;
  const keys = step.kind === "field" ? (step.name in object ? [step.name] : []) : Object.keys(object);
  for (const key of keys) {
    if (!last) {
      // An object whose last field was dropped would be an empty struct: drop it with its content.
      if (apply(object[key], steps, at + 1, action) && step.kind === "field") delete object[key];
    } else if (action === "drop") {
      delete object[key];
    } else if (object[key] !== null && object[key] !== undefined) {
      object[key] = redaction(object[key]);
    }
  }
  return action === "drop" && Object.keys(object).length === 0;
}
