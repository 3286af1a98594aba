import { SCOPES, type Scope } from "./accounts.js";
import { requireOwner } from "./auth.js";
import { badRequest, notFound } from "./http-errors.js";
import { keyListing, MAX_ACTIVE_KEYS } from "./key-registry.js";
import { json } from "./reply.js";
import type { RequestContext, Route } from "./router.js";

const NAME_MAX = 128;

/** Owner key management (spec 4.7). */
export const keyRoutes: readonly Route[] = [
  { method: "POST", path: "/api/api-keys", handler: createKey },
  { method: "GET", path: "/api/api-keys", handler: listKeys },
  { method: "DELETE", path: "/api/api-keys/:api_key_id", handler: revokeKey },
];

/** Creates a key; the raw key is returned this once. `play` is granted when no scope is asked for. */
async function createKey(ctx: RequestContext) {
  const account = requireOwner(ctx);
  const body = await ctx.body();
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw badRequest("Body must be a JSON object {name, scopes}");
  const { name, scopes } = body as { name?: unknown; scopes?: unknown };
  if (typeof name !== "string" || name.trim() === "" || name.length > NAME_MAX) {
    throw badRequest(`name must be a non-empty string of at most ${NAME_MAX} characters`);
  }
  if (scopes !== undefined && (!Array.isArray(scopes) || scopes.some((s) => typeof s !== "string"))) {
    throw badRequest("scopes must be an array of strings");
  }
  const asked = (scopes ?? []) as string[];
  const unknown = asked.find((s) => !(SCOPES as readonly string[]).includes(s));
  if (unknown !== undefined) throw badRequest(`Unknown scope ${JSON.stringify(unknown)}: expected one of ${SCOPES.join(", ")}`);
  const { world } = ctx;
  if (world.keys.activeCount(account.index) >= MAX_ACTIVE_KEYS) {
    throw badRequest(`The account already has ${MAX_ACTIVE_KEYS} active API keys, the most allowed: revoke one first`);
  }
  const granted: Scope[] = asked.length === 0 ? ["play"] : SCOPES.filter((s) => asked.includes(s));
  const key = world.keys.create(account.index, name, granted, world.clock.now(ctx.epoch));
  return json({ api_key: key.apiKey, api_key_id: key.apiKeyId, name: key.name, scopes: [...key.scopes] }, 201);
}

function listKeys(ctx: RequestContext) {
  const account = requireOwner(ctx);
  return json(ctx.world.keys.ofAccount(account.index).map(keyListing));
}

/** Revokes a key; idempotent. The spec does not show the response: the emulator answers the listing. */
function revokeKey(ctx: RequestContext) {
  const account = requireOwner(ctx);
  const id = ctx.params.api_key_id ?? "";
  const key = ctx.world.keys.findId(id);
  if (key === undefined || key.account !== account.index) throw notFound(`API key ${id} not found`);
  key.revoked = true;
  return json(keyListing(key));
}
