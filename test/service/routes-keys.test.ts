import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../src/service/index.js";
import { call, emulator, errorCode, keysOf } from "./support.js";

let emu: RunningEmulator;
let keys: ReturnType<typeof keysOf>;

beforeAll(async () => {
  emu = await emulator({ seed: 8, runs: 60 });
  keys = keysOf(emu);
});
afterAll(() => emu.close());

const create = (body: unknown, token = keys.owner) => call(emu, "/api/api-keys", token, { method: "POST", body: JSON.stringify(body) });

describe("POST /api/api-keys (spec 4.7)", () => {
  it("returns {api_key, api_key_id, name, scopes}; the new key works at once and is seated nowhere", async () => {
    const got = await create({ name: "ci", scopes: ["read:scores", "play"] });
    expect(got.status).toBe(201);
    const body = got.json();
    expect(Object.keys(body).sort()).toEqual(["api_key", "api_key_id", "name", "scopes"]);
    expect(body.scopes).toEqual(["play", "read:scores"]);
    expect((await call(emu, "/api/agent/runs", body.api_key)).json()).toEqual([]);
    expect((await call(emu, "/api/agent/finetuning", body.api_key)).text).toBe("");
  });

  it("grants play when no scope is asked for", async () => {
    expect((await create({ name: "default" })).json().scopes).toEqual(["play"]);
  });

  it("400 for an unknown scope, a missing name or a body that is not JSON", async () => {
    for (const got of [await create({ name: "x", scopes: ["admin"] }), await create({ scopes: ["play"] }), await create("nope"), await call(emu, "/api/api-keys", keys.owner, { method: "POST", body: "{" })]) {
      expect([got.status, errorCode(got)]).toEqual([400, "validation_error"]);
    }
    expect((await create({ name: "x", scopes: ["admin"] })).json().error.message).toContain("admin");
  });

  it("401 with an API key instead of a portal token", async () => {
    const got = await create({ name: "x" }, keys.primary);
    expect([got.status, errorCode(got)]).toEqual([401, "invalid_api_key"]);
  });
});

describe("GET /api/api-keys and DELETE /api/api-keys/{api_key_id} (spec 4.7, 5)", () => {
  it("lists the account's keys without secrets; a revoked key answers 401 invalid_api_key", async () => {
    const before = (await call(emu, "/api/api-keys", keys.owner)).json();
    expect(before.find((k: { api_key_id: string }) => k.api_key_id === emu.apiKeys[1]?.api_key_id).last_used_at).toBeNull();
    await call(emu, "/api/agent/runs", keys.playOnly);
    const listed = (await call(emu, "/api/api-keys", keys.owner)).json();
    for (const k of listed) expect(Object.keys(k).sort()).toEqual(["api_key_id", "created_at", "last_used_at", "name", "revoked", "scopes"]);
    expect(JSON.stringify(listed)).not.toContain(keys.primary);
    const used = listed.find((k: { api_key_id: string }) => k.api_key_id === emu.apiKeys[1]?.api_key_id);
    expect(Number.isNaN(Date.parse(used.last_used_at))).toBe(false);

    const fresh = (await create({ name: "to-revoke", scopes: ["play"] })).json();
    expect((await call(emu, "/api/agent/runs", fresh.api_key)).status).toBe(200);
    const revoked = await call(emu, `/api/api-keys/${fresh.api_key_id}`, keys.owner, { method: "DELETE" });
    expect(revoked.status).toBe(200);
    expect(revoked.json().revoked).toBe(true);
    const after = await call(emu, "/api/agent/runs", fresh.api_key);
    expect([after.status, errorCode(after)]).toEqual([401, "invalid_api_key"]);
    const again = await call(emu, `/api/api-keys/${fresh.api_key_id}`, keys.owner, { method: "DELETE" });
    expect(again.status).toBe(200);
    const relisted = (await call(emu, "/api/api-keys", keys.owner)).json();
    expect(relisted.find((k: { api_key_id: string }) => k.api_key_id === fresh.api_key_id).revoked).toBe(true);
  });

  it("404 for an unknown key or another account's key", async () => {
    const partnerKey = emu.apiKeys[2]?.api_key_id;
    for (const id of ["000000000000000000000000", partnerKey]) {
      const got = await call(emu, `/api/api-keys/${id}`, keys.owner, { method: "DELETE" });
      expect([got.status, errorCode(got)]).toEqual([404, "not_found"]);
    }
  });

  it("allows at most 50 active keys per account (spec 8)", async () => {
    const active = (await call(emu, "/api/api-keys", keys.partnerOwner)).json().filter((k: { revoked: boolean }) => !k.revoked).length;
    for (let i = active; i < 50; i++) expect((await create({ name: `k${i}` }, keys.partnerOwner)).status).toBe(201);
    const over = await create({ name: "one-too-many" }, keys.partnerOwner);
    expect([over.status, errorCode(over)]).toEqual([400, "validation_error"]);
  });
});
