import type * as Crypto from "node:crypto";
import { lazyBuiltin } from "./lazy-builtin.js";

const nodeCrypto = lazyBuiltin<typeof Crypto>("node:crypto");

/** The sha256 of `data` (a string as UTF-8), hex: every digest a manifest, state file, cache key or redaction names. */
export function sha256Hex(data: string | Uint8Array): string {
  return nodeCrypto().createHash("sha256").update(data).digest("hex");
}
