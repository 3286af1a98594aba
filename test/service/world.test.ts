import { describe, expect, it } from "vitest";
import { IdCodec } from "../../src/service/opaque-id.js";
import { startEmulator } from "../../src/service/index.js";
import { call, emulator, keysOf, ndjsonLines, ownerRuns } from "./support.js";

describe("opaque identifiers", () => {
  it("round-trip, look random, and reject foreign or forged ids", () => {
    const runs = new IdCodec(7, "run");
    for (const n of [0, 1, 2, 99_999, 2 ** 40]) {
      const id = runs.encode(n);
      expect(id).toMatch(/^[0-9a-f]{24}$/);
      expect(runs.decode(id)).toBe(n);
      expect(new IdCodec(7, "batch").decode(id)).toBeNull();
      expect(new IdCodec(8, "run").decode(id)).toBeNull();
      expect(runs.decode(id.slice(0, 23) + (id.endsWith("0") ? "1" : "0"))).toBeNull();
    }
    expect(runs.encode(1).slice(0, 8)).not.toBe(runs.encode(2).slice(0, 8));
    for (const bad of ["", "xyz", "A".repeat(24), "0".repeat(25)]) expect(runs.decode(bad)).toBeNull();
  });
});

describe("the seeded world", () => {
  it("spreads runs over every state at epoch 0, and seats both agent and aic pilots", async () => {
    const emu = await emulator({ seed: 4, runs: 1000 });
    const runs = await ownerRuns(emu);
    const share = (pred: (r: (typeof runs)[number]) => boolean) => runs.filter(pred).length / runs.length;
    expect(share((r) => r.scored)).toBeGreaterThan(0.4);
    expect(share((r) => r.status === "completed" && !r.scored)).toBeGreaterThan(0.03);
    expect(share((r) => r.status === "running")).toBeGreaterThan(0.03);
    expect(share((r) => r.status === "pending")).toBeGreaterThan(0.03);
    expect(share((r) => r.status === "failed")).toBeGreaterThan(0);
    const records = ndjsonLines((await call(emu, "/api/evals/finetuning?limit=500", emu.ownerToken)).text);
    const pilots = new Set(records.map((r) => (r.seat.agent_key_id === null ? "aic" : "agent")));
    expect(pilots).toEqual(new Set(["agent", "aic"]));
    await emu.close();
  });

  it("takes its participation floors from the platform configuration", async () => {
    const lenient = await emulator({ seed: 5, platform: { minPlayerMessages: 0, minActionsPerTurn: 0 } });
    for (const r of (await ownerRuns(lenient)).filter((x) => x.scored).slice(0, 60)) {
      const { scorecards } = (await call(lenient, `/api/evals/${r.run_id}/scorecard`, lenient.ownerToken)).json();
      for (const card of scorecards) expect("participation_gated" in card).toBe(false);
    }
    await lenient.close();
  });
});

describe("a large world (spec: up to at least 100,000 runs)", () => {
  it("starts at once with little memory and serves any run on demand", async () => {
    const heapBefore = process.memoryUsage().heapUsed;
    const started = performance.now();
    const emu = await startEmulator({ runs: 100_000, seed: 12 });
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(20 * 1024 * 1024);
    const keys = keysOf(emu);
    const newest = (await call(emu, "/api/agent/runs", keys.primary)).json();
    expect(newest).toHaveLength(100);
    const lines = ndjsonLines((await call(emu, "/api/agent/finetuning?limit=200", keys.primary)).text);
    expect(lines).toHaveLength(200);
    const all = await ownerRuns(emu);
    expect(all.length).toBeGreaterThan(80_000);
    const oldest = all.at(-1)?.run_id;
    expect((await call(emu, `/api/evals/${oldest}/finetuning`, emu.ownerToken)).status).toBe(200);
    await emu.close();
  });
});
