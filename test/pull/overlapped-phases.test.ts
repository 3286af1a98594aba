import { describe, expect, it } from "vitest";
import { createServiceClient } from "../../src/http/index.js";
import { httpSource, type HttpSource } from "../../src/pull/index.js";
import { inPartition, type Partition } from "../../src/pull/partition.js";
import type { RunningEmulator } from "../../src/service/index.js";
import { tempDir } from "../helpers/temp-dir.js";
import { clientFor, emulator, fastClock, listed, readAll } from "./support.js";

// Issue 40: a faulty night within 3x a fault-free one. A run's scorecard is asked for as soon as its own
// records are in, so the per-run fetches and the scorecards share the client's slots instead of each phase
// waiting out the other's slowest call; and a per-run answer trickled after its headers is hedged.

/** A night's part 0 of 2 by run: every run of the part is fetched from its own route. */
const PART: Partition = { index: 0, count: 2, by: "run" };

/** An owner SFT pull of part 0, noting the target of every body read whole, in the order they ended. */
function pull(emu: RunningEmulator, bodies: string[] = []): HttpSource {
  let src: HttpSource | undefined;
  const client = createServiceClient({
    baseUrl: emu.url,
    auth: "owner",
    token: emu.ownerToken,
    concurrency: 4,
    clock: fastClock(),
    retry: { maxAttempts: 12, baseDelayMs: 1 },
    onEvent: (e) => src?.clientEvent(e),
    onBody: (d) => bodies.push(d.target),
  });
  src = httpSource({ auth: "owner", format: "sft", client, partition: PART, spoolDir: tempDir("evalshard-overlap-") });
  return src;
}

/** The part's scored runs' per-run routes, in the service's list order. */
async function partRoutes(emu: RunningEmulator): Promise<string[]> {
  const runs = await listed(clientFor(emu, "owner"));
  return runs.filter((r) => r.scored && inPartition(r.run_id, PART)).map((r) => `/api/evals/${encodeURIComponent(r.run_id)}/finetuning`);
}

const isRunRoute = (target: string) => /^\/api\/evals\/[^/]+\/finetuning$/.test(target);
const isScorecard = (target: string) => /^\/api\/evals\/[^/]+\/scorecard/.test(target);
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

describe("a pull's per-run fetches and scorecards overlap", () => {
  it("under faults, scorecards come while other runs' records are still being fetched, and the lines are the fault-free pull's", async () => {
    const clean = await emulator({ seed: 41, runs: 200 });
    const faulty = await emulator({ seed: 41, runs: 200, faults: "429=0.08,502=0.05,503=0.04,reset=0.04,cut=0.04" });
    const routes = await partRoutes(faulty);
    expect(routes.length).toBeGreaterThan(40);
    // The part's last run is refused three times: the phases one after the other, no scorecard would come before it.
    faulty.aimFault({ kind: "429", path: routes.at(-1) as string, times: 3 });

    const want = await readAll(pull(clean));
    const bodies: string[] = [];
    const src = pull(faulty, bodies);
    const got = await readAll(src);

    expect(got).toEqual(want);
    expect(src.report().retries).toBeGreaterThan(3);
    expect(src.report().perRunFetches).toBe(routes.length);
    const lastRecords = bodies.findLastIndex(isRunRoute);
    const firstScorecard = bodies.findIndex(isScorecard);
    expect(firstScorecard).toBeGreaterThanOrEqual(0);
    expect(firstScorecard).toBeLessThan(lastRecords);
    // Most of the scorecards came before that last run's records did.
    expect(bodies.slice(0, lastRecords).filter(isScorecard).length).toBeGreaterThan(routes.length / 2);
  });

  it("a run's records trickled out after their headers (a minute between pieces) are hedged, not waited for: the fault-free lines", async () => {
    const timing = { gatewayTimeoutMs: 5, retryAfterSeconds: 0, slowDelayMs: 60_000 };
    const clean = await emulator({ seed: 43, runs: 200, timing });
    const faulty = await emulator({ seed: 43, runs: 200, timing });
    const routes = await partRoutes(faulty);
    expect(routes.length).toBeGreaterThan(40);
    // The part's last two runs: by then the client has timed enough answers to know what slow is.
    for (const route of routes.slice(-2)) faulty.aimFault({ kind: "slow", path: new RegExp(`^${escape(route)}$`) });

    const want = await readAll(pull(clean));
    const src = pull(faulty);
    const got = await readAll(src);

    expect(faulty.faultLog.map((f) => f.kind)).toEqual(["slow", "slow"]);
    expect(got).toEqual(want);
    expect(src.report().hedges).toBeGreaterThanOrEqual(2);
    expect(src.report().retries).toBe(0);
  });
});
