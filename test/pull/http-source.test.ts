import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { httpSource, type ExportClient } from "../../src/index.js";
import { inPartition, type PullEvent } from "../../src/pull/index.js";
import { byKey, clientFor, emulator, listed, perRun, readAll, source } from "./support.js";
import { tempDir } from "../helpers/temp-dir.js";

const SEED = 11;
const RUNS = 160;

describe("httpSource: SFT and RL records of the scored runs", async () => {
  const emu = await emulator({ seed: SEED, runs: RUNS, platform: { agentExportLimitCap: 7 } });
  const owner = clientFor(emu, "owner");
  const agent = clientFor(emu, "agent");
  const ownerRuns = await listed(owner);
  const agentRuns = await listed(agent);
  const scoredOwner = ownerRuns.filter((r) => r.scored).map((r) => r.run_id);
  const scoredAgent = agentRuns.filter((r) => r.scored).map((r) => r.run_id);
  const ownSpool = tempDir("evalshard-own-client-");

  it("owner SFT: exactly what the per-run routes answer for every scored run", async () => {
    const events: PullEvent[] = [];
    const src = source(emu, { auth: "owner", format: "sft", onEvent: (e) => events.push(e) });
    const got = byKey(await readAll(src));
    expect(got).toEqual(await perRun(owner, scoredOwner, false));
    const report = src.report();
    expect(report.runsListed).toBe(ownerRuns.length);
    expect(report.runsScored).toBe(scoredOwner.length);
    expect(report.runsFetched).toBe(scoredOwner.length);
    expect(report.records).toBe(got.size);
    // The owner SFT stream also holds completed runs not yet scored: those are dropped and deferred.
    const unscoredDone = ownerRuns.filter((r) => !r.scored && r.status === "completed").map((r) => r.run_id);
    expect(report.deferred.map((d) => d.runId)).toEqual(unscoredDone);
    expect(report.deferred.every((d) => d.reason === "not_scored")).toBe(true);
    expect(events.at(-1)?.type).toBe("done");
  });

  it("owner RL: per-run RL records; runs without RL data are reported, not errors", async () => {
    const src = source(emu, { auth: "owner", format: "rl" });
    const got = byKey(await readAll(src));
    expect(got).toEqual(await perRun(owner, scoredOwner, true));
    const report = src.report();
    expect(report.noRlData.length).toBeGreaterThan(0);
    expect(report.runsFetched + report.noRlData.length).toBe(scoredOwner.length);
  });

  it("agent SFT: the key's seat of every scored run, past the platform's bulk cap", async () => {
    const src = source(emu, { auth: "agent", format: "sft" });
    const got = byKey(await readAll(src));
    expect(got).toEqual(await perRun(agent, scoredAgent, false));
    const report = src.report();
    expect(report.bulkRecords).toBe(7);
    expect(report.perRunFetches).toBe(scoredAgent.length - 7);
  });

  it("agent RL", async () => {
    const src = source(emu, { auth: "agent", format: "rl" });
    expect(byKey(await readAll(src))).toEqual(await perRun(agent, scoredAgent, true));
  });

  it("gates(): each run's gated cards, by seat; report().gated counts the runs", async () => {
    const src = source(emu, { auth: "owner", format: "sft" });
    await readAll(src);
    const expected = new Set<string>();
    for (const id of scoredOwner) {
      const { scorecards } = await owner.getJson<{ scorecards: { participation_gated?: boolean }[] }>(`/api/evals/${id}/scorecard`);
      if (scorecards.some((c) => c.participation_gated === true)) expected.add(id);
    }
    expect(expected.size).toBeGreaterThan(0);
    expect(src.gates().runsWith("gated")).toEqual(expected);
    expect(src.report().unreadableGating).toEqual([]);
    expect(src.report().gated).toBe(expected.size);
  });

  it("partitions: N=4 jobs are pairwise disjoint and together give the single job's lines", async () => {
    const single = await readAll(source(emu, { auth: "owner", format: "sft" }));
    const parts = [];
    for (let index = 0; index < 4; index++) {
      const lines = await readAll(source(emu, { auth: "owner", format: "sft", partition: { index, count: 4 } }));
      for (const key of byKey(lines).keys()) expect(inPartition(key.split("#")[0] as string, { index, count: 4 })).toBe(true);
      parts.push(lines);
    }
    const union = parts.flat();
    expect(union.length).toBe(single.length);
    expect(new Set(union)).toEqual(new Set(single));
    expect(parts.every((p) => p.length > 0)).toBe(true);
  });

  it("skip: runs named there are not fetched", async () => {
    const skip = new Set(scoredOwner.slice(0, 5));
    const src = source(emu, { auth: "owner", format: "sft", skip });
    const got = byKey(await readAll(src));
    expect(got).toEqual(await perRun(owner, scoredOwner.slice(5), false));
  });

  it("a caller's own client needs only baseUrl, auth, getJson and getNdjson (a logging wrapper here)", async () => {
    const paths: string[] = [];
    // Exactly the four members, so a method the pull started to need would fail this at the call.
    const logged: ExportClient = {
      baseUrl: owner.baseUrl,
      auth: owner.auth,
      getJson: <T>(path: string, query?: Parameters<ExportClient["getJson"]>[1]) => (paths.push(path), owner.getJson<T>(path, query)),
      getNdjson: (path, query) => (paths.push(path), owner.getNdjson(path, query)),
    };
    const src = httpSource({ client: logged, auth: "owner", format: "sft", spoolDir: ownSpool });
    expect(byKey(await readAll(src))).toEqual(await perRun(owner, scoredOwner, false));
    expect(paths).toContain("/api/evals");
    expect(paths.length).toBeGreaterThanOrEqual(src.report().requests);
  });

  it("the partition share is sha256(run_id) as a big-endian integer mod N", () => {
    const id = "abc";
    const n = BigInt(`0x${createHash("sha256").update(id).digest("hex")}`);
    for (const count of [1, 3, 4, 7]) expect(inPartition(id, { index: Number(n % BigInt(count)), count })).toBe(true);
  });
});

