import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  AuthError,
  BadRequestError,
  completeNdjson,
  ConflictError,
  createServiceClient,
  ForbiddenError,
  NotFoundError,
  StreamCutError,
  type ClientEvent,
  type ServiceClient,
} from "../../src/http/index.js";
import { startEmulator, type RunningEmulator } from "../../src/service/index.js";
import { drain, fakeClock, seededRandom } from "./support.js";

const SEED = 11;
const RUNS = 150;
const FAULTS = "429=0.1,502=0.1,503=0.05,504=0.05,reset=0.05,cut=0.05,slow=0.02";

let clean: RunningEmulator;
let faulty: RunningEmulator;

beforeAll(async () => {
  clean = await startEmulator({ seed: SEED, runs: RUNS });
  faulty = await startEmulator({ seed: SEED, runs: RUNS, faults: FAULTS, timing: { gatewayTimeoutMs: 5, slowDelayMs: 1, retryAfterSeconds: 1 } });
});
afterAll(async () => {
  await clean.close();
  await faulty.close();
});

// No hedges: on a loaded machine a slow attempt is hedged, and a fault on the copy that loses the race is never
// retried, so "every injected fault was retried" would hang on the machine's load (hedging has its own tests).
function owner(emu: RunningEmulator, events: ClientEvent[] = [], token = emu.ownerToken): ServiceClient {
  // A fake clock: the backoff (a Retry-After of 1 s included) is honoured in virtual time, so the test is fast.
  return createServiceClient({ baseUrl: emu.url, auth: "owner", token, clock: fakeClock(), hedge: false, retry: { maxAttempts: 12, random: seededRandom(SEED) }, onEvent: (e) => events.push(e) });
}

function agent(emu: RunningEmulator, token: string, events: ClientEvent[] = []): ServiceClient {
  return createServiceClient({ baseUrl: emu.url, auth: "agent", token, clock: fakeClock(), hedge: false, retry: { random: seededRandom(SEED) }, onEvent: (e) => events.push(e) });
}

/** A record's identity in an SFT export: one record per seat of a run. */
const seatKey = (line: string) => {
  const r = JSON.parse(line) as { run_id: string; seat: { seat_index: number } };
  return `${r.run_id}/${r.seat.seat_index}`;
};

/** A per-run answer, or the class and status of its error. */
async function outcome(c: ServiceClient, path: string): Promise<unknown> {
  try {
    return await c.getJson(path);
  } catch (error) {
    return { error: (error as Error).name, status: (error as { status?: number }).status };
  }
}

describe("under seeded faults, the client returns what a fault-free service returns", () => {
  const events: ClientEvent[] = [];

  it("owner SFT bulk streams: the same complete records, cuts recovered by re-requesting", async () => {
    const want = owner(clean);
    const got = owner(faulty, events);
    for (const query of [{ limit: 100 }, { limit: 60 }, { limit: 25 }, {}, { limit: 7 }, { limit: 3 }]) {
      const expected = (await drain(want.getNdjson("/api/evals/finetuning", query))).items;
      expect(expected.length).toBeGreaterThan(0);
      const lines: string[] = [];
      for await (const line of completeNdjson(got, "/api/evals/finetuning", { query, keyOf: seatKey })) lines.push(line);
      expect(lines.toSorted()).toEqual(expected.toSorted());
      expect(lines.every((l) => !l.includes("\n") && JSON.parse(l) !== null)).toBe(true);
    }
    const kinds = new Set(faulty.faultLog.filter((f) => f.path.startsWith("/api/evals/finetuning")).map((f) => f.kind));
    expect(kinds.has("cut") || kinds.has("reset")).toBe(true);
    expect(events.some((e) => e.type === "stream_cut" && e.linesDelivered > 0)).toBe(true);
  });

  it("per-run routes and the run list: the same answers and the same final errors", async () => {
    const want = owner(clean);
    const got = owner(faulty, events);
    const runs = (await want.getJson<{ runs: { run_id: string }[] }>("/api/evals")).runs;
    expect(await got.getJson("/api/evals")).toEqual({ runs });
    const paths = runs.slice(0, 40).flatMap((r) => [`/api/evals/${r.run_id}/scorecard`, `/api/evals/${r.run_id}/finetuning`, `/api/evals/${r.run_id}/finetuning/rl`]);
    const [expected, actual] = await Promise.all([Promise.all(paths.map((p) => outcome(want, p))), Promise.all(paths.map((p) => outcome(got, p)))]);
    expect(actual).toEqual(expected);
    expect(expected.some((e) => (e as { status?: number }).status === 409)).toBe(true);
  });

  it("agent bulk exports too", async () => {
    const key = faulty.apiKeys[0]?.api_key ?? "";
    for (const path of ["/api/agent/finetuning", "/api/agent/finetuning/rl"]) {
      const expected = (await drain(agent(clean, clean.apiKeys[0]?.api_key ?? "").getNdjson(path, { limit: 40 }))).items;
      const lines: string[] = [];
      for await (const line of completeNdjson(agent(faulty, key, events), path, { query: { limit: 40 } })) lines.push(line);
      expect(lines.toSorted()).toEqual(expected.toSorted());
    }
  });

  it("every retry was reported, 429 and 503 waits at least the Retry-After of 1 s", () => {
    const retries = events.filter((e) => e.type === "retry");
    const reasons = new Set(retries.map((e) => e.reason));
    for (const reason of ["rate_limited", "bad_gateway", "unavailable", "gateway_timeout", "network"]) expect(reasons, reason).toContain(reason);
    for (const e of retries) if (e.status === 429 || e.status === 503) expect(e.delayMs).toBeGreaterThanOrEqual(1_000);
    const injected = faulty.faultLog.filter((f) => ["429", "502", "503", "504"].includes(f.kind)).length;
    expect(retries.filter((e) => e.status !== undefined)).toHaveLength(injected);
  });
});

