import { createHash } from "node:crypto";
import { wholeOption } from "../core/whole-option.js";
import { StreamCutError } from "./http-errors.js";
import type { Query } from "./request-url.js";
import type { ServiceClient } from "./service-client.js";

export interface CompleteNdjsonOptions {
  readonly query?: Query | undefined;
  /**
   * A line's identity, to skip on a re-request what was already handed out. Default: the line's own
   * bytes (hashed), so a record served again unchanged is skipped and one that changed in between (a
   * rescore) comes out again, for the dedup stage to settle. Pass e.g. `run_id`+`seat_index` to skip
   * by record instead.
   */
  readonly keyOf?: ((line: string) => string) | undefined;
  /** Re-requests after cuts before the last StreamCutError is thrown. Default 5. */
  readonly maxRestarts?: number | undefined;
}

/**
 * Every line of an NDJSON export once, even when the body is cut: after a StreamCutError the stream
 * is requested again from the start (the bulk exports have no cursor, and newest-first order shifts as
 * runs complete, so "skip the first N lines" would be wrong) and lines already handed out are skipped
 * by identity. Identity is counted, so a line that legitimately occurs twice comes out twice.
 */
export async function* completeNdjson(client: Pick<ServiceClient, "getNdjson">, path: string, options: CompleteNdjsonOptions = {}): AsyncGenerator<string, void, undefined> {
  const keyOf = options.keyOf ?? digest;
  const maxRestarts = wholeOption("maxRestarts", options.maxRestarts ?? 5, 0);
  const delivered = new Map<string, number>();
  for (let restart = 0; ; restart++) {
    const skip = new Map(delivered);
    try {
      for await (const line of client.getNdjson(path, options.query)) {
        const key = keyOf(line);
        const left = skip.get(key) ?? 0;
        if (left > 0) {
          skip.set(key, left - 1);
          continue;
        }
        delivered.set(key, (delivered.get(key) ?? 0) + 1);
        yield line;
      }
      return;
    } catch (error) {
      if (!(error instanceof StreamCutError) || restart >= maxRestarts) throw error;
    }
  }
}

function digest(line: string): string {
  return createHash("sha1").update(line).digest("base64");
}