describe("httpSource: reading again", async () => {
  const emu = await emulator({ seed: 5, runs: 60 });

  it("a second read replays identical lines with identical provenance", async () => {
    const src = source(emu, { auth: "owner", format: "sft" });
    const first = [];
    for await (const line of src.lines()) first.push(line);
    const second = [];
    for await (const line of src.lines()) second.push(line);
    expect(second).toEqual(first);
    expect(first.length).toBeGreaterThan(0);
    expect(first[0]?.provenance).toEqual({ source: src.name, line: 1, offset: 0 });
  });

  it("a first reader that stops early still leaves the whole pull to replay", async () => {
    const src = source(emu, { auth: "owner", format: "sft" });
    for await (const _ of src.lines()) break;
    const full = await readAll(source(emu, { auth: "owner", format: "sft" }));
    expect(await readAll(src)).toEqual(full);
  });

  it("two pulls of one world state spool identical bytes; info() names the route, never the token", async () => {
    const a = source(emu, { auth: "owner", format: "rl" });
    const b = source(emu, { auth: "owner", format: "rl" });
    const [ia, ib] = [await a.info(), await b.info()];
    expect(ia).toEqual(ib);
    expect(ia.path).toBe(`${emu.url}/api/evals/finetuning/rl (owner)`);
    const text = (await readAll(a)).map((l) => `${l}\n`).join("");
    expect(ia.sha256).toBe(createHash("sha256").update(text).digest("hex"));
    expect(JSON.stringify([ia, a.name, a.report()])).not.toContain(emu.ownerToken);
    const agent = source(emu, { auth: "agent", format: "sft" });
    const info = await agent.info();
    expect(JSON.stringify([info, agent.report()])).not.toContain(emu.apiKeys[0]?.api_key as string);
  });

  it("report() and gatedRuns() before a read throw", () => {
    const src = source(emu, { auth: "owner", format: "sft" });
    expect(() => src.report()).toThrow(/first full read/);
    expect(() => src.gates()).toThrow(/first full read/);
  });
});