describe("a cut stream, recovered by hand (the contract of StreamCutError)", () => {
  it("hands out the complete lines, throws with their count, and a re-request fills the gap", async () => {
    const client = owner(clean);
    const full = (await drain(client.getNdjson("/api/evals/finetuning", { limit: 20 }))).items;
    clean.aimFault({ kind: "cut", path: "/api/evals/finetuning", at: 3 });

    const have = new Map<string, string>();
    try {
      for await (const line of client.getNdjson("/api/evals/finetuning", { limit: 20 })) have.set(seatKey(line), line);
    } catch (error) {
      expect(error).toBeInstanceOf(StreamCutError);
      expect(error).toMatchObject({ reason: "cut", linesDelivered: 3 });
      expect(have.size).toBe(3);
      // No cursor: ask again from the newest run and keep only what is missing.
      for await (const line of client.getNdjson("/api/evals/finetuning", { limit: 20 })) if (!have.has(seatKey(line))) have.set(seatKey(line), line);
    }
    expect([...have.values()].toSorted()).toEqual(full.toSorted());
  });

  it("a reset mid-body before the first line is retried within the call", async () => {
    const events: ClientEvent[] = [];
    clean.aimFault({ kind: "reset", path: "/api/evals/finetuning/rl", at: 0 });
    const lines = (await drain(owner(clean, events).getNdjson("/api/evals/finetuning/rl", { limit: 5 }))).items;
    expect(lines.length).toBeGreaterThan(0);
    expect(events).toMatchObject([{ type: "retry", reason: "network", attempt: 1 }]);
  });
});

describe("a 429 with Retry-After: 120 from the emulator", () => {
  it("is waited out for at least 120 s of (fake) time", async () => {
    const slow = await startEmulator({ seed: SEED, runs: 20, timing: { retryAfterSeconds: 120 } });
    try {
      slow.aimFault({ kind: "429", path: "/api/evals" });
      const clock = fakeClock();
      const events: ClientEvent[] = [];
      const c = createServiceClient({ baseUrl: slow.url, auth: "owner", token: slow.ownerToken, clock, onEvent: (e) => events.push(e) });
      const before = clock.now();
      await c.getJson("/api/evals");
      expect(clock.now() - before).toBeGreaterThanOrEqual(120_000);
      expect(events).toMatchObject([{ type: "retry", status: 429, reason: "rate_limited" }]);
      expect((events[0] as { delayMs: number }).delayMs).toBeGreaterThanOrEqual(120_000);
    } finally {
      await slow.close();
    }
  });
});

