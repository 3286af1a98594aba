import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../src/service/index.js";
import { discover, ENDPOINTS, send, tokenFor, UNKNOWN_RUN, type Cast, type Endpoint } from "./endpoints.js";
import { errorBody, exportRecordFaults, recordsOf } from "./spec-shapes.js";
import { call, emulator, keysDeep, ndjsonLines, type Got } from "./support.js";

// One contract per endpoint the issue lists (ENDPOINTS): the spec's shape and content type on success, then
// each error status and code the spec gives it, in the order a client meets them.

let emu: RunningEmulator;
let c: Cast;
/** A key with every scope, revoked. */
let revoked: string;

beforeAll(async () => {
  emu = await emulator({ seed: 11, runs: 300 });
  c = await discover(emu);
  const created = await call(emu, "/api/api-keys", c.keys.owner, { method: "POST", body: JSON.stringify({ name: "revoked", scopes: ["play", "read:scores", "manage:runs"] }) });
  revoked = created.json().api_key;
  await call(emu, `/api/api-keys/${created.json().api_key_id}`, c.keys.owner, { method: "DELETE" });
});
afterAll(() => emu.close());

const rows = (pick: (e: Endpoint) => boolean = () => true) => ENDPOINTS.filter(pick).map((e) => [e.route, e] as const);

function expectError(got: Got, status: number, code: string): void {
  expect(got.status).toBe(status);
  expect(got.headers.get("content-type")).toBe("application/json");
  expect(errorBody.parse(got.json()).error.code).toBe(code);
}

describe("every endpoint answers exactly the spec's shape and content type", () => {
  it.each(rows())("%s", async (_, e) => {
    const got = await send(e, c, e.path(c), tokenFor(e, c));
    expect(got.status, got.text.slice(0, 300)).toBe(e.method === "POST" ? 201 : 200);
    if (e.ndjson !== undefined) {
      expect(got.headers.get("content-type")).toBe("application/x-ndjson");
      const lines = ndjsonLines(got.text);
      expect(lines.length).toBeGreaterThan(0);
      for (const line of lines) expect(exportRecordFaults(e.ndjson, line)).toBeNull();
      return;
    }
    expect(got.headers.get("content-type")).toBe("application/json");
    const schema = e.records !== undefined ? recordsOf(e.records) : e.shape;
    const parsed = schema?.safeParse(got.json());
    expect(parsed?.success, parsed?.error?.message).toBe(true);
  });
});

describe("authentication (spec 5; 7: 401 invalid_api_key)", () => {
  it.each(rows())("%s: 401 without a token, with a malformed, unknown, revoked or wrong kind of credential", async (_, e) => {
    const path = e.path(c);
    const wrongKind = e.auth === "key" ? c.keys.owner : c.keys.primary;
    const gone = e.auth === "key" ? revoked : `${c.keys.owner}x`;
    for (const token of [undefined, "esk_0000000000000000", wrongKind, gone]) expectError(await send(e, c, path, token), 401, "invalid_api_key");
    const basic = await call(emu, path, undefined, { method: e.method, headers: { authorization: `Basic ${Buffer.from("a:b").toString("base64")}` } });
    expectError(basic, 401, "invalid_api_key");
  });
});

describe("scopes (spec 5; 7: 403 insufficient_scope names the missing scope)", () => {
  const lacking = (e: Endpoint) => (e.scope === "play" ? c.keys.scoresOnly : e.scope === "read:scores" ? c.keys.playOnly : c.keys.partner);
  it.each(rows((e) => e.scope !== undefined))("%s needs its scope", async (_, e) => {
    const got = await send(e, c, e.path(c), lacking(e));
    expectError(got, 403, "insufficient_scope");
    expect(got.json().error.message).toContain(e.scope);
  });
});

describe("entitlement rl_dpo_export (spec 4.9, 4.10)", () => {
  it.each(rows((e) => e.entitled === true))("%s: 403 for an account without it", async (_, e) => {
    const got = await send(e, c, e.path(c), e.auth === "key" ? c.keys.partner : c.keys.partnerOwner);
    expectError(got, 403, "insufficient_scope");
    expect(got.json().error.message).toContain("rl_dpo_export");
  });

  it("the key with read:scores but without rl_dpo_export still gets its SFT, single-run and bulk", async () => {
    const partnerKey = emu.apiKeys.find((k) => k.scopes.includes("read:scores") && !k.entitlements.includes("rl_dpo_export"));
    expect(partnerKey?.api_key).toBe(c.keys.partner);
    const single = await call(emu, `/api/agent/runs/${c.partnerScored}/finetuning`, c.keys.partner);
    expect(recordsOf("sft").safeParse(single.json()).success).toBe(true);
    const bulk = await call(emu, "/api/agent/finetuning", c.keys.partner);
    expect([bulk.status, bulk.headers.get("content-type")]).toEqual([200, "application/x-ndjson"]);
    const lines = ndjsonLines(bulk.text);
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect([exportRecordFaults("sft", line), line.seat.agent_key_id]).toEqual([null, partnerKey?.api_key_id]);
  });
});

