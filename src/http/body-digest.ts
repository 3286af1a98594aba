import { createHash, type Hash } from "node:crypto";

/**
 * A 2xx body as received, reduced to its size and sha256: what a later request for the same target
 * must answer for its body to be the same (issue 21: a rerun with nothing new compares answers, not records).
 */
export interface BodyDigest {
  /** The request's path and query as the client was asked for them (the base URL's own path not included). */
  readonly target: string;
  /** sha256 of the body's bytes, base64url. */
  readonly sha256: string;
  readonly bytes: number;
}

/** Hashes chunks as they pass, for a body's digest once it is read to its end. */
export class BodyHasher {
  private readonly hash: Hash = createHash("sha256");
  bytes = 0;

  update(chunk: Uint8Array): void {
    this.hash.update(chunk);
    this.bytes += chunk.byteLength;
  }

  digest(target: string): BodyDigest {
    return { target, sha256: this.hash.digest("base64url"), bytes: this.bytes };
  }
}