describe("each error class, from the emulator", () => {
  let keyIds: { primary: string };
  beforeAll(() => {
    keyIds = { primary: clean.apiKeys[0]?.api_key_id ?? "" };
  });

  it("401 AuthError for a revoked key, naming EVAL_API_KEY and not the key", async () => {
    const created = await owner(clean).request<{ api_key: string; api_key_id: string }>("POST", "/api/api-keys", { body: { name: "nightly", scopes: ["play", "read:scores"] } });
    const events: ClientEvent[] = [];
    const nightly = agent(clean, created.api_key, events);
    expect(await nightly.getJson("/api/agent/runs")).toEqual([]);
    await owner(clean).request("DELETE", `/api/api-keys/${created.api_key_id}`);
    const error = await nightly.getJson("/api/agent/runs").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthError);
    expect(error).toMatchObject({ status: 401, code: "invalid_api_key", tokenSource: "EVAL_API_KEY", attempts: 1, serverMessage: "API key has been revoked" });
    expect((error as Error).message).toContain("the API key from EVAL_API_KEY is missing, malformed, expired or revoked");
    expect(`${(error as Error).stack} ${JSON.stringify(error)}`).not.toContain(created.api_key);
    expect(events).toEqual([]);
  });

  it("403 ForbiddenError: missing scope, missing rl_dpo_export, not seated", async () => {
    const [, playOnly, partner] = clean.apiKeys;
    const scope = (await drain(agent(clean, playOnly?.api_key ?? "").getNdjson("/api/agent/finetuning"))).error;
    expect(scope).toBeInstanceOf(ForbiddenError);
    expect(scope).toMatchObject({ status: 403, code: "insufficient_scope", missingScopes: ["read:scores"], notSeated: false });
    expect((scope as Error).message).toContain("missing scope read:scores");

    const entitlement = (await drain(agent(clean, partner?.api_key ?? "").getNdjson("/api/agent/finetuning/rl"))).error;
    expect(entitlement).toMatchObject({ name: "ForbiddenError", missingEntitlement: "rl_dpo_export", missingScopes: [] });
    const ownerEntitlement = (await drain(owner(clean, [], clean.accounts[1]?.owner_token).getNdjson("/api/evals/finetuning/rl"))).error;
    expect(ownerEntitlement).toMatchObject({ name: "ForbiddenError", missingEntitlement: "rl_dpo_export" });

    const runs = (await owner(clean).getJson<{ runs: { run_id: string }[] }>("/api/evals")).runs;
    const primary = agent(clean, clean.apiKeys[0]?.api_key ?? "");
    let notSeated: unknown;
    for (const r of runs.slice(0, 30)) {
      notSeated = await primary.getJson(`/api/agent/runs/${r.run_id}/scorecard`).then(() => undefined, (e: unknown) => e);
      if (notSeated !== undefined) break;
    }
    expect(notSeated).toMatchObject({ name: "ForbiddenError", notSeated: true });
    expect((notSeated as Error).message).toContain("the key is not seated in this run");
  });

  it("409 ConflictError: not scored, not launched, DPO tie", async () => {
    const client = owner(clean);
    const records = (await drain(client.getNdjson("/api/evals/finetuning", { limit: 200 }))).items.map((l) => JSON.parse(l));
    const unscored = records.find((r) => !r.scored && r.seat.agent_key_id === keyIds.primary);
    expect(unscored).toBeDefined();
    const notScored = await agent(clean, clean.apiKeys[0]?.api_key ?? "").getJson(`/api/agent/runs/${unscored.run_id}/finetuning`).catch((e: unknown) => e);
    expect(notScored).toBeInstanceOf(ConflictError);
    expect(notScored).toMatchObject({ status: 409, code: "conflict", reason: "not_scored" });

    const pending = (await client.getJson<{ runs: { run_id: string; status: string }[] }>("/api/evals")).runs.filter((r) => r.status === "pending");
    const primary = agent(clean, clean.apiKeys[0]?.api_key ?? "");
    const launches = await Promise.all(pending.map((r) => primary.getJson(`/api/agent/runs/${r.run_id}/status`).catch((e: unknown) => e)));
    expect(launches.find((e) => e instanceof ConflictError)).toMatchObject({ reason: "not_launched", detail: "Run not launched" });

    const traced = records.find((r) => r.scored && r.reconstruction === "per_seat_trace");
    const tie = await client.getJson(`/api/evals/${traced.run_id}/dpo`, { other: traced.run_id }).catch((e: unknown) => e);
    expect(tie).toMatchObject({ name: "ConflictError", reason: "tie" });
  });

  it("404 NotFoundError and 400 BadRequestError", async () => {
    const client = owner(clean);
    const missing = await client.getJson("/api/evals/ffffffffffffffffffffffff/finetuning").catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(NotFoundError);
    expect(missing).toMatchObject({ status: 404, code: "not_found", path: "/api/evals/ffffffffffffffffffffffff/finetuning" });
    const bad = (await drain(client.getNdjson("/api/evals/finetuning", { limit: 501 }))).error;
    expect(bad).toBeInstanceOf(BadRequestError);
    expect(bad).toMatchObject({ status: 400, path: "/api/evals/finetuning?limit=501" });
  });
});