describe("seating (spec 4.2, 5): a key must be seated in the run", () => {
  it.each(rows((e) => e.auth === "key" && e.forRun !== undefined))("%s: 403 not seated; 404 unknown or another account's run", async (_, e) => {
    const forRun = e.forRun as NonNullable<Endpoint["forRun"]>;
    expectError(await send(e, c, forRun(c, c.notSeated), c.keys.primary), 403, "insufficient_scope");
    expectError(await send(e, c, forRun(c, UNKNOWN_RUN), c.keys.primary), 404, "not_found");
    expectError(await send(e, c, forRun(c, c.partnerScored), c.keys.primary), 404, "not_found");
  });

  it("DPO: 403 when the key is not seated in the other run either", async () => {
    for (const path of [`/api/agent/runs/${c.scored}/dpo?other=${c.notSeated}`, `/api/agent/finetuning/dpo?run_id_a=${c.scored}&run_id_b=${c.notSeated}`]) {
      expectError(await call(emu, path, c.keys.primary), 403, "insufficient_scope");
    }
  });
});

describe("ownership (spec 4.7): 404 for a run missing or not owned", () => {
  it.each(rows((e) => e.auth === "owner" && e.forRun !== undefined))("%s", async (_, e) => {
    const forRun = e.forRun as NonNullable<Endpoint["forRun"]>;
    expectError(await send(e, c, forRun(c, UNKNOWN_RUN), c.keys.owner), 404, "not_found");
    expectError(await send(e, c, forRun(c, c.partnerScored), c.keys.owner), 404, "not_found");
  });

  it("DELETE /api/api-keys/{api_key_id}: 404 for an unknown key or another account's", async () => {
    for (const id of [UNKNOWN_RUN, emu.apiKeys[2]?.api_key_id]) expectError(await call(emu, `/api/api-keys/${id}`, c.keys.owner, { method: "DELETE" }), 404, "not_found");
  });

  it("GET /api/agent/batches/{batch_id}: 404 for an unknown batch", async () => {
    expectError(await call(emu, `/api/agent/batches/${UNKNOWN_RUN}`, c.keys.primary), 404, "not_found");
  });
});

describe("409 conflict (spec 7)", () => {
  it.each(rows((e) => e.conflictsUnscored === true))("%s: while the run is not yet scored", async (_, e) => {
    const forRun = e.forRun as NonNullable<Endpoint["forRun"]>;
    expectError(await send(e, c, forRun(c, c.unscored), tokenFor(e, c)), 409, "conflict");
  });

  it("status before launch: 409 with the plain detail `Run not launched` (spec 3.1, 7 rule 1)", async () => {
    const got = await call(emu, `/api/agent/runs/${c.pending}/status`, c.keys.primary);
    expectError(got, 409, "conflict");
    expect(got.json().detail).toBe("Run not launched");
  });

  it("DPO of a run against itself is a tie: 409", async () => {
    for (const path of [`/api/agent/runs/${c.scored}/dpo?other=${c.scored}`, `/api/evals/dpo?run_id_a=${c.scored}&run_id_b=${c.scored}`]) {
      expectError(await call(emu, path, path.startsWith("/api/agent") ? c.keys.primary : c.keys.owner), 409, "conflict");
    }
  });
});

describe("DPO 400 (spec 4.10): runs of different scenarios, or a run without provenance", () => {
  it.each(rows((e) => e.records === "dpo"))("%s", async (_, e) => {
    const forRun = e.forRun as NonNullable<Endpoint["forRun"]>;
    const sft = ndjsonLines((await call(emu, "/api/evals/finetuning?limit=500", c.keys.owner)).text);
    const mine = sft.filter((r) => r.scored && r.seat.agent_key_id === c.primaryId);
    const elsewhere = mine.find((r) => r.scenario.campaign_id !== c.campaignId && r.reconstruction === "per_seat_trace")?.run_id;
    const untraced = mine.find((r) => r.scenario.campaign_id === c.campaignId && r.reconstruction !== "per_seat_trace")?.run_id;
    expect([elsewhere, untraced].every((r) => r !== undefined)).toBe(true);
    expectError(await send(e, c, forRun(c, elsewhere ?? ""), tokenFor(e, c)), 400, "validation_error");
    expectError(await send(e, c, forRun(c, untraced ?? ""), tokenFor(e, c)), 400, "validation_error");
  });
});

