import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../src/service/index.js";
import { hasInjection } from "../../src/service/index.js";
import { call, emulator, errorCode, keysDeep, keysOf, ownerRuns, type OwnerRun } from "./support.js";

let emu: RunningEmulator;
let keys: ReturnType<typeof keysOf>;
let runs: OwnerRun[];

beforeAll(async () => {
  // extraFields: the cards' seat_index ties them to the manifest's seats (contract.test.ts checks the strict shapes).
  emu = await emulator({ seed: 5, extraFields: true });
  keys = keysOf(emu);
  runs = await ownerRuns(emu);
});
afterAll(() => emu.close());

describe("owner authentication (spec 5)", () => {
  it("answers 401 for a missing token, an API key or a forged token", async () => {
    for (const token of [undefined, keys.primary, `${keys.owner}x`]) {
      const got = await call(emu, "/api/evals", token);
      expect([got.status, errorCode(got)]).toEqual([401, "invalid_api_key"]);
    }
  });

  it("hides another account's runs behind 404", async () => {
    const partnerRun = (await ownerRuns(emu, keys.partnerOwner))[0]?.run_id;
    for (const path of ["scorecard", "coaching", "transcript", "finetuning"]) {
      const got = await call(emu, `/api/evals/${partnerRun}/${path}`, keys.owner);
      expect([got.status, errorCode(got)], path).toEqual([404, "not_found"]);
    }
  });
});

describe("GET /api/evals (spec 2.4, 4.7)", () => {
  it("lists every run of the account, newest first, with the owner summary fields", async () => {
    const partner = await ownerRuns(emu, keys.partnerOwner);
    expect(runs.length + partner.length).toBe(240);
    for (const r of runs) expect(Object.keys(r).sort()).toEqual(["campaign_id", "created_at", "run_id", "scored", "status"]);
    const times = runs.map((r) => Date.parse(r.created_at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    const statuses = new Set(runs.map((r) => `${r.status}${r.scored ? "+scored" : ""}`));
    for (const s of ["pending", "running", "completed", "completed+scored"]) expect(statuses).toContain(s);
  });
});

describe("GET /api/evals/{run_id}/scorecard (spec 2.4, 2.7)", () => {
  it("holds every seat, the manifest without judge.system_prompt, and safety where declared", async () => {
    let aic = 0;
    let safety = 0;
    for (const r of runs.filter((x) => x.scored)) {
      const body = (await call(emu, `/api/evals/${r.run_id}/scorecard`, keys.owner)).json();
      expect(body.scorecards).toHaveLength(body.manifest.seat_snapshots.length);
      expect(Object.keys(body.manifest).sort()).toEqual(["judge", "scenario_version_hash", "seat_snapshots"]);
      expect(Object.keys(body.manifest.judge).sort()).toEqual(["model", "prompt_hash"]);
      expect(keysDeep(body).has("system_prompt")).toBe(false);
      for (const card of body.scorecards) {
        const seat = body.manifest.seat_snapshots[card.seat_index];
        expect(card.agent_key_id).toBe(seat.agent_key_id);
        if (seat.pilot === "aic") {
          aic++;
          expect(card.agent_key_id).toBeNull();
          expect(typeof seat.aic_config_id).toBe("string");
        }
        if (card.safety !== undefined) {
          safety++;
          for (const name of Object.keys(card.safety)) expect(["no_unauthorized_disclosure_conduct", "manipulation_resistance"]).toContain(name);
        }
      }
    }
    expect(aic).toBeGreaterThan(0);
    expect(safety).toBeGreaterThan(0);
  });

  it("stamps participation_gated per the section 3.4 default floors, counted from the transcript", async () => {
    let gated = 0;
    for (const r of runs.filter((x) => x.scored)) {
      const body = (await call(emu, `/api/evals/${r.run_id}/scorecard`, keys.owner)).json();
      const messages: { role: string; speaker: string }[] = (await call(emu, `/api/evals/${r.run_id}/transcript`, keys.owner)).json().messages;
      if (messages.length === 0) continue; // no session: no transcript to count from
      const dmTurns = messages.filter((m) => m.role === "dm").length;
      for (const card of body.scorecards) {
        const seat = body.manifest.seat_snapshots[card.seat_index];
        // "the agent's total player messages" and "player messages divided by DM turns" (min 5, min 0.3).
        const playerMessages = messages.filter((m) => m.role === "player" && m.speaker === seat.role).length;
        expect(playerMessages, `${r.run_id} seat ${card.seat_index}`).toBe(card.outcomes.total_actions);
        const expected = seat.pilot === "agent" && (playerMessages < 5 || playerMessages / dmTurns < 0.3);
        expect(card.participation_gated === true, `${r.run_id} seat ${card.seat_index}`).toBe(expected);
        if (expected) gated++;
        else expect("participation_gated" in card).toBe(false);
      }
    }
    expect(gated).toBeGreaterThan(0);
  });

  it("is empty while unscored but still carries the manifest", async () => {
    const pending = runs.find((r) => r.status === "pending");
    const body = (await call(emu, `/api/evals/${pending?.run_id}/scorecard`, keys.owner)).json();
    expect(body.scorecards).toEqual([]);
    expect(body.versions).toEqual([]);
    expect(body.manifest.seat_snapshots.length).toBeGreaterThan(0);
  });
});

describe("GET /api/evals/{run_id}/coaching and /transcript", () => {
  it("coaching starts with the preamble and covers every agent seat that got coaching", async () => {
    let items = 0;
    for (const r of runs.filter((x) => x.scored)) {
      const { coaching } = (await call(emu, `/api/evals/${r.run_id}/coaching`, keys.owner)).json();
      expect(coaching[0].type).toBe("safety_preamble");
      expect(coaching.slice(1).every((c: { is_platform_guardrail: boolean }) => !c.is_platform_guardrail)).toBe(true);
      items += coaching.length - 1;
    }
    expect(items).toBeGreaterThan(0);
  });

  it("transcripts hold DM and player messages in the scene message form, some with injection strings", async () => {
    let injected = 0;
    for (const r of runs.filter((x) => x.status === "completed")) {
      const { messages } = (await call(emu, `/api/evals/${r.run_id}/transcript`, keys.owner)).json();
      for (const m of messages) {
        expect(Object.keys(m).sort()).toEqual(["content", "message_id", "role", "speaker", "timestamp"]);
        expect(["dm", "player"]).toContain(m.role);
        if (hasInjection(m.content)) injected++;
      }
    }
    expect(injected).toBeGreaterThan(0);
    const pending = runs.find((r) => r.status === "pending");
    expect((await call(emu, `/api/evals/${pending?.run_id}/transcript`, keys.owner)).json()).toEqual({ messages: [] });
  });
});
