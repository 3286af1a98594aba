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

describe("a tiny world", () => {
  it.each([1, 2, 7])("%i run(s): every route answers every run without a server error", async (runs) => {
    const emu = await startEmulator({ runs, seed: 2 });
    const keys = keysOf(emu);
    const all = [...(await ownerRuns(emu)), ...(await ownerRuns(emu, keys.partnerOwner))];
    expect(all).toHaveLength(runs);
    const statuses = new Set<number>();
    const hit = async (path: string, token: string) => {
      const got = await call(emu, path, token);
      statuses.add(got.status);
      expect(got.status, `${path} ${got.text.slice(0, 200)}`).toBeLessThan(500);
      if (got.headers.get("content-type") === "application/x-ndjson") ndjsonLines(got.text);
      else got.json();
    };
    for (const token of [keys.owner, keys.partnerOwner]) {
      for (const path of ["/api/evals", "/api/evals/finetuning", "/api/evals/finetuning/rl", "/api/api-keys"]) await hit(path, token);
    }
    for (const key of [keys.primary, keys.playOnly, keys.partner, keys.scoresOnly]) {
      for (const path of ["/api/agent/runs", "/api/agent/batches", "/api/agent/finetuning", "/api/agent/finetuning/rl", "/api/agent/suites"]) await hit(path, key);
    }
    for (const r of all) {
      for (const token of [keys.owner, keys.partnerOwner]) {
        for (const path of ["scorecard", "coaching", "transcript", "finetuning", "finetuning/rl", `dpo?other=${all[0]?.run_id}`]) await hit(`/api/evals/${r.run_id}/${path}`, token);
      }
      for (const key of [keys.primary, keys.partner]) {
        for (const path of ["status", "scorecard", "coaching", "finetuning", "finetuning/rl", `dpo?other=${all[0]?.run_id}`]) await hit(`/api/agent/runs/${r.run_id}/${path}`, key);
      }
    }
    expect(statuses.has(200)).toBe(true);
    await emu.close();
  });
});

describe("a large world (issue: --runs up to at least 100,000, generated lazily)", () => {
  it("1,000,000 runs start at once in a few MB, and requests touch only the runs they answer", async () => {
    // An eager world would build every run first. Measured on the build machine, making the plans and
    // states of 1,000,000 runs takes 2.4 s, and holding them takes 138 MB per 100,000 runs (1.4 GB in
    // all), so neither bound below can pass with one; the lazy world starts in ~10 ms and 0.2 MB.
    const heapBefore = process.memoryUsage().heapUsed;
    const started = performance.now();
    const emu = await startEmulator({ runs: 1_000_000, seed: 12 });
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(64 * 1024 * 1024);

    const keys = keysOf(emu);
    const timed = async (path: string, token: string) => {
      const t0 = performance.now();
      const got = await call(emu, path, token);
      return { ...got, ms: performance.now() - t0 };
    };
    // Bulk exports and lists stop after their limit: a scan of every run would take seconds.
    for (const [path, token] of [
      ["/api/agent/finetuning?limit=200", keys.primary],
      ["/api/agent/finetuning/rl?limit=200", keys.primary],
      ["/api/agent/finetuning?limit=200", keys.partner],
      ["/api/agent/finetuning?limit=200", keys.scoresOnly],
      ["/api/agent/runs", keys.primary],
      ["/api/agent/batches", keys.primary],
      ["/api/evals/finetuning?limit=500", keys.owner],
    ] as const) {
      const got = await timed(path, token);
      expect(got.status, path).toBe(200);
      expect(got.ms, path).toBeLessThan(2_000);
    }
    expect((await call(emu, "/api/agent/batches", keys.primary)).json().batches).toHaveLength(100);
    // The oldest run is as near as the newest.
    const oldest = new IdCodec(12, "run").encode(0);
    const answers = await Promise.all([timed(`/api/evals/${oldest}/finetuning`, keys.owner), timed(`/api/evals/${oldest}/finetuning`, keys.partnerOwner)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 404]);
    for (const a of answers) expect(a.ms).toBeLessThan(2_000);
    await emu.close();
  });

  it("100,000 runs: every run of the account is listed and served", async () => {
    const emu = await startEmulator({ runs: 100_000, seed: 12 });
    const keys = keysOf(emu);
    expect((await call(emu, "/api/agent/runs", keys.primary)).json()).toHaveLength(100);
    expect(ndjsonLines((await call(emu, "/api/agent/finetuning?limit=200", keys.primary)).text)).toHaveLength(200);
    const all = await ownerRuns(emu);
    const partner = await ownerRuns(emu, keys.partnerOwner);
    expect(all.length + partner.length).toBe(100_000);
    const oldest = all.at(-1)?.run_id;
    expect((await call(emu, `/api/evals/${oldest}/finetuning`, emu.ownerToken)).status).toBe(200);
    await emu.close();
  });
});

describe("starting", () => {
  it("rejects with the server's error when the port is taken", async () => {
    const first = await startEmulator({ runs: 10 });
    try {
      await expect(startEmulator({ runs: 10, port: Number(new URL(first.url).port) })).rejects.toMatchObject({ code: "EADDRINUSE" });
    } finally {
      await first.close();
    }
  });
});
