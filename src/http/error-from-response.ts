import { parseErrorBody } from "./error-body.js";
import {
  AuthError,
  BadRequestError,
  ConflictError,
  ForbiddenError,
  HttpError,
  NotFoundError,
  RateLimitError,
  ServerError,
  type ConflictReason,
  type HttpErrorInit,
} from "./http-errors.js";

/** The request an error answered, and how to describe its credential. */
export interface ResponseContext {
  readonly method: string;
  /** Path and query, secrets already removed. */
  readonly path: string;
  readonly attempts: number;
  readonly auth: "agent" | "owner";
  /** Where the token came from, e.g. `EVAL_API_KEY`. */
  readonly tokenSource: string;
}

/** The codes section 7 gives per status, for bodies that carry none (plain `{detail}` bodies). */
const SPEC_CODES: Readonly<Record<number, string>> = {
  401: "invalid_api_key",
  403: "insufficient_scope",
  404: "not_found",
  409: "conflict",
  429: "rate_limit_exceeded",
};

const SCOPES = ["play", "read:scores", "manage:runs"];
const ENTITLEMENTS = ["rl_dpo_export", "simulation", "academy_eval_coaching", "public_handle"];

/** The typed error for an error status, its body read in either shape. */
export function errorFromResponse(status: number, bodyText: string, retryAfterMs: number | undefined, ctx: ResponseContext): HttpError {
  const body = parseErrorBody(bodyText);
  const init: HttpErrorInit = {
    status,
    code: body.code ?? SPEC_CODES[status] ?? `http_${status}`,
    method: ctx.method,
    path: ctx.path,
    attempts: ctx.attempts,
    serverMessage: body.message,
    detail: body.detail,
  };
  const said = `${init.detail ?? ""} ${init.serverMessage}`;
  switch (status) {
    case 400:
    case 422:
      return new BadRequestError(init);
    case 401:
      return new AuthError(init, ctx.tokenSource, ctx.auth === "agent" ? "API key" : "portal session token");
    case 403:
      return new ForbiddenError(init, { scopes: scopesIn(said), entitlement: entitlementIn(said), notSeated: /not seated/i.test(said) });
    case 404:
      return new NotFoundError(init);
    case 409:
      return new ConflictError(init, conflictReason(said));
    case 429:
      return new RateLimitError(init, retryAfterMs);
    default:
      return status >= 500 ? new ServerError(init) : new HttpError(init);
  }
}

/** The spec says the message "lists missing scopes"; it does not fix a format, so known names are looked for. */
function scopesIn(text: string): string[] {
  if (!/scope/i.test(text)) return [];
  return SCOPES.filter((scope) => new RegExp(`(^|[^\\w:])${scope}($|[^\\w:])`).test(text));
}

function entitlementIn(text: string): string | undefined {
  const known = ENTITLEMENTS.find((name) => new RegExp(`\\b${name}\\b`).test(text));
  if (known !== undefined) return known;
  const named = /\b([a-z][a-z0-9_]*) (?:entitlement|feature)\b/i.exec(text)?.[1];
  return named === undefined || /^(the|a|an|required|missing)$/i.test(named) ? undefined : named;
}

/** 409s share one code; their messages tell a pre-launch or unscored run (wait) from a tie (skip). */
function conflictReason(text: string): ConflictReason {
  if (/not launched/i.test(text)) return "not_launched";
  if (/\bties?\b/i.test(text)) return "tie";
  if (/not (?:yet )?(?:scored|completed?)|has not completed/i.test(text)) return "not_scored";
  return "other";
}
