import { sha256Hex } from "../core/sha256-hex.js";

/** Prefix of a redacted value; the sha256 that follows keeps repeats of one text visible. */
export const REDACTION_MARKER = "[evalshard:redacted]";

export function redaction(value: unknown): string {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return `${REDACTION_MARKER} sha256=${sha256Hex(text)}`;
}
