/** Process exit codes: what a scheduler alerts on. */
export const EXIT = {
  ok: 0,
  /** Any failure that is not the caller's configuration: I/O, a locked output, an internal error. */
  failure: 1,
  /** A flag, option, path or pipeline value is wrong. */
  usage: 2,
  /** Published, but the quarantined share exceeded --max-quarantined. */
  quarantineExceeded: 3,
  /** The service refused the credentials: 401 (missing, malformed or revoked) or 403 (scope, entitlement, seat). */
  credentialsRefused: 4,
  /** `verify` found a published dataset that differs from its manifest (a shard changed, missing or unlisted, ...). */
  verifyFailed: 5,
} as const;
