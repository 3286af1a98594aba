/**
 * Error codes of a request that cannot succeed by being sent again: the name does not exist (NXDOMAIN;
 * a DNS server that could not answer says EAI_AGAIN, which is retried), the URL or port is refused by
 * the runtime itself, or the server's certificate is not one we trust. Refused, reset and timed-out
 * connections are not here: they are the flaky hops retries exist for.
 */
const PERMANENT_CODES = new Set([
  "ENOTFOUND",
  "ERR_INVALID_URL",
  "ERR_INVALID_ARG_VALUE",
  "ERR_INVALID_PROTOCOL",
  "ERR_TLS_CERT_ALTNAME_INVALID",
  "CERT_HAS_EXPIRED",
  "CERT_NOT_YET_VALID",
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "ERR_SSL_WRONG_VERSION_NUMBER",
]);

/**
 * Messages without a code that mean the same: undici refuses the ports browsers block (`bad port`,
 * e.g. 6000 or 9) before connecting, and an unknown scheme before resolving.
 */
const PERMANENT_MESSAGES = [/^bad port$/i, /^unknown scheme$/i, /^invalid url/i];

/** Whether a failed fetch (or one of its causes) can never pass on a retry. */
export function isPermanentNetworkError(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && PERMANENT_CODES.has(code)) return true;
    if (PERMANENT_MESSAGES.some((m) => m.test((current as Error).message))) return true;
    current = current.cause;
  }
  return false;
}
