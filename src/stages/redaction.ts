import type * as Crypto from "node:crypto";
import { lazyBuiltin } from "../core/lazy-builtin.js";

const nodeCrypto = lazyBuiltin<typeof Crypto>("node:crypto");

/** Prefix of a redacted value; the sha256 that follows keeps repeats of one text visible. */
export const REDACTION_MARKER = "[evalshard:redacted]";

export function redaction(value: unknown): string {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return `${REDACTION_MARKER} sha256=${nodeCrypto().createHash("sha256").update(text).digest("hex")}`;
}
