import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../src/service/index.js";
import { call, emulator, errorCode, keysDeep, keysOf, ownerRuns, seatsOf, type OwnerRun } from "./support.js";

let emu: RunningEmulator;
let keys: ReturnType<typeof keysOf>;
let owned: OwnerRun[];
let primaryId: string;

beforeAll(async () => {
  // extraFields: the cards' seat_index and version tie them to seats and records (contract.test.ts checks the strict shapes).
  emu = await emulator({ seed: 11, extraFields: true });
  keys = keysOf(emu);
  owned = await ownerRuns(emu);
  primaryId = emu.apiKeys[0]?.api_key_id ?? "";
});
afterAll(() => emu.close());

async function seatedRuns(key: string): Promise<{ run_id: string; status: string; scored: boolean }[]> {
  return (await call(emu, "/api/agent/runs", key)).json();
}

describe("authentication (spec 5, 7)", () => {
  it("answers 401 invalid_api_key for a missing, malformed, unknown or owner credential", async () => {
    for (const headers of [{}, { authorization: "Basic abc" }, { authorization: "Bearer" }]) {
      const got = await call(emu, "/api/agent/runs", undefined, { headers });
      expect(got.status).toBe(401);
      expect(errorCode(got)).toBe("invalid_api_key");
    }
    for (const token of ["esk_0000", keys.owner]) {
      const got = await call(emu, "/api/agent/runs", token);
      expect([got.status, errorCode(got)]).toEqual([401, "invalid_api_key"]);
    }
  });
});

describe("scopes (spec 5)", () => {
  it("403 insufficient_scope names the missing scope", async () => {
    const run = (await seatedRuns(keys.primary))[0]?.run_id;
    const cases: [string, string, string][] = [
      [keys.playOnly, `/api/agent/runs/${run}/scorecard`, "read:scores"],
      [keys.playOnly, "/api/agent/finetuning", "read:scores"],
      [keys.scoresOnly, "/api/agent/runs", "play"],
      [keys.partner, "/api/agent/batches", "manage:runs"],
      [keys.playOnly, "/api/agent/suites", "read:scores"],
    ];
    for (const [key, path, scope] of cases) {
      const got = await call(emu, path, key);
      expect(got.status, path).toBe(403);
      expect(errorCode(got)).toBe("insufficient_scope");
      expect(got.json().error.message).toContain(scope);
    }
  });
});

describe("GET /api/agent/runs (spec 4.2)", () => {
  it("is a bare array of {run_id, status, scored}, newest first, at most 100, only runs where the key is seated", async () => {
    const runs = await seatedRuns(keys.primary);
    expect(Array.isArray(runs)).toBe(true);
    expect(runs.length).toBe(100);
    for (const r of runs) expect(Object.keys(r).sort()).toEqual(["run_id", "scored", "status"]);
    const order = owned.map((r) => r.run_id);
    const positions = runs.map((r) => order.indexOf(r.run_id));
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    for (const r of runs.slice(0, 10)) {
      expect((await seatsOf(emu, r.run_id)).some((s) => s.agent_key_id === primaryId)).toBe(true);
    }
  });

  it("filters by batch_id, answers [] for an unknown batch and 400 over 64 characters", async () => {
    const { batches } = (await call(emu, "/api/agent/batches", keys.primary)).json();
    const batch = batches[0];
    const inBatch = await (await call(emu, `/api/agent/runs?batch_id=${batch.batch_id}`, keys.primary)).json();
    expect(inBatch.length).toBeGreaterThan(0);
    expect(inBatch.length).toBeLessThanOrEqual(batch.total_runs);
    expect((await call(emu, "/api/agent/runs?batch_id=nope", keys.primary)).json()).toEqual([]);
    const long = await call(emu, `/api/agent/runs?batch_id=${"a".repeat(65)}`, keys.primary);
    expect([long.status, errorCode(long)]).toEqual([400, "validation_error"]);
  });

  it("lists the other account's runs only for its own keys", async () => {
    const partnerRuns = await seatedRuns(keys.partner);
    expect(partnerRuns.length).toBeGreaterThan(0);
    const mine = new Set(owned.map((r) => r.run_id));
    expect(partnerRuns.some((r) => mine.has(r.run_id))).toBe(false);
  });
});

