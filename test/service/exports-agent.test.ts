import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dpoRecord } from "../../src/formats/dpo.js";
import { checkTrajectory, rlRecord } from "../../src/formats/rl.js";
import { sftRecord, type SftRecord } from "../../src/formats/sft.js";
import type { RunningEmulator } from "../../src/service/index.js";
import { call, emulator, errorCode, keysOf, ndjsonLines, ownerRuns, seatsOf } from "./support.js";

let emu: RunningEmulator;
let keys: ReturnType<typeof keysOf>;
let primaryId: string;
/** SFT records of the primary key's scored runs among its 100 newest. */
let records: SftRecord[];
let unscored: { run_id: string; status: string }[];

beforeAll(async () => {
  emu = await emulator({ seed: 11 });
  keys = keysOf(emu);
  primaryId = emu.apiKeys[0]?.api_key_id ?? "";
  const runs: { run_id: string; status: string; scored: boolean }[] = (await call(emu, "/api/agent/runs", keys.primary)).json();
  unscored = runs.filter((r) => !r.scored);
  records = [];
  for (const r of runs.filter((x) => x.scored)) records.push(...(await call(emu, `/api/agent/runs/${r.run_id}/finetuning`, keys.primary)).json().records);
});
afterAll(() => emu.close());

/** Exactly the schema's fields: parsing strips undeclared ones, so equality means none were added. */
function expectSchema<T>(schema: { parse(v: unknown): T }, value: unknown): void {
  expect(schema.parse(value)).toEqual(value);
}

const composite = (r: SftRecord) => {
  const means = Object.values(r.scores?.per_trait ?? {}).map((t) => t.mean);
  return Math.round((means.reduce((s, m) => s + m, 0) / means.length) * 10_000) / 10_000;
};
const traced = () => records.filter((r) => r.reconstruction === "per_seat_trace");

describe("GET /api/agent/runs/{run_id}/finetuning (spec 4.8)", () => {
  it("answers {records} with the key's seat only, valid SFT 1.1, no manifest and no transcript", async () => {
    expect(records.length).toBeGreaterThan(20);
    for (const r of records) {
      expectSchema(sftRecord, r);
      expect(r.seat.agent_key_id).toBe(primaryId);
      expect(r.scored).toBe(true);
      expect(r.scorecard_version).toBeGreaterThanOrEqual(1);
      expect("manifest" in r).toBe(false);
      expect("transcript" in r).toBe(false);
    }
    const run = records[0]?.run_id;
    const withTranscript = (await call(emu, `/api/agent/runs/${run}/finetuning?include_transcript=true`, keys.primary)).json();
    expect("transcript" in withTranscript.records[0]).toBe(false);
    const bad = await call(emu, `/api/agent/runs/${run}/finetuning?include_transcript=perhaps`, keys.primary);
    expect(bad.status).toBe(400);
  });

  it("agrees with the scorecard of the same version", async () => {
    for (const r of records.slice(0, 15)) {
      const body = (await call(emu, `/api/agent/runs/${r.run_id}/scorecard`, keys.primary)).json();
      // The latest of the spec's `versions` (the strict emulator's cards carry no version of their own).
      expect(Math.max(...body.versions)).toBe(r.scorecard_version);
      const card = body.scorecards[0];
      expect(r.scores?.per_trait).toEqual(card.traits.per_trait);
      expect(r.scores?.win_conditions).toEqual(card.outcomes.win_conditions);
      expect(r.scores?.outcomes).toEqual({ met_count: card.outcomes.met_count, total_checks: card.outcomes.total_checks, total_actions: card.outcomes.total_actions });
      if (r.reconstruction === "per_seat_trace") expect(r.trace_steps.filter((s: any) => s.kind === "action")).toHaveLength(card.outcomes.total_actions);
      else expect(r.trace_steps).toEqual([]);
    }
  });

  it("409 conflict while not yet scored; 403 when not seated; 404 when unknown", async () => {
    expect(unscored.length).toBeGreaterThan(0);
    for (const r of unscored.slice(0, 5)) {
      const got = await call(emu, `/api/agent/runs/${r.run_id}/finetuning`, keys.primary);
      expect([got.status, errorCode(got)]).toEqual([409, "conflict"]);
    }
    const notSeated = await findNotSeated();
    const forbidden = await call(emu, `/api/agent/runs/${notSeated}/finetuning`, keys.primary);
    expect([forbidden.status, errorCode(forbidden)]).toEqual([403, "insufficient_scope"]);
    const missing = await call(emu, "/api/agent/runs/ffffffffffffffffffffffff/finetuning", keys.primary);
    expect([missing.status, errorCode(missing)]).toEqual([404, "not_found"]);
  });
});

