import { describe, expect, it } from "vitest";
import { errorFromResponse, type ResponseContext } from "../../src/http/error-from-response.js";
import {
  AuthError,
  BadRequestError,
  ConflictError,
  ForbiddenError,
  HttpError,
  NotFoundError,
  RateLimitError,
  ServerError,
  ServiceError,
} from "../../src/http/index.js";

const ctx: ResponseContext = { method: "GET", path: "/api/agent/runs/abc/finetuning", attempts: 1, auth: "agent", tokenSource: "EVAL_API_KEY" };
const envelope = (code: string, message: string) => JSON.stringify({ error: { code, message } });

describe("errorFromResponse", () => {
  it("maps each status to its class, all HttpErrors with status, code, method and path", () => {
    const cases: [number, new (...args: never[]) => HttpError][] = [
      [400, BadRequestError], [422, BadRequestError], [401, AuthError], [403, ForbiddenError], [404, NotFoundError],
      [409, ConflictError], [429, RateLimitError], [500, ServerError], [501, ServerError], [504, ServerError], [405, HttpError],
    ];
    for (const [status, type] of cases) {
      const error = errorFromResponse(status, envelope("some_code", "said"), undefined, ctx);
      expect(error, String(status)).toBeInstanceOf(type);
      expect(error).toBeInstanceOf(ServiceError);
      expect(error).toMatchObject({ status, code: "some_code", method: "GET", path: ctx.path, serverMessage: "said" });
      expect(error.message).toContain(`GET ${ctx.path} failed with ${status} some_code`);
      expect(error.name).toBe(type.name);
    }
  });

  it("401 says which variable supplied the credential and that it is missing, malformed or revoked", () => {
    const error = errorFromResponse(401, envelope("invalid_api_key", "API key has been revoked"), undefined, ctx) as AuthError;
    expect(error.code).toBe("invalid_api_key");
    expect(error.tokenSource).toBe("EVAL_API_KEY");
    expect(error.message).toContain("the API key from EVAL_API_KEY is missing, malformed, expired or revoked");
    const owner = errorFromResponse(401, envelope("invalid_api_key", "expired"), undefined, { ...ctx, auth: "owner", tokenSource: "EVAL_OWNER_TOKEN" });
    expect(owner.message).toContain("portal session token from EVAL_OWNER_TOKEN");
  });

  it("403 names the missing scope, the missing entitlement, or that the key is not seated", () => {
    const scope = errorFromResponse(403, envelope("insufficient_scope", "API key lacks the required scope(s): read:scores"), undefined, ctx) as ForbiddenError;
    expect([scope.missingScopes, scope.missingEntitlement, scope.notSeated]).toEqual([["read:scores"], undefined, false]);
    expect(scope.message).toContain("missing scope read:scores");
    const entitlement = errorFromResponse(403, envelope("insufficient_scope", "Account lacks the rl_dpo_export entitlement"), undefined, ctx) as ForbiddenError;
    expect([entitlement.missingScopes, entitlement.missingEntitlement]).toEqual([[], "rl_dpo_export"]);
    expect(entitlement.message).toContain("missing entitlement rl_dpo_export");
    const feature = errorFromResponse(403, '{"detail":"simulation feature disabled"}', undefined, ctx) as ForbiddenError;
    expect([feature.code, feature.missingEntitlement]).toEqual(["insufficient_scope", "simulation"]);
    const seat = errorFromResponse(403, envelope("insufficient_scope", "API key is not seated in run abc"), undefined, ctx) as ForbiddenError;
    expect(seat.notSeated).toBe(true);
    expect(seat.message).toContain("not seated");
  });

  it("409 keeps the detail and tells waiting from skipping", () => {
    const reason = (body: string) => (errorFromResponse(409, body, undefined, ctx) as ConflictError).reason;
    expect(reason('{"error":{"code":"conflict","message":"Run not launched"},"detail":"Run not launched"}')).toBe("not_launched");
    expect(reason('{"detail":"Run not launched"}')).toBe("not_launched");
    expect(reason(envelope("conflict", "Run abc is not yet scored (status completed)"))).toBe("not_scored");
    expect(reason(envelope("conflict", "Run abc has not completed (status running)"))).toBe("not_scored");
    expect(reason(envelope("conflict", "Runs a and b tie: same met_count and composite mean"))).toBe("tie");
    expect(reason(envelope("conflict", "Scenario not owned"))).toBe("other");
    const plain = errorFromResponse(409, '{"detail":"Run not launched"}', undefined, ctx);
    expect([plain.code, plain.detail]).toEqual(["conflict", "Run not launched"]);
  });

  it("429 carries the last Retry-After; a body without a code gets the spec's code", () => {
    const error = errorFromResponse(429, '{"detail":"Too many"}', 120_000, { ...ctx, attempts: 8 }) as RateLimitError;
    expect([error.code, error.retryAfterMs, error.attempts]).toEqual(["rate_limit_exceeded", 120_000, 8]);
    expect(error.message).toContain("after 8 attempts");
    expect(errorFromResponse(502, "<html>bad gateway</html>", undefined, ctx).code).toBe("http_502");
  });
});