describe("limits (spec 8)", () => {
  it("the agent run list holds at most 100 runs", async () => {
    expect((await call(emu, "/api/agent/runs", c.keys.primary)).json()).toHaveLength(100);
  });

  it("batch_id, other, run_id_a and run_id_b take at most 64 characters", async () => {
    const [at, over] = ["a".repeat(64), "a".repeat(65)];
    expect((await call(emu, `/api/agent/runs?batch_id=${at}`, c.keys.primary)).json()).toEqual([]);
    expectError(await call(emu, `/api/agent/runs?batch_id=${over}`, c.keys.primary), 400, "validation_error");
    const dpo = [
      [c.keys.primary, (x: string, y: string) => `/api/agent/runs/${x}/dpo?other=${y}`],
      [c.keys.primary, (x: string, y: string) => `/api/agent/finetuning/dpo?run_id_a=${x}&run_id_b=${y}`],
      [c.keys.owner, (x: string, y: string) => `/api/evals/${x}/dpo?other=${y}`],
      [c.keys.owner, (x: string, y: string) => `/api/evals/dpo?run_id_a=${x}&run_id_b=${y}`],
    ] as const;
    for (const [token, path] of dpo) {
      expectError(await call(emu, path(c.scored, at), token), 404, "not_found");
      expectError(await call(emu, path(c.scored, over), token), 400, "validation_error");
      if (path(over, c.scored).includes("run_id_a")) expectError(await call(emu, path(over, c.scored), token), 400, "validation_error");
      expectError(await call(emu, path(c.scored, "").replace(/[?&](other|run_id_b)=$/, ""), token), 400, "validation_error");
    }
  });

  it("owner bulk limit is 1 to 500, default 50 runs; agent bulk limit is 1 and up, default 50", async () => {
    const runsIn = (text: string) => new Set(ndjsonLines(text).map((r) => r.run_id)).size;
    for (const path of ["/api/evals/finetuning", "/api/evals/finetuning/rl"]) {
      expect(runsIn((await call(emu, path, c.keys.owner)).text)).toBe(50);
      expect((await call(emu, `${path}?limit=500`, c.keys.owner)).status).toBe(200);
      for (const bad of ["0", "501", "-1", "x", ""]) expectError(await call(emu, `${path}?limit=${bad}`, c.keys.owner), 400, "validation_error");
      expectError(await call(emu, `${path}?campaign_id=${"c".repeat(65)}`, c.keys.owner), 400, "validation_error");
    }
    for (const path of ["/api/agent/finetuning", "/api/agent/finetuning/rl"]) {
      expect(ndjsonLines((await call(emu, path, c.keys.primary)).text)).toHaveLength(50);
      for (const bad of ["0", "-1", "x"]) expectError(await call(emu, `${path}?limit=${bad}`, c.keys.primary), 400, "validation_error");
    }
  });

  it("scorecard version is 1 and up (spec 9)", async () => {
    for (const path of [`/api/agent/runs/${c.scored}/scorecard?version=0`, `/api/evals/${c.scored}/scorecard?version=0`]) {
      expectError(await call(emu, path, path.startsWith("/api/agent") ? c.keys.primary : c.keys.owner), 400, "validation_error");
    }
  });
});

describe("what a response never holds (spec 2.4, 4.8)", () => {
  it("agent routes: no manifest, transcript or safety; no seat but the caller's", async () => {
    for (const [route, e] of rows((x) => x.auth === "key")) {
      const got = await send(e, c, e.path(c), c.keys.primary);
      const bodies = e.ndjson !== undefined ? ndjsonLines(got.text) : [got.json()];
      const names = keysDeep(bodies);
      for (const owner of ["manifest", "transcript", "safety", "seat_snapshots", "system_prompt"]) expect(names.has(owner), `${route} has ${owner}`).toBe(false);
      const keyIds = new Set<unknown>();
      const collect = (v: unknown): void => {
        if (Array.isArray(v)) v.forEach(collect);
        else if (typeof v === "object" && v !== null) for (const [k, x] of Object.entries(v)) k === "agent_key_id" ? keyIds.add(x) : collect(x);
      };
      collect(bodies);
      for (const id of keyIds) expect(id, route).toBe(c.primaryId);
    }
  });

  it("agent DPO records are of the caller's seat", async () => {
    const seatOf = async (run: string) =>
      ((await call(emu, `/api/evals/${run}/scorecard`, c.keys.owner)).json().manifest.seat_snapshots as { seat_index: number; agent_key_id: string }[]).find((s) => s.agent_key_id === c.primaryId)?.seat_index;
    const { records } = (await call(emu, `/api/agent/runs/${c.scored}/dpo?other=${c.dpoOther}`, c.keys.primary)).json();
    expect(records).toHaveLength(1);
    expect(records[0].seat_index).toBe(await seatOf(c.scored));
    expect(records[0].seat_index).toBe(await seatOf(c.dpoOther));
  });

  it("any route: never judge.system_prompt; owner bulk streams never a transcript, even when asked", async () => {
    for (const [route, e] of rows()) expect((await send(e, c, e.path(c), tokenFor(e, c))).text, route).not.toContain("system_prompt");
    const asked = ndjsonLines((await call(emu, "/api/evals/finetuning?include_transcript=true", c.keys.owner)).text);
    expect(asked.some((r) => "transcript" in r)).toBe(false);
  });
});