describe("GET /api/agent/finetuning (spec 4.8, 8)", () => {
  it("streams NDJSON of scored runs where the key is seated, limit 50 by default", async () => {
    const got = await call(emu, "/api/agent/finetuning", keys.primary);
    expect(got.headers.get("content-type")).toBe("application/x-ndjson");
    const lines = ndjsonLines(got.text);
    expect(lines).toHaveLength(Math.min(50, lines.length));
    expect(lines.length).toBeGreaterThan(20);
    for (const line of lines) {
      expectSchema(sftRecord, line);
      expect(line.seat.agent_key_id).toBe(primaryId);
      expect(line.scored).toBe(true);
    }
    // The same records the single-run route gives, newest first.
    expect(lines.slice(0, 10)).toEqual(records.slice(0, 10));
  });

  it("takes limit from 1 up, clamps it at the platform cap, and rejects anything else with 400", async () => {
    expect(ndjsonLines((await call(emu, "/api/agent/finetuning?limit=3", keys.primary)).text)).toHaveLength(3);
    const capped = await startCapped();
    const lines = ndjsonLines((await call(capped, "/api/agent/finetuning?limit=100000", capped.apiKeys[0]?.api_key)).text);
    expect(lines).toHaveLength(7);
    await capped.close();
    for (const bad of ["0", "-5", "abc", "2.5"]) {
      const got = await call(emu, `/api/agent/finetuning?limit=${bad}`, keys.primary);
      expect([got.status, errorCode(got)]).toEqual([400, "validation_error"]);
    }
  });
});

describe("RL export (spec 4.9)", () => {
  it("answers valid RL 1.0 records: terminal reward on the last action step only, empty tuples without a per-seat trace", async () => {
    let empty = 0;
    for (const r of records) {
      const got = await call(emu, `/api/agent/runs/${r.run_id}/finetuning/rl`, keys.primary);
      if (r.reconstruction === "no_session") {
        expect([got.status, errorCode(got)]).toEqual([404, "not_found"]);
        continue;
      }
      expect(got.status).toBe(200);
      const [rl] = got.json().records;
      expectSchema(rlRecord, rl);
      expect(checkTrajectory(rl.tuples)).toBeNull();
      expect(rl.seat.agent_key_id).toBe(primaryId);
      expect(rl.scorecard_version).toBe(r.scorecard_version);
      if (rl.tuples.length === 0) empty++;
      else {
        const actions = rl.tuples.filter((t: any) => t.kind === "action");
        // A seat that never acted (far under the participation floor) has no terminal reward at all.
        if (actions.length > 0) expect(actions.at(-1).reward.terminal_reward).not.toBeNull();
        expect(rl.tuples.filter((t: any) => t.kind === "blocked_or_idle").every((t: any) => t.action === null)).toBe(true);
        const met = rl.tuples.flatMap((t: any) => t.reward.conditions_met).sort();
        expect(met).toEqual(r.scores?.win_conditions.filter((w) => w.met).map((w) => w.id).sort());
        expect(rl.outcome.dm_messages.length).toBeGreaterThan(0);
      }
    }
    expect(empty).toBeGreaterThan(0);
  });

  it("streams the bulk RL export as NDJSON", async () => {
    const got = await call(emu, "/api/agent/finetuning/rl?limit=10", keys.primary);
    expect(got.headers.get("content-type")).toBe("application/x-ndjson");
    const lines = ndjsonLines(got.text);
    expect(lines).toHaveLength(10);
    for (const line of lines) {
      expectSchema(rlRecord, line);
      expect(line.seat.agent_key_id).toBe(primaryId);
    }
  });

  it("403 without the rl_dpo_export entitlement, even on a run the key is seated in", async () => {
    const run = ((await call(emu, "/api/agent/runs", keys.partner)).json() as { run_id: string; scored: boolean }[]).find((r) => r.scored)?.run_id;
    expect((await call(emu, `/api/agent/runs/${run}/finetuning`, keys.partner)).status).toBe(200);
    for (const path of [`/api/agent/runs/${run}/finetuning/rl`, "/api/agent/finetuning/rl", `/api/agent/runs/${run}/dpo?other=${run}`, `/api/agent/finetuning/dpo?run_id_a=${run}&run_id_b=${run}`]) {
      const got = await call(emu, path, keys.partner);
      expect([got.status, errorCode(got)], path).toEqual([403, "insufficient_scope"]);
      expect(got.json().error.message).toContain("rl_dpo_export");
    }
  });
});

