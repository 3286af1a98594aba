import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../src/service/index.js";
import { call, emulator, errorCode, keysOf, ndjsonLines, ownerRuns, type OwnerRun } from "./support.js";

const EPOCHS = 6;
const RANK: Record<string, number> = { pending: 0, launching: 1, running: 2, completed: 3, failed: 3, cancelled: 3 };

let emu: RunningEmulator;
/** Owner run lists and SFT exports at epochs 0 to EPOCHS. */
const lists: Map<string, OwnerRun>[] = [];
const exports: Map<string, any>[] = [];

beforeAll(async () => {
  emu = await emulator({ seed: 21, runs: 200, extraFields: true }); // seat_index on the cards finds seat 0
  for (let epoch = 0; epoch <= EPOCHS; epoch++) {
    if (epoch > 0) {
      const advanced = await call(emu, "/_emulator/advance", emu.ownerToken, { method: "POST" });
      expect(advanced.json()).toEqual({ epoch });
    }
    lists.push(new Map((await ownerRuns(emu)).map((r) => [r.run_id, r])));
    const sft = ndjsonLines((await call(emu, "/api/evals/finetuning?limit=500", emu.ownerToken)).text);
    exports.push(new Map(sft.filter((r) => r.seat.seat_index === 0).map((r) => [r.run_id, r])));
  }
});
afterAll(() => emu.close());

describe("POST /_emulator/advance", () => {
  it("needs the owner token", async () => {
    const got = await call(emu, "/_emulator/advance", keysOf(emu).primary, { method: "POST" });
    expect([got.status, errorCode(got)]).toEqual([401, "invalid_api_key"]);
    expect(emu.epoch).toBe(EPOCHS);
  });
});

describe("the world at epoch 0", () => {
  it("has runs scored, completed but not scored, running and pending", () => {
    const statuses = [...(lists[0]?.values() ?? [])].map((r) => `${r.status}${r.scored ? "+scored" : ""}`);
    for (const s of ["completed+scored", "completed", "running", "pending"]) expect(statuses).toContain(s);
  });
});

describe("runs move forward through pending, running, completed and scored", () => {
  it("never go back, and every step of the way is taken by some run", () => {
    const transitions = new Set<string>();
    for (let e = 1; e <= EPOCHS; e++) {
      for (const [id, now] of lists[e] ?? []) {
        const before = lists[e - 1]?.get(id);
        if (before === undefined) throw new Error(`run ${id} vanished`);
        expect(RANK[now.status], `${id}: ${before.status} -> ${now.status}`).toBeGreaterThanOrEqual(RANK[before.status] ?? 0);
        if (before.scored) expect(now.scored).toBe(true);
        if (now.status === "cancelled" && before.status !== "cancelled") expect(before.status).toBe("pending");
        if (before.status !== now.status || before.scored !== now.scored) {
          transitions.add(`${before.status}${before.scored ? "+scored" : ""}->${now.status}${now.scored ? "+scored" : ""}`);
        }
      }
    }
    expect([...transitions].some((t) => t.startsWith("pending->"))).toBe(true);
    expect(transitions).toContain("running->completed");
    expect(transitions).toContain("completed->completed+scored");
  });

  it("rescores some runs (a new scorecard version) and flags some scored runs later", async () => {
    let rescored: string | undefined;
    let flaggedLater = 0;
    for (const [id, last] of exports[EPOCHS] ?? []) {
      const first = exports[0]?.get(id);
      if (first === undefined || !first.scored) continue;
      if (last.scorecard_version > first.scorecard_version) rescored ??= id;
      if (last.flagged && !first.flagged) flaggedLater++;
    }
    expect(rescored).toBeDefined();
    expect(flaggedLater).toBeGreaterThan(0);
    // The old version stays readable and unchanged.
    const first = exports[0]?.get(rescored ?? "");
    const card = (await call(emu, `/api/evals/${rescored}/scorecard?version=${first.scorecard_version}`, emu.ownerToken)).json();
    const seat0 = card.scorecards.find((c: { seat_index: number }) => c.seat_index === 0);
    expect(seat0.traits.per_trait).toEqual(first.scores.per_trait);
    expect(card.versions.length).toBeGreaterThan(first.scorecard_version);
  });
});

describe("what an agent sees over epochs", () => {
  it("its pending runs launch (status 409 then 200), complete and get scored (SFT 409 then 200), never going back", async () => {
    const agentEmu = await emulator({ seed: 21, runs: 200 });
    const key = keysOf(agentEmu).primary;
    const watched = ((await call(agentEmu, "/api/agent/runs", key)).json() as { run_id: string; status: string }[]).filter((r) => r.status === "pending").map((r) => r.run_id);
    expect(watched.length).toBeGreaterThan(2);
    const seen = new Map<string, string[]>(watched.map((id) => [id, []]));
    for (let epoch = 0; epoch <= 9; epoch++) {
      if (epoch > 0) await agentEmu.advance();
      for (const id of watched) {
        const status = await call(agentEmu, `/api/agent/runs/${id}/status`, key);
        const sft = await call(agentEmu, `/api/agent/runs/${id}/finetuning`, key);
        const state = status.status === 409 ? "not launched" : status.json().status;
        seen.get(id)?.push(`${state}${sft.status === 200 ? "+scored" : ""}`);
        if (status.status === 409) expect(status.json().detail).toBe("Run not launched");
        if (sft.status !== 200) expect(sft.status).toBe(409);
      }
    }
    const stage = (s: string) => (s === "not launched" ? 0 : s === "running" ? 1 : s.endsWith("+scored") ? 3 : 2);
    for (const [id, states] of seen) {
      expect(states[0], id).toBe("not launched");
      const stages = states.map(stage);
      expect([...stages].sort((a, b) => a - b), `${id}: ${states.join(" > ")}`).toEqual(stages);
    }
    // Within ten epochs most of them went the whole way (a few fail or are cancelled).
    expect([...seen.values()].filter((s) => s.at(-1) === "completed+scored").length).toBeGreaterThan(watched.length / 2);
    await agentEmu.close();
  });
});

describe("--epoch N", () => {
  it("starts where N advances lead", async () => {
    const later = await emulator({ seed: 21, runs: 200, epoch: EPOCHS });
    for (const path of ["/api/evals", "/api/evals/finetuning?limit=500"]) {
      const a = await call(emu, path, emu.ownerToken);
      const b = await call(later, path, later.ownerToken);
      expect(b.text).toBe(a.text);
    }
    await later.close();
  });
});
