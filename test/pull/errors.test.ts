import { describe, expect, it } from "vitest";
import { createServiceClient, AuthError, ForbiddenError } from "../../src/http/index.js";
import { ConfigError } from "../../src/core/errors.js";
import { httpSource } from "../../src/pull/index.js";
import { tempDir } from "../helpers/temp-dir.js";
import { byKey, clientFor, emulator, fastClock, listed, readAll, source } from "./support.js";

describe("httpSource: failures end the pull", async () => {
  const emu = await emulator({ seed: 3, runs: 300 });
  const dir = tempDir();

  it("401 propagates as AuthError, naming the variable and never the token", async () => {
    const client = createServiceClient({ baseUrl: emu.url, auth: "owner", token: "not-a-real-token-canary", clock: fastClock() });
    const src = httpSource({ client, auth: "owner", format: "sft", spoolDir: dir });
    const error = await readAll(src).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthError);
    expect(String((error as Error).message)).not.toContain("not-a-real-token-canary");
    expect(src.name).not.toContain("not-a-real-token-canary");
  });

  it("403 propagates as ForbiddenError (RL without the rl_dpo_export entitlement)", async () => {
    const src = source(emu, { auth: "agent", format: "rl", key: 2 });
    const error = await readAll(src).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ForbiddenError);
    expect((error as ForbiddenError).missingEntitlement).toBe("rl_dpo_export");
  });

  it("a key without manage:runs pulls from the plain run list, and the report says so", async () => {
    const src = source(emu, { auth: "agent", format: "sft", key: 2 });
    const lines = await readAll(src);
    expect(lines.length).toBeGreaterThan(0);
    expect(src.report().notes.join(" ")).toMatch(/manage:runs/);
  });

  it("bad options throw ConfigError naming the option", () => {
    const client = clientFor(emu, "owner");
    expect(() => httpSource({ client, auth: "agent", format: "sft", spoolDir: dir })).toThrow(ConfigError);
    expect(() => httpSource({ client, auth: "owner", format: "sft", spoolDir: dir, partition: { index: 4, count: 4 } })).toThrow(/partition.index/);
    expect(() => httpSource({ client, auth: "owner", format: "sft", spoolDir: dir, partition: { index: 0, count: 0 } })).toThrow(/partition.count/);
    expect(() => httpSource({ client, auth: "owner", format: "dpo", spoolDir: dir, dpo: { strategy: "all", maxPairsPerScenario: 0 } })).toThrow(/maxPairsPerScenario/);
  });
});

describe("httpSource: aimed stream faults", async () => {
  const clean = await emulator({ seed: 9, runs: 120, epoch: 3 });
  const faulty = await emulator({ seed: 9, runs: 120, epoch: 3 });

  it("a cut bulk stream is completed by re-requesting; a partial_stream run is fetched on its own", async () => {
    const uncut = source(clean, { auth: "owner", format: "sft" });
    const want = byKey(await readAll(uncut));
    // Even unfaulted, each owner stream's last run is fetched again on its own (a clean end looks whole).
    const streamEnds = uncut.report().perRunFetches;
    expect(streamEnds).toBeGreaterThan(0);
    // The owner SFT stream of a campaign holds its completed runs, newest first: aim the partial at a scored one.
    const runs = (await listed(clientFor(clean, "owner"))).filter((r) => r.status === "completed");
    const campaigns = [...new Set(runs.map((r) => r.campaign_id as string))];
    const indexOfScored = (c: string) => runs.filter((r) => r.campaign_id === c).findIndex((r) => r.scored);
    const partialAt = campaigns.find((c) => indexOfScored(c) >= 0) as string;
    const cutAt = campaigns.find((c) => c !== partialAt && runs.filter((r) => r.campaign_id === c).length >= 3) as string;
    faulty.aimFault({ kind: "cut", path: new RegExp(`finetuning\\?.*campaign_id=${cutAt}`), at: 2 });
    faulty.aimFault({ kind: "partial", path: new RegExp(`finetuning\\?.*campaign_id=${partialAt}`), at: indexOfScored(partialAt) });
    const src = source(faulty, { auth: "owner", format: "sft" });
    const lines = await readAll(src);
    expect(faulty.faultLog.map((f) => f.kind).sort()).toEqual(["cut", "partial"]);
    expect(byKey(lines)).toEqual(want);
    const report = src.report();
    expect(report.streamCuts).toBe(1);
    expect(report.streamErrors).toBe(1);
    expect(report.perRunFetches).toBe(streamEnds + 1);
    expect(lines.filter((l) => l.startsWith('{"error":"partial_stream"'))).toEqual([`{"error":"partial_stream","run_index":${indexOfScored(partialAt)}}`]);
  });

  it("a run split by a cut and answered with partial_stream on the re-request is fetched whole on its own", async () => {
    const faulty2 = await emulator({ seed: 9, runs: 120, epoch: 3 });
    const uncut = source(clean, { auth: "owner", format: "sft" });
    const want = byKey(await readAll(uncut));
    const streamEnds = uncut.report().perRunFetches;
    const runs = (await listed(clientFor(clean, "owner"))).filter((r) => r.status === "completed");
    // A campaign whose newest completed run is scored: the cut falls after its first seat's line.
    const campaign = [...new Set(runs.map((r) => r.campaign_id as string))].find((c) => runs.find((r) => r.campaign_id === c)?.scored === true);
    expect(campaign).toBeDefined();
    const path = new RegExp(`finetuning\\?.*campaign_id=${campaign}`);
    faulty2.aimFault({ kind: "cut", path, at: 1 });
    faulty2.aimFault({ kind: "partial", path, at: 0 });
    const src = source(faulty2, { auth: "owner", format: "sft" });
    expect(byKey(await readAll(src))).toEqual(want);
    expect(faulty2.faultLog.map((f) => f.kind)).toEqual(["cut", "partial"]);
    expect(src.report().perRunFetches).toBe(streamEnds + 1);
  });
});
