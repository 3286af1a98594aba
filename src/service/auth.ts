import type { Account, Scope } from "./accounts.js";
import { forbidden, invalidCredentials } from "./http-errors.js";
import type { ApiKeyRecord } from "./key-registry.js";
import type { RequestContext } from "./router.js";

/** The caller of an agent route. */
export interface KeyCaller {
  readonly key: ApiKeyRecord;
  readonly account: Account;
}

function bearer(ctx: RequestContext): string | null {
  const m = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(ctx.authorization ?? "");
  return m?.[1] ?? null;
}

/**
 * Authenticates an agent route: a known, unrevoked API key (else 401 `invalid_api_key`) holding every
 * scope in `scopes` (else 403 naming the missing ones). Records the key's use.
 */
export function requireKey(ctx: RequestContext, scopes: readonly Scope[]): KeyCaller {
  const token = bearer(ctx);
  if (token === null) throw invalidCredentials("Missing or malformed Authorization header: expected Bearer <API_KEY>");
  const key = ctx.world.keys.findSecret(token);
  if (key === undefined) throw invalidCredentials("Unknown API key");
  if (key.revoked) throw invalidCredentials("API key has been revoked");
  const account = ctx.world.accounts[key.account];
  if (account === undefined) throw invalidCredentials("Unknown API key");
  key.lastUsedAt = ctx.world.clock.now(ctx.epoch);
  const missing = scopes.filter((s) => !key.scopes.includes(s));
  if (missing.length > 0) throw forbidden(`API key lacks the required scope(s): ${missing.join(", ")}`);
  return { key, account };
}

/** 403 unless the account holds the entitlement. */
export function requireEntitlement(account: Account, entitlement: string): void {
  if (!account.entitlements.includes(entitlement)) throw forbidden(`Account lacks the ${entitlement} entitlement`);
}

/** Authenticates an owner route: a portal session token (else 401). */
export function requireOwner(ctx: RequestContext): Account {
  const token = bearer(ctx);
  if (token === null) throw invalidCredentials("Missing or malformed Authorization header: expected Bearer <portal session token>");
  const account = ctx.world.accounts.find((a) => a.ownerToken === token);
  if (account === undefined) throw invalidCredentials("Invalid or expired portal session token");
  return account;
}
