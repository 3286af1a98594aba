import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../helpers/temp-dir.js";
import { datasetOf, envFor, night } from "../jobs/nightly/support.js";
import { byKey, emulator, readAll, source } from "./support.js";

// A per-run answer that lacks seats (well formed, just short) is never taken as the run: the run's seats
// are known from its run document (`manifest.seat_snapshots` on the owner scorecard route; on agent
// routes, the key's one seat), and a run whose records fall short is deferred to a later night.

const BULK = /^\/api\/evals\/finetuning\?/;
const PER_RUN = /^\/api\/evals\/[^/]+\/finetuning$/;
const runOf = (key: string) => key.slice(0, key.lastIndexOf("#"));

describe("owner: a bulk stream that ends early, and per-run answers one seat short", () => {
  it("the short runs are deferred as missing_seats, none of their records pulled; every other run whole", async () => {
    const emu = await emulator({ seed: 41, runs: 150 });
    const want = byKey(await readAll(source(emu, { auth: "owner", format: "sft" })));
    // Every campaign's stream ends cleanly after one line: the rest of its runs are fetched one by one,
    // and the first three of those answers leave out their last seat.
    emu.aimFault({ kind: "end", path: BULK, times: 1000, at: 1 });
    emu.aimFault({ kind: "seats", path: PER_RUN, times: 3 });
    const src = source(emu, { auth: "owner", format: "sft" });
    const got = byKey(await readAll(src));

    const short = src.report().deferred.filter((d) => d.reason === "missing_seats");
    expect(short).toHaveLength(3);
    const shortRuns = new Set(short.map((d) => d.runId));
    for (const d of short) {
      const seats = [...want.keys()].filter((k) => runOf(k) === d.runId).length;
      expect(d.seats).toEqual({ expected: seats, received: seats - 1 });
    }
    expect([...got.keys()].filter((k) => shortRuns.has(runOf(k)))).toEqual([]);
    const rest = new Map([...want].filter(([k]) => !shortRuns.has(runOf(k))));
    expect(got).toEqual(rest);
  });
});

describe("agent: a per-run answer without the key's seat", () => {
  it("is deferred as missing_seats (expected 1, received 0)", async () => {
    const emu = await emulator({ seed: 42, runs: 120 });
    // The stream ends after its first line: the key's other runs are fetched one by one.
    emu.aimFault({ kind: "end", path: /^\/api\/agent\/finetuning\?/, at: 1 });
    emu.aimFault({ kind: "seats", path: /^\/api\/agent\/runs\/[^/]+\/finetuning$/, times: 2 });
    const src = source(emu, { auth: "agent", format: "sft" });
    await readAll(src);
    const short = src.report().deferred.filter((d) => d.reason === "missing_seats");
    expect(short.map((d) => d.seats)).toEqual([
      { expected: 1, received: 0 },
      { expected: 1, received: 0 },
    ]);
  });
});

describe("a nightly dataset never publishes a run short", () => {
  it("the short run is left out and listed as deferred; the next night, answered whole, adds it", async () => {
    const emu = await emulator({ seed: 43, runs: 120 });
    const whole = tempDir("evalshard-seats-whole-");
    await night("nightly-sft", envFor(emu, whole));

    const ledger = (d: string) => datasetOf(join(d, "nightly-sft")).ledger;
    // A run the dataset holds (its first key's): with every stream ended after a line, it comes from its own route.
    const runId = /^\{"key":"\[\\"([0-9a-f]+)\\"/.exec(ledger(whole))?.[1] as string;
    expect(runId).toMatch(/^[0-9a-f]+$/);

    const dir = tempDir("evalshard-seats-");
    emu.aimFault({ kind: "end", path: BULK, times: 1000, at: 1 });
    emu.aimFault({ kind: "seats", path: `/api/evals/${runId}/finetuning` });
    const first = await night("nightly-sft", envFor(emu, dir));
    const deferred = first.manifest.pull?.deferred.filter((d) => d.reason === "missing_seats") ?? [];
    expect(deferred.map((d) => d.runId)).toEqual([runId]);
    expect(ledger(dir)).not.toContain(runId);

    const second = await night("nightly-sft", envFor(emu, dir));
    expect(second.manifest.pull?.deferred.filter((d) => d.reason === "missing_seats")).toEqual([]);
    expect(datasetOf(join(dir, "nightly-sft"))).toEqual(datasetOf(join(whole, "nightly-sft")));
  });
});
