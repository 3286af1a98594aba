/**
 * An error a route answers with: the spec's envelope `{error: {code, message}}` (section 7), plus any
 * extra top-level fields (e.g. a plain `detail` where the spec shows one) and headers.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: Readonly<Record<string, unknown>> = {},
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = "HttpError";
  }

  /** The response body. */
  body(): Record<string, unknown> {
    return { error: { code: this.code, message: this.message }, ...this.extra };
  }
}

// The spec names codes for 401, 403, 404, 409 and 429 only; the others are the emulator's choice.

/** 400: a parameter or body is invalid, or runs are of different scenarios. */
export const badRequest = (message: string) => new HttpError(400, "validation_error", message);

/** 401: missing, malformed, unknown or revoked credentials. */
export const invalidCredentials = (message: string) => new HttpError(401, "invalid_api_key", message);

/** 403: missing scope, key not seated, or missing entitlement (one code for all three, per spec 7). */
export const forbidden = (message: string) => new HttpError(403, "insufficient_scope", message);

/** 404: missing or not owned; the two are deliberately indistinguishable. */
export const notFound = (message: string) => new HttpError(404, "not_found", message);

/** 409: a conflicting state, e.g. a run not yet scored, or a DPO tie. */
export const conflict = (message: string) => new HttpError(409, "conflict", message);

/** 409 before launch. The spec calls its text a `detail`: it is given both inside the envelope and as `detail`. */
export const notLaunched = () => new HttpError(409, "conflict", "Run not launched", { detail: "Run not launched" });
