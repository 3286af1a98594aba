import * as crypto from "node:crypto";

/** crypto.hash, one call per digest (Node 20.12 and later); createHash before it. */
const oneShot = (crypto as { hash?: (algorithm: string, data: Uint8Array, encoding: "buffer") => Buffer }).hash;

/**
 * A 48-bit digest of a line's bytes (the first 6 bytes of its SHA-256), exact in a double: what dedup keeps per
 * key to tell a true duplicate from a copy with the same key and scorecard version but other content
 * (`conflicting_duplicate`). Two different lines of one key share it with odds of 2^-48, and then count as a plain
 * `duplicate`. SHA-256 because Node's is native: ~1 ns a byte here, a quarter of a JS hash's byte loop (measured
 * in docs/decisions.md). One definition for both engines, so they agree.
 */
export function lineDigest(bytes: Uint8Array, start = 0, end = bytes.length): number {
  const line = bytes.subarray(start, end);
  const digest = oneShot === undefined ? crypto.createHash("sha256").update(line).digest() : oneShot("sha256", line, "buffer");
  return digest.readUIntBE(0, 6);
}