describe("GET /api/agent/runs/{run_id}/status (spec 2.4, 4.2)", () => {
  it("answers the status object for launched runs and 409 `Run not launched` before launch", async () => {
    const runs = await seatedRuns(keys.primary);
    const seen = new Set<string>();
    for (const r of runs) {
      const got = await call(emu, `/api/agent/runs/${r.run_id}/status`, keys.primary);
      if (r.status === "pending" || r.status === "launching") {
        expect(got.status).toBe(409);
        expect(errorCode(got)).toBe("conflict");
        expect(got.json().error.message).toBe("Run not launched");
        expect(got.json().detail).toBe("Run not launched");
        continue;
      }
      expect(got.status).toBe(200);
      const body = got.json();
      seen.add(body.status);
      expect(body).toMatchObject({ status: r.status, scored: r.scored });
      expect(typeof body.turn_count).toBe("number");
      expect(["active", "paused", "completed", "unknown"]).toContain(body.session_state);
      if (body.degraded === true) {
        expect(body.session_state).toBe("unknown");
        expect(body.retry_after_seconds).toBeGreaterThan(0);
      } else expect("degraded" in body).toBe(false);
      if (body.awaiting !== null) {
        expect(["your_turn", "choice_point", "vote", "roll_request"]).toContain(body.awaiting.kind);
        expect(body.status).toBe("running");
      }
    }
    expect(seen.has("running")).toBe(true);
    expect(seen.has("completed")).toBe(true);
  });

  it("403 when the key is not seated, 404 for an unknown run or another account's run", async () => {
    const seated = new Set((await seatedRuns(keys.primary)).map((r) => r.run_id));
    let notSeated: string | undefined;
    for (const r of owned) {
      if (!seated.has(r.run_id) && !(await seatsOf(emu, r.run_id)).some((s) => s.agent_key_id === primaryId)) {
        notSeated = r.run_id;
        break;
      }
    }
    const forbidden = await call(emu, `/api/agent/runs/${notSeated}/status`, keys.primary);
    expect([forbidden.status, errorCode(forbidden)]).toEqual([403, "insufficient_scope"]);
    const missing = await call(emu, "/api/agent/runs/000000000000000000000000/status", keys.primary);
    expect([missing.status, errorCode(missing)]).toEqual([404, "not_found"]);
    const partnerRun = (await seatedRuns(keys.partner))[0]?.run_id;
    const foreign = await call(emu, `/api/agent/runs/${partnerRun}/status`, keys.primary);
    expect([foreign.status, errorCode(foreign)]).toEqual([404, "not_found"]);
  });
});

describe("GET /api/agent/runs/{run_id}/scorecard (spec 2.7, 4.3, 9)", () => {
  it("holds the caller's seat only, without owner fields; versions list and ?version pins one", async () => {
    const runs = await seatedRuns(keys.primary);
    const scored = runs.filter((r) => r.scored);
    expect(scored.length).toBeGreaterThan(5);
    for (const r of scored) {
      const body = (await call(emu, `/api/agent/runs/${r.run_id}/scorecard`, keys.primary)).json();
      expect(body.scorecards).toHaveLength(1);
      const [card] = body.scorecards;
      expect(card.agent_key_id).toBe(primaryId);
      expect(card.run_id).toBe(r.run_id);
      expect(body.versions).toEqual(Array.from({ length: body.versions.length }, (_, i) => i + 1));
      expect(card.version).toBe(body.versions.at(-1));
      expect(Object.keys(card.outcomes).sort()).toEqual(["met_count", "partial_credit", "total_actions", "total_checks", "win_conditions"]);
      expect(card.outcomes.met_count).toBe(card.outcomes.win_conditions.filter((w: { met: boolean }) => w.met).length);
      expect(Object.keys(card.outcomes.partial_credit).sort()).toEqual(["max_possible", "per_condition", "total"]);
      for (const t of Object.values(card.traits.per_trait) as { mean: number; variance: number; evidence: string[] }[]) {
        expect(typeof t.mean).toBe("number");
        expect(Array.isArray(t.evidence)).toBe(true);
      }
      const keysSeen = keysDeep(body);
      expect(keysSeen.has("safety")).toBe(false);
      expect(keysSeen.has("manifest")).toBe(false);
      const pinned = (await call(emu, `/api/agent/runs/${r.run_id}/scorecard?version=1`, keys.primary)).json();
      expect(pinned.scorecards[0].version).toBe(1);
    }
  });

  it("is empty while unscored; 400 for a bad version, 404 for a missing one", async () => {
    const run = (await seatedRuns(keys.primary)).find((r) => !r.scored);
    expect((await call(emu, `/api/agent/runs/${run?.run_id}/scorecard`, keys.primary)).json()).toEqual({ scorecards: [], versions: [] });
    const scored = (await seatedRuns(keys.primary)).find((r) => r.scored)?.run_id;
    for (const v of ["0", "-1", "x", "1.5"]) {
      const got = await call(emu, `/api/agent/runs/${scored}/scorecard?version=${v}`, keys.primary);
      expect([got.status, errorCode(got)]).toEqual([400, "validation_error"]);
    }
    const missing = await call(emu, `/api/agent/runs/${scored}/scorecard?version=99`, keys.primary);
    expect([missing.status, errorCode(missing)]).toEqual([404, "not_found"]);
  });
});

