import type { Quarantined } from "../core/flow.js";
import { redaction } from "../stages/redaction.js";
import type { UntrustedPolicy } from "../stages/untrusted-policy.js";
import type { QuarantineSink } from "./engine.js";
import { tryParseJson } from "../core/try-parse-json.js";

/**
 * A quarantine that keeps of each bad line only what the untrusted-text policy lets through: `_quarantine/` is
 * published beside the shards, so text the policy drops or redacts from the dataset must not reach readers
 * through it. A line that parses as a JSON object gets exactly the dataset's treatment (its untrusted paths
 * dropped or redacted; `rawPolicy: "stripped"`). A line that does not parse (bad JSON, cut at the cap) cannot
 * be walked: when it names an untrusted field it is replaced by its sha256 (`rawPolicy: "redacted"`). A line
 * with nothing to remove is kept byte for byte. `--untrusted PATH=keep` keeps a path's text in the quarantine
 * as in the dataset: the policy is the one opt-in. `strip` is the dataset's strip of a record under the policy.
 */
export function policyQuarantine(sink: QuarantineSink, policy: UntrustedPolicy, strip: (record: Record<string, unknown>) => void): QuarantineSink {
  const rules = policy.rules.filter((r) => r.action !== "keep");
  // The JSON keys that hold untrusted text, as they appear in a line: `"guidance"`, `"content"`...
  const names = [...new Set(rules.map((r) => lastFieldName(r.steps)).filter((n): n is string => n !== undefined))].map((n) => `${JSON.stringify(n)}`);
  const filter = (item: Quarantined): Quarantined => {
    if (rules.length === 0) return item;
    const rawTruncated = Buffer.byteLength(item.raw) < item.rawLength;
    const value = tryParseJson(item.raw);
    if (value === undefined) {
      return names.some((n) => item.raw.includes(n)) ? { ...item, raw: redaction(item.raw), rawPolicy: "redacted", rawTruncated } : item;
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) return item;
    const before = JSON.stringify(value);
    strip(value as Record<string, unknown>);
    const after = JSON.stringify(value);
    return after === before ? item : { ...item, raw: after, rawPolicy: "stripped", rawTruncated };
  };
  return {
    get path() {
      return sink.path;
    },
    get entries() {
      return sink.entries;
    },
    get written() {
      return sink.written ?? null;
    },
    write: (item: Quarantined) => sink.write(filter(item)),
    close: () => sink.close(),
  };
}

function lastFieldName(steps: UntrustedPolicy["rules"][number]["steps"]): string | undefined {
  for (let i = steps.length - 1; i >= 0; i--) {
    const step = steps[i];
    if (step?.kind === "field") return step.name;
  }
  return undefined;
}