describe("DPO export (spec 4.10)", () => {
  function pairs(list = traced()) {
    const out: { a: SftRecord; b: SftRecord; tie: boolean }[] = [];
    for (const [i, a] of list.entries()) {
      for (const b of list.slice(i + 1)) {
        if (a.scenario.campaign_id !== b.scenario.campaign_id) continue;
        out.push({ a, b, tie: composite(a) === composite(b) && a.scores?.outcomes.met_count === b.scores?.outcomes.met_count });
      }
    }
    return out;
  }

  /** The pairs spec 4.10's `alignment: "step_index"` implies: step i against step i, wherever both seats acted. */
  function alignedSteps(chosen: SftRecord, rejected: SftRecord) {
    type Step = { index: number; action: { action_type: string; content: string | null } | null };
    const other = rejected.trace_steps as Step[];
    return (chosen.trace_steps as Step[]).flatMap((step) => {
      const against = other[step.index]?.action;
      return step.action === null || against == null ? [] : [{ index: step.index, chosen: step.action, rejected: against, alignment: "step_index" }];
    });
  }

  it("answers a valid pair for two scored runs of one scenario, preferring the higher composite, aligned by step index", async () => {
    const prefersA = (a: SftRecord, b: SftRecord) => composite(a) > composite(b) || (composite(a) === composite(b) && (a.scores?.outcomes.met_count ?? 0) > (b.scores?.outcomes.met_count ?? 0));
    const pair = pairs().find((p) => !p.tie && alignedSteps(p.a, p.b).length > 0);
    expect(pair).toBeDefined();
    const { a, b } = pair as { a: SftRecord; b: SftRecord };
    const byPath = await call(emu, `/api/agent/runs/${a.run_id}/dpo?other=${b.run_id}`, keys.primary);
    const byQuery = await call(emu, `/api/agent/finetuning/dpo?run_id_a=${a.run_id}&run_id_b=${b.run_id}`, keys.primary);
    expect(byPath.status).toBe(200);
    expect(byQuery.text).toBe(byPath.text);
    const [record] = byPath.json().records;
    expectSchema(dpoRecord, record);
    const [chosen, rejected] = prefersA(a, b) ? [a, b] : [b, a];
    expect(record).toMatchObject({ run_chosen: chosen.run_id, run_rejected: rejected.run_id, seat_index: a.seat.seat_index });
    expect(record.scoring_basis.composite_delta).toBeCloseTo(composite(chosen) - composite(rejected), 4);
    expect(record.scoring_basis.objective_delta).toBe((chosen.scores?.outcomes.met_count ?? 0) - (rejected.scores?.outcomes.met_count ?? 0));
    expect(record.pairs).toEqual(alignedSteps(chosen, rejected));
  });

  it("409 on a tie (same met_count and composite mean), including a run against itself", async () => {
    // Ties are rare: look for one among all of the key's scored runs, not only the newest hundred.
    const all = ndjsonLines((await call(emu, "/api/evals/finetuning?limit=500", keys.owner)).text) as SftRecord[];
    const mine = all.filter((r) => r.scored && r.reconstruction === "per_seat_trace" && r.seat.agent_key_id === primaryId);
    const tie = pairs(mine).find((p) => p.tie);
    expect(tie, "the seeded world should contain a tie").toBeDefined();
    const got = await call(emu, `/api/agent/runs/${tie?.a.run_id}/dpo?other=${tie?.b.run_id}`, keys.primary);
    expect([got.status, errorCode(got)]).toEqual([409, "conflict"]);
    const self = records[0]?.run_id;
    const same = await call(emu, `/api/agent/runs/${self}/dpo?other=${self}`, keys.primary);
    expect(same.status).toBe(409);
  });

  it("400 for different scenarios or a run without a per-seat trace; 409 when not yet scored", async () => {
    const list = traced();
    const other = list.find((r) => r.scenario.campaign_id !== list[0]?.scenario.campaign_id);
    const mismatch = await call(emu, `/api/agent/runs/${list[0]?.run_id}/dpo?other=${other?.run_id}`, keys.primary);
    expect([mismatch.status, errorCode(mismatch)]).toEqual([400, "validation_error"]);

    const untraced = records.find((r) => r.reconstruction !== "per_seat_trace" && list.some((t) => t.scenario.campaign_id === r.scenario.campaign_id));
    const partner = list.find((t) => t.scenario.campaign_id === untraced?.scenario.campaign_id);
    const provenance = await call(emu, `/api/agent/runs/${partner?.run_id}/dpo?other=${untraced?.run_id}`, keys.primary);
    expect([provenance.status, errorCode(provenance)]).toEqual([400, "validation_error"]);

    const campaigns = new Map((await ownerRuns(emu)).map((r) => [r.run_id, r.campaign_id]));
    const match = unscored
      .map((u) => ({ u, t: list.find((r) => r.scenario.campaign_id === campaigns.get(u.run_id)) }))
      .find((x) => x.t !== undefined);
    expect(match).toBeDefined();
    const pending = await call(emu, `/api/agent/runs/${match?.t?.run_id}/dpo?other=${match?.u.run_id}`, keys.primary);
    expect([pending.status, errorCode(pending)]).toEqual([409, "conflict"]);
  });

  it("400 for a missing or over-long parameter, 403 when not seated in either run, 404 for a missing run", async () => {
    const run = records[0]?.run_id;
    for (const path of [`/api/agent/runs/${run}/dpo`, `/api/agent/runs/${run}/dpo?other=${"x".repeat(65)}`, `/api/agent/finetuning/dpo?run_id_a=${run}`]) {
      const got = await call(emu, path, keys.primary);
      expect([got.status, errorCode(got)], path).toEqual([400, "validation_error"]);
    }
    const notSeated = await findNotSeated();
    const forbidden = await call(emu, `/api/agent/finetuning/dpo?run_id_a=${run}&run_id_b=${notSeated}`, keys.primary);
    expect([forbidden.status, errorCode(forbidden)]).toEqual([403, "insufficient_scope"]);
    const missing = await call(emu, `/api/agent/runs/${run}/dpo?other=ffffffffffffffffffffffff`, keys.primary);
    expect([missing.status, errorCode(missing)]).toEqual([404, "not_found"]);
  });
});

async function findNotSeated(): Promise<string> {
  for (const r of await ownerRuns(emu)) {
    if (!(await seatsOf(emu, r.run_id)).some((s) => s.agent_key_id === primaryId)) return r.run_id;
  }
  throw new Error("every run seats the primary key");
}

function startCapped() {
  return emulator({ seed: 11, platform: { agentExportLimitCap: 7 } });
}