describe("GET /api/agent/runs/{run_id}/coaching (spec 2.8)", () => {
  it("starts with the platform safety_preamble; other items are the caller's own", async () => {
    let generated = 0;
    for (const r of await seatedRuns(keys.primary)) {
      const { coaching } = (await call(emu, `/api/agent/runs/${r.run_id}/coaching`, keys.primary)).json();
      expect(coaching[0]).toMatchObject({ type: "safety_preamble", weak_traits: [], is_platform_guardrail: true });
      expect(typeof coaching[0].guidance).toBe("string");
      for (const item of coaching.slice(1)) {
        generated++;
        expect(r.scored).toBe(true);
        expect(item).toMatchObject({ run_id: r.run_id, agent_key_id: primaryId, is_platform_guardrail: false });
        expect(item.weak_traits.length).toBeGreaterThan(0);
        expect(typeof item.guidance).toBe("string");
        expect(Number.isNaN(Date.parse(item.created_at))).toBe(false);
      }
    }
    expect(generated).toBeGreaterThan(0);
  });
});

describe("batches (spec 2.9, 4.5)", () => {
  it("lists the account's batches newest first, at most 100, and details each with consistent counts", async () => {
    const { batches } = (await call(emu, "/api/agent/batches", keys.primary)).json();
    expect(batches.length).toBeGreaterThan(3);
    expect(batches.length).toBeLessThanOrEqual(100);
    const times = batches.map((b: { created_at: string }) => Date.parse(b.created_at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    let withoutMeans = 0;
    for (const b of batches) {
      expect(Object.keys(b).sort()).toEqual(["batch_id", "concurrency", "created_at", "status", "total_runs"]);
      const detail = (await call(emu, `/api/agent/batches/${b.batch_id}`, keys.primary)).json();
      expect(detail).toMatchObject(b);
      const { scored, ...statuses } = detail.run_counts;
      expect(Object.keys(detail.run_counts).sort()).toEqual(["cancelled", "completed", "failed", "launching", "pending", "running", "scored"]);
      expect(Object.values(statuses).reduce((s: number, n) => s + (n as number), 0)).toBe(b.total_runs);
      expect(scored).toBeLessThanOrEqual(statuses.completed);
      expect(detail.items.reduce((s: number, i: { run_count: number }) => s + i.run_count, 0)).toBe(b.total_runs);
      for (const item of detail.items) {
        expect(item.scenario_id.length).toBeGreaterThanOrEqual(8);
        if (item.mean_trait_scores === undefined) withoutMeans++;
      }
    }
    expect(withoutMeans).toBeGreaterThan(0);
  });

  it("404 for an unknown batch or one of another account", async () => {
    const got = await call(emu, "/api/agent/batches/000000000000000000000000", keys.primary);
    expect([got.status, errorCode(got)]).toEqual([404, "not_found"]);
    const created = await call(emu, "/api/api-keys", keys.partnerOwner, {
      method: "POST",
      body: JSON.stringify({ name: "partner-manager", scopes: ["manage:runs"] }),
    });
    const { batches } = (await call(emu, "/api/agent/batches", created.json().api_key)).json();
    expect(batches.length).toBeGreaterThan(0);
    const foreign = await call(emu, `/api/agent/batches/${batches[0].batch_id}`, keys.primary);
    expect([foreign.status, errorCode(foreign)]).toEqual([404, "not_found"]);
  });
});

describe("GET /api/agent/suites (spec 2.10, 4.6)", () => {
  it("returns public and unlisted suites only", async () => {
    const { suites } = (await call(emu, "/api/agent/suites", keys.primary)).json();
    expect(suites.length).toBe(2);
    for (const s of suites) {
      expect(["public", "unlisted"]).toContain(s.visibility);
      expect(s.status).toBe("released");
      expect(s.scenario_ids.length).toBe(s.scenario_version_hashes.length);
    }
  });
});

describe("routing", () => {
  it("404 for unknown paths, 405 for a wrong method, 501 for spec routes the emulator does not serve", async () => {
    const unknown = await call(emu, "/api/agent/nothing", keys.primary);
    expect([unknown.status, errorCode(unknown)]).toEqual([404, "not_found"]);
    const wrong = await call(emu, "/api/agent/runs", keys.primary, { method: "DELETE" });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get("allow")).toBe("GET");
    const scene = await call(emu, `/api/agent/runs/${owned[0]?.run_id}/scene`, keys.primary);
    expect([scene.status, errorCode(scene)]).toEqual([501, "not_implemented"]);
  });
});
