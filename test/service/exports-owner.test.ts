import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dpoRecord } from "../../src/formats/dpo.js";
import { checkTrajectory, rlRecord } from "../../src/formats/rl.js";
import { sftRecord } from "../../src/formats/sft.js";
import type { RunningEmulator } from "../../src/service/index.js";
import { hasInjection } from "../../src/service/index.js";
import { call, emulator, errorCode, keysDeep, keysOf, ndjsonLines, ownerRuns, type OwnerRun } from "./support.js";

let emu: RunningEmulator;
let keys: ReturnType<typeof keysOf>;
let runs: OwnerRun[];
/** The whole owner SFT bulk export (all completed runs, at most 500). */
let bulk: any[];

beforeAll(async () => {
  emu = await emulator({ seed: 5 });
  keys = keysOf(emu);
  runs = await ownerRuns(emu);
  bulk = ndjsonLines((await call(emu, "/api/evals/finetuning?limit=500", keys.owner)).text);
});
afterAll(() => emu.close());

function expectSchema<T>(schema: { parse(v: unknown): T }, value: unknown): void {
  expect(schema.parse(value)).toEqual(value);
}

describe("GET /api/evals/finetuning (spec 4.8)", () => {
  it("never sends judge.system_prompt, not even as text", async () => {
    expect((await call(emu, "/api/evals/finetuning?limit=500", keys.owner)).text).not.toContain("system_prompt");
    for (const r of runs.slice(0, 40)) expect((await call(emu, `/api/evals/${r.run_id}/scorecard`, keys.owner)).text).not.toContain("system_prompt");
  });

  it("streams every seat of each completed run, newest first, with the manifest and never a transcript", async () => {
    const completed = runs.filter((r) => r.status === "completed").map((r) => r.run_id);
    const inStream = [...new Set(bulk.map((r) => r.run_id))];
    expect(inStream).toEqual(completed);
    for (const r of bulk) {
      expectSchema(sftRecord, r);
      expect(r.manifest).toBeDefined();
      expect("transcript" in r).toBe(false);
      expect(keysDeep(r).has("system_prompt")).toBe(false);
    }
    expect(bulk.some((r) => r.seat.agent_key_id === null)).toBe(true);
  });

  it("carries the cases a pipeline must handle: unscored, flagged, every reconstruction, rescored, injections", () => {
    const unscored = bulk.filter((r) => !r.scored);
    expect(unscored.length).toBeGreaterThan(0);
    for (const r of unscored) expect([r.scores, r.coaching, r.scorecard_version]).toEqual([null, null, 0]);
    expect(bulk.some((r) => r.flagged)).toBe(true);
    expect(bulk.some((r) => r.scorecard_version > 1)).toBe(true);
    const share = (value: string) => bulk.filter((r) => r.reconstruction === value).length / bulk.length;
    expect(share("per_seat_trace")).toBeGreaterThan(0.6);
    expect(share("attribution_unavailable")).toBeGreaterThan(0.03);
    expect(share("no_session")).toBeGreaterThan(0.01);
    for (const r of bulk.filter((x) => x.reconstruction !== "per_seat_trace")) expect(r.trace_steps).toEqual([]);
    expect(bulk.some((r) => r.coaching !== null && hasInjection(r.coaching.guidance))).toBe(true);
    expect(bulk.some((r) => r.scores?.win_conditions.some((w: { description: string }) => hasInjection(w.description)))).toBe(true);
  });

  it("takes limit 1 to 500 (default 50 runs) and campaign_id; 400 outside the range", async () => {
    const runsIn = (text: string) => new Set(ndjsonLines(text).map((r) => r.run_id)).size;
    expect(runsIn((await call(emu, "/api/evals/finetuning", keys.owner)).text)).toBe(50);
    expect(runsIn((await call(emu, "/api/evals/finetuning?limit=1", keys.owner)).text)).toBe(1);
    for (const bad of ["0", "501", "x", "-1"]) {
      const got = await call(emu, `/api/evals/finetuning?limit=${bad}`, keys.owner);
      expect([got.status, errorCode(got)]).toEqual([400, "validation_error"]);
    }
    const campaign = bulk[0].scenario.campaign_id;
    const filtered = ndjsonLines((await call(emu, `/api/evals/finetuning?limit=500&campaign_id=${campaign}`, keys.owner)).text);
    expect(filtered).toEqual(bulk.filter((r) => r.scenario.campaign_id === campaign));
    expect((await call(emu, "/api/evals/finetuning?campaign_id=unknown", keys.owner)).text).toBe("");
  });
});

