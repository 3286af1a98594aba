import type { Quarantined } from "../core/flow.js";
import type { Provenance } from "../core/provenance.js";
import type { QuarantineReason } from "../core/reasons.js";

/** How much of a bad line the quarantine keeps; its full length is recorded beside it. */
export const QUARANTINE_RAW_CHARS = 65_536;

/** A quarantine item for a line; the raw text is capped at {@link QUARANTINE_RAW_CHARS}. */
export function quarantine(provenance: Provenance, reason: QuarantineReason, detail: string, raw: string, rawLength: number): Quarantined {
  return { kind: "quarantined", provenance, reason, detail, raw: raw.length > QUARANTINE_RAW_CHARS ? raw.slice(0, QUARANTINE_RAW_CHARS) : raw, rawLength };
}

/** The quarantine item of a line over the line limit: its first bytes as read (`head`), its length in bytes. */
export function tooLongLine(provenance: Provenance, line: { readonly bytes: number; readonly head: string }): Quarantined {
  return quarantine(provenance, "line_too_long", `line is ${line.bytes} bytes, over the limit`, line.head, line.bytes);
}
