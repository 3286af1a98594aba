import { describe, expect, it } from "vitest";
import { BadRequestError, ConflictError, type ServiceClient } from "../../src/http/index.js";
import { httpSource, type PullEvent } from "../../src/pull/index.js";
import { tempDir } from "../helpers/temp-dir.js";
import { clientFor, emulator, listed, readAll, source } from "./support.js";

interface Card {
  agent_key_id: string | null;
  participation_gated?: boolean;
  traits: { per_trait: Record<string, { mean: number }> };
}

describe("httpSource: DPO pairs", async () => {
  const emu = await emulator({ seed: 31, runs: 220 });
  const owner = clientFor(emu, "owner");
  const runs = (await listed(owner)).filter((r) => r.scored);

  // The candidates, computed here from the per-run routes: scored, unflagged, ungated, ranked by composite.
  const byCampaign = new Map<string, { runId: string; composite: number }[]>();
  const excluded = new Set<string>();
  for (const run of runs) {
    const { records } = await owner.getJson<{ records: { flagged: boolean; reconstruction: string }[] }>(`/api/evals/${run.run_id}/finetuning`);
    const { scorecards } = await owner.getJson<{ scorecards: Card[] }>(`/api/evals/${run.run_id}/scorecard`);
    if (records.some((r) => r.flagged || r.reconstruction !== "per_seat_trace") || scorecards.some((c) => c.participation_gated === true)) {
      excluded.add(run.run_id);
      continue;
    }
    const seats = scorecards.filter((c) => c.agent_key_id !== null).map((c) => Object.values(c.traits.per_trait).map((t) => t.mean));
    const composite = seats.map((m) => m.reduce((s, x) => s + x, 0) / m.length).reduce((s, x) => s + x, 0) / seats.length;
    const group = byCampaign.get(run.campaign_id as string) ?? [];
    group.push({ runId: run.run_id, composite });
    byCampaign.set(run.campaign_id as string, group);
  }
  const ranked = [...byCampaign.values()].map((g) => [...g].sort((a, b) => b.composite - a.composite));

  /** Pulls and returns the lines, the pairs asked for, and the report. */
  async function pull(options: Parameters<typeof source>[1]) {
    const events: PullEvent[] = [];
    const src = source(emu, { ...options, onEvent: (e) => events.push(e) });
    const lines = await readAll(src);
    const pairs = events.flatMap((e) => (e.type === "pair" ? [[e.runIdA, e.runIdB] as const] : []));
    return { lines, pairs, report: src.report(), src };
  }

  it("best-worst: one pair per scenario, highest composite against lowest", async () => {
    const { lines, pairs, report } = await pull({ auth: "owner", format: "dpo", dpo: { strategy: "best-worst" } });
    const expected = ranked.filter((g) => g.length >= 2).map((g) => [g[0]?.composite, g.at(-1)?.composite]);
    expect(pairs.length).toBe(expected.length);
    const composite = new Map([...byCampaign.values()].flat().map((c) => [c.runId, c.composite]));
    expect(pairs.map(([a, b]) => [composite.get(a), composite.get(b)]).sort()).toEqual(expected.sort());
    expect(report.pairs.planned).toBe(pairs.length);
    expect(report.pairs.fetched + report.pairs.ties + report.pairs.deferred + report.pairs.errors.length).toBe(report.pairs.planned);
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) {
      const r = JSON.parse(line) as { dpo_format_version: string; run_chosen: string; run_rejected: string };
      expect(r.dpo_format_version).toBe("1.0");
      expect(excluded.has(r.run_chosen) || excluded.has(r.run_rejected)).toBe(false);
    }
  });

  it("adjacent: neighbours in composite order; ties (409) are skipped and counted", async () => {
    const { pairs, report } = await pull({ auth: "owner", format: "dpo", dpo: { strategy: "adjacent" } });
    expect(pairs.length).toBe(ranked.reduce((s, g) => s + Math.max(0, g.length - 1), 0));
    expect(report.pairs.ties).toBeGreaterThan(0);
    expect(report.pairs.fetched + report.pairs.ties).toBe(pairs.length);
  });

  it("all: every pair up to the cap per scenario", async () => {
    const { pairs, report } = await pull({ auth: "owner", format: "dpo", dpo: { strategy: "all", maxPairsPerScenario: 40 } });
    expect(pairs.length).toBe(ranked.reduce((s, g) => s + Math.min(40, (g.length * (g.length - 1)) / 2), 0));
    // Runs without a per-seat trace are never paired, so no pair meets 400 "provenance missing".
    expect(report.pairs.errors).toEqual([]);
    const capped = await pull({ auth: "owner", format: "dpo", dpo: { strategy: "all" } });
    expect(capped.pairs.length).toBe(ranked.reduce((s, g) => s + Math.min(10, (g.length * (g.length - 1)) / 2), 0));
  });

  it("pair order and lines are deterministic", async () => {
    const a = await pull({ auth: "owner", format: "dpo", dpo: { strategy: "all" } });
    const b = await pull({ auth: "owner", format: "dpo", dpo: { strategy: "all" } });
    expect(b.lines).toEqual(a.lines);
    expect(await b.src.info()).toEqual(await a.src.info());
  });

  it("partitions by scenario: N=3 jobs are disjoint and cover the single job", async () => {
    const single = await pull({ auth: "owner", format: "dpo", dpo: { strategy: "all" } });
    const parts = await Promise.all([0, 1, 2].map((index) => pull({ auth: "owner", format: "dpo", dpo: { strategy: "all" }, partition: { index, count: 3 } })));
    const union = parts.flatMap((p) => p.lines);
    expect(union.length).toBe(single.lines.length);
    expect(new Set(union)).toEqual(new Set(single.lines));
    expect(parts.flatMap((p) => p.pairs).length).toBe(single.pairs.length);
  });

  it("agent key: pairs of the key's own seat", async () => {
    const { lines, report } = await pull({ auth: "agent", format: "dpo", dpo: { strategy: "adjacent" } });
    expect(report.pairs.planned).toBeGreaterThan(0);
    expect(lines.length).toBe(report.pairs.fetched);
  });
});