describe("GET /api/evals/{run_id}/finetuning (spec 4.8)", () => {
  it("answers every seat; include_transcript adds the transcript", async () => {
    const run = bulk.find((r) => r.scored && r.reconstruction === "per_seat_trace").run_id;
    const plain = (await call(emu, `/api/evals/${run}/finetuning`, keys.owner)).json().records;
    expect(plain).toEqual(bulk.filter((r) => r.run_id === run));
    const full = (await call(emu, `/api/evals/${run}/finetuning?include_transcript=true`, keys.owner)).json().records;
    for (const r of full) {
      expectSchema(sftRecord, r);
      expect(r.transcript.length).toBeGreaterThan(0);
    }
  });

  it("409 for a run that has not completed", async () => {
    const pending = runs.find((r) => r.status === "pending");
    const got = await call(emu, `/api/evals/${pending?.run_id}/finetuning`, keys.owner);
    expect([got.status, errorCode(got)]).toEqual([409, "conflict"]);
  });
});

describe("owner RL export (spec 4.9)", () => {
  it("streams every seat of scored runs with RL data, each a valid trajectory", async () => {
    const got = await call(emu, "/api/evals/finetuning/rl?limit=40", keys.owner);
    expect(got.headers.get("content-type")).toBe("application/x-ndjson");
    const lines = ndjsonLines(got.text);
    expect(new Set(lines.map((r) => r.run_id)).size).toBe(40);
    for (const r of lines) {
      expectSchema(rlRecord, r);
      expect(checkTrajectory(r.tuples)).toBeNull();
      expect(r.scored).toBe(true);
      expect(r.reconstruction).not.toBe("no_session");
    }
    expect(lines.some((r) => r.tuples.some((t: any) => t.state.transcript_window.some((m: any) => hasInjection(m.content))))).toBe(true);
    expect(lines.some((r) => r.outcome.dm_messages.some((m: string) => hasInjection(m)))).toBe(true);
  });

  it("single run: 409 unscored, 404 without RL data, 403 for an account without rl_dpo_export", async () => {
    const unscored = bulk.find((r) => !r.scored).run_id;
    const conflict = await call(emu, `/api/evals/${unscored}/finetuning/rl`, keys.owner);
    expect([conflict.status, errorCode(conflict)]).toEqual([409, "conflict"]);
    const noSession = bulk.find((r) => r.scored && r.reconstruction === "no_session").run_id;
    const missing = await call(emu, `/api/evals/${noSession}/finetuning/rl`, keys.owner);
    expect([missing.status, errorCode(missing)]).toEqual([404, "not_found"]);
    const scored = bulk.find((r) => r.scored && r.reconstruction === "per_seat_trace").run_id;
    const ok = (await call(emu, `/api/evals/${scored}/finetuning/rl`, keys.owner)).json().records;
    expect(ok.length).toBe(bulk.filter((r) => r.run_id === scored).length);
    const partnerRun = (await ownerRuns(emu, keys.partnerOwner)).find((r) => r.scored)?.run_id;
    for (const path of [`/api/evals/${partnerRun}/finetuning/rl`, "/api/evals/finetuning/rl", `/api/evals/dpo?run_id_a=${partnerRun}&run_id_b=${partnerRun}`]) {
      const got = await call(emu, path, keys.partnerOwner);
      expect([got.status, errorCode(got)], path).toEqual([403, "insufficient_scope"]);
    }
  });
});

describe("owner DPO export (spec 4.10)", () => {
  it("answers one record per non-tied agent seat, by path and by query", async () => {
    const traced = bulk.filter((r) => r.scored && r.reconstruction === "per_seat_trace" && r.seat.seat_index === 0);
    let answered = 0;
    for (const [i, a] of traced.entries()) {
      const b = traced.slice(i + 1).find((x) => x.scenario.campaign_id === a.scenario.campaign_id);
      if (b === undefined) continue;
      const byPath = await call(emu, `/api/evals/${a.run_id}/dpo?other=${b.run_id}`, keys.owner);
      const byQuery = await call(emu, `/api/evals/dpo?run_id_a=${a.run_id}&run_id_b=${b.run_id}`, keys.owner);
      expect(byQuery.text).toBe(byPath.text);
      if (byPath.status === 409) continue;
      expect(byPath.status).toBe(200);
      const records = byPath.json().records;
      for (const r of records) {
        expectSchema(dpoRecord, r);
        expect(new Set([r.run_chosen, r.run_rejected])).toEqual(new Set([a.run_id, b.run_id]));
        expect(r.scoring_basis.composite_delta).toBeGreaterThanOrEqual(0);
      }
      const agentSeats = bulk.filter((x) => x.run_id === a.run_id && x.seat.agent_key_id !== null).length;
      expect(records.length).toBeLessThanOrEqual(agentSeats);
      answered++;
    }
    expect(answered).toBeGreaterThan(3);
  });
});
