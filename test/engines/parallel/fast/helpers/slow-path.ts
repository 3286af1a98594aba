import type { Format, SemanticFault } from "../../../../../src/formats/format.js";
import { strip } from "../../../../../src/engines/strip.js";
import type { UntrustedPolicy } from "../../../../../src/stages/untrusted-policy.js";
import { validate } from "../../../../../src/stages/validate.js";
import type { ValidRecord } from "../../../../../src/formats/valid-record.js";
import { collect, from, linesOf } from "../../../../helpers/flow.js";

/** What the slow path makes of a line. */
export type SlowOutcome =
  | { readonly kind: "kept"; readonly value: ValidRecord }
  | { readonly kind: "quarantined"; readonly reason: string; readonly detail: string }
  | { readonly kind: "stream_error" }
  | { readonly kind: "skipped" };

/**
 * Runs one line through the real `validate` and `strip` stages; the format is given, and forced only for
 * formats that are not registered (tests of the compiler on made-up schemas).
 */
export async function slowPath(format: Format, policy: UntrustedPolicy, line: string, forced = false): Promise<SlowOutcome> {
  const [flow] = await collect(strip(policy)(validate({ format, forced })(from(linesOf([line])))));
  if (flow === undefined) return { kind: "skipped" };
  switch (flow.kind) {
    case "kept":
      return { kind: "kept", value: flow.value };
    case "quarantined":
      return { kind: "quarantined", reason: flow.reason, detail: flow.detail };
    case "stream_error":
      return { kind: "stream_error" };
    case "dropped":
      throw new Error("validate and strip never drop");
  }
}

/**
 * The zod output of a line the schema accepts, and that record stripped, for lines the slow path
 * quarantined only for a semantic fault (the walker still writes their row).
 */
export async function schemaRecord(format: Format, policy: UntrustedPolicy, line: string): Promise<{ record: Record<string, unknown>; stripped: Record<string, unknown>; fault: SemanticFault | null }> {
  const record = format.schema.parse(JSON.parse(line)) as Record<string, unknown>;
  const fault = format.check(record);
  const copy = structuredClone(record);
  const value = { format, record: copy, facts: format.facts(record), ordinal: 0, bytes: Buffer.byteLength(line) } as ValidRecord;
  const [flow] = await collect(strip(policy)(from([{ kind: "kept" as const, provenance: { source: "test", line: 1, offset: 0 }, value }])));
  if (flow?.kind !== "kept") throw new Error("strip lost the record");
  return { record, stripped: flow.value.record, fault };
}