describe("httpSource: DPO answers that are not records", async () => {
  const emu = await emulator({ seed: 31, runs: 220 });
  const dir = tempDir();
  const init = (path: string, status: number, serverMessage: string) => ({ status, code: "x", method: "GET", path, attempts: 1, serverMessage, detail: undefined });

  /** The owner client, but the DPO request of a scripted pair (`a>b`) throws what its answer makes. */
  function scripted(answers: Map<string, (path: string) => Error>): ServiceClient {
    const real = clientFor(emu, "owner");
    return {
      ...real,
      getNdjson(path, query) {
        const answer = path === "/api/evals/dpo" ? answers.get(`${query?.run_id_a}>${query?.run_id_b}`) : undefined;
        if (answer === undefined) return real.getNdjson(path, query);
        return (async function* () {
          yield* [];
          throw answer(path);
        })();
      },
    } as ServiceClient;
  }

  /** A pull with the real client, and three pairs it fetched. */
  async function baseline() {
    const fetched: string[] = [];
    const src = source(emu, { auth: "owner", format: "dpo", dpo: { strategy: "adjacent" }, onEvent: (e) => e.type === "pair" && e.outcome === "fetched" && fetched.push(`${e.runIdA}>${e.runIdB}`) });
    await readAll(src);
    expect(fetched.length).toBeGreaterThanOrEqual(3);
    return { report: src.report(), fetched: fetched.sort() };
  }

  it("a 409 tie is skipped and counted, a 409 not-scored deferred, a 400 counted as an error, none thrown", async () => {
    const base = await baseline();
    const [tie, later, mismatch] = base.fetched as [string, string, string];
    const client = scripted(
      new Map([
        [tie, (p: string) => new ConflictError(init(p, 409, "Equal scores"), "tie")],
        [later, (p: string) => new ConflictError(init(p, 409, "not yet scored"), "not_scored")],
        [mismatch, (p: string) => new BadRequestError(init(p, 400, "Scenario mismatch"))],
      ]),
    );
    const src = httpSource({ client, auth: "owner", format: "dpo", spoolDir: dir, dpo: { strategy: "adjacent" } });
    await readAll(src);
    const { pairs } = src.report();
    expect(pairs.planned).toBe(base.report.pairs.planned);
    expect(pairs.ties).toBe(base.report.pairs.ties + 1);
    expect(pairs.deferred).toBe(base.report.pairs.deferred + 1);
    expect(pairs.errors).toHaveLength(base.report.pairs.errors.length + 1);
    expect(pairs.errors.at(-1)?.message).toContain("Scenario mismatch");
    expect(pairs.fetched).toBe(base.report.pairs.fetched - 3);
  });

  it("pairs answered in reverse are handed on in pair order, the lines of an in-order pull", async () => {
    const pairEvents = (events: PullEvent[]) => events.flatMap((e) => (e.type === "pair" ? [`${e.runIdA}>${e.runIdB}`] : []));
    const plainEvents: PullEvent[] = [];
    const plain = httpSource({ client: clientFor(emu, "owner"), auth: "owner", format: "dpo", spoolDir: dir, dpo: { strategy: "all" }, onEvent: (e) => plainEvents.push(e) });
    const expected = await readAll(plain);
    // The k-th pair request of a window answers after every later one: completion order is the reverse of pair order.
    const real = clientFor(emu, "owner");
    let asked = 0;
    const client = {
      ...real,
      getNdjson(path, query) {
        if (path !== "/api/evals/dpo") return real.getNdjson(path, query);
        const wait = Math.max(0, 40 - asked++) * 3;
        return (async function* () {
          await new Promise((resolve) => setTimeout(resolve, wait));
          yield* real.getNdjson(path, query);
        })();
      },
    } as ServiceClient;
    const events: PullEvent[] = [];
    const reversed = httpSource({ client, auth: "owner", format: "dpo", spoolDir: dir, dpo: { strategy: "all" }, onEvent: (e) => events.push(e) });
    expect(await readAll(reversed)).toEqual(expected);
    expect(pairEvents(events)).not.toEqual(pairEvents(plainEvents));
    expect([...pairEvents(events)].sort()).toEqual([...pairEvents(plainEvents)].sort());
  });

  it("any other failure ends the read with that error", async () => {
    const base = await baseline();
    const client = scripted(new Map([[base.fetched[1] as string, (p: string) => new Error(`boom on ${p}`)]]));
    const src = httpSource({ client, auth: "owner", format: "dpo", spoolDir: dir, dpo: { strategy: "adjacent" } });
    await expect(readAll(src)).rejects.toThrow(/boom/);
    await expect(src.info()).rejects.toThrow(/boom/);
    expect(() => src.report()).toThrow(/first full read/);
  });
});
