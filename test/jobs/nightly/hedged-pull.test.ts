import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runNightly } from "../../../src/jobs/nightly/run-nightly.js";
import { parsePipeline } from "../../../src/pipeline-file/load-pipeline.js";
import type { PullReport } from "../../../src/pull/index.js";
import type { RunningEmulator } from "../../../src/service/index.js";
import { tempDir } from "../../helpers/temp-dir.js";
import { datasetOf, emulator, envFor, fastClock, PIPELINES } from "./support.js";

// Issue 40: slow answers (a 504 that comes only after the gateway's timeout, a body trickled out) must not
// hold the night's `--concurrency` slots. A GET whose answer is late gets a second copy (a hedge) and the
// first to answer is used; the slow one is aborted.

/** The owner run list's scored run ids, in the service's order. */
async function scoredRunIds(emu: RunningEmulator): Promise<string[]> {
  const res = await fetch(`${emu.url}/api/evals`, { headers: { authorization: `Bearer ${emu.ownerToken}` } });
  const body = (await res.json()) as { runs: { run_id: string; scored?: boolean }[] };
  return body.runs.filter((r) => r.scored === true).map((r) => r.run_id);
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** One night of the shipped SFT pipeline (JSON Lines) into `dir`, with its pull report. */
async function nightWithReport(emu: RunningEmulator, dir: string, edit: (text: string) => string = (t) => t): Promise<PullReport> {
  const text = edit(readFileSync(join(PIPELINES, "nightly-sft.yaml"), "utf8")).replace("to: parquet", "to: jsonl").replace("compression: zstd", "compression: none");
  const env = envFor(emu, dir);
  let report: PullReport | undefined;
  const onPullEvent = (e: { type: string; report?: PullReport }) => void (e.type === "done" && (report = e.report));
  await runNightly(parsePipeline(text, "nightly-sft.yaml", env), { env, clock: fastClock(), onPullEvent });
  if (report === undefined) throw new Error("the night reported no pull");
  return report;
}

describe("slow answers do not hold a night (hedged GETs)", () => {
  it("scorecards answered 504 only after 2 minutes, or trickled over 16 minutes: each is hedged, the night completes with the fault-free records", async () => {
    // The gateway answers its 504 after 2 minutes and a slow body has a minute between its pieces: without
    // hedges this night would wait on them past the test's timeout.
    const timing = { gatewayTimeoutMs: 120_000, retryAfterSeconds: 1, slowDelayMs: 60_000 };
    const clean = await emulator({ seed: 71, runs: 60, timing });
    const faulty = await emulator({ seed: 71, runs: 60, timing });
    const ids = await scoredRunIds(faulty);
    expect(ids.length).toBeGreaterThan(30);
    // The last scorecards of the list: by then the client has timed enough answers to know what slow is.
    const [a, b, c] = ids.slice(-3).map(escape);
    faulty.aimFault({ kind: "504", path: new RegExp(`^/api/evals/(${a}|${b})/scorecard`), times: 2 });
    faulty.aimFault({ kind: "slow", path: new RegExp(`^/api/evals/${c}/scorecard`) });

    const cleanDir = tempDir("evalshard-hedge-clean-");
    const faultyDir = tempDir("evalshard-hedge-faulty-");
    const cleanReport = await nightWithReport(clean, cleanDir);
    const report = await nightWithReport(faulty, faultyDir);

    expect(faulty.faultLog.map((f) => f.kind).sort()).toEqual(["504", "504", "slow"]);
    // Each slow answer got one second copy, which answered; none was retried (no 504 ever reached the client).
    expect(report.hedges).toBe(3);
    expect(report.retries).toBe(0);
    expect(report.scorecardsFetched).toBe(cleanReport.scorecardsFetched);
    expect(datasetOf(join(faultyDir, "nightly-sft"))).toEqual(datasetOf(join(cleanDir, "nightly-sft")));
  });

  it("a hedge that fails fast abandons the slow first copy: the call backs off and retries at once instead of waiting out a 504, with the fault-free records", async () => {
    // The gateway answers its 504 after 2 minutes; the hedge sent meanwhile is refused with a 429. Waiting
    // for the first copy would hold its slot (and this test) past the test's timeout.
    const timing = { gatewayTimeoutMs: 120_000, retryAfterSeconds: 1, slowDelayMs: 0 };
    const clean = await emulator({ seed: 73, runs: 60, timing });
    const faulty = await emulator({ seed: 73, runs: 60, timing });
    const path = new RegExp(`^/api/evals/${escape((await scoredRunIds(faulty)).at(-1) ?? "")}/scorecard`);
    // Aimed faults are taken in the order they were aimed: the first copy gets the 504, the hedge the 429.
    faulty.aimFault({ kind: "504", path });
    faulty.aimFault({ kind: "429", path });

    const cleanDir = tempDir("evalshard-hedge-clean-");
    const faultyDir = tempDir("evalshard-hedge-abandon-");
    await nightWithReport(clean, cleanDir);
    const report = await nightWithReport(faulty, faultyDir);

    expect(faulty.faultLog.map((f) => f.kind)).toEqual(["504", "429"]);
    expect(report.hedges).toBe(1);
    // One backoff, from the hedge's 429 (its Retry-After); the third copy answered.
    expect(report.retries).toBe(1);
    expect(datasetOf(join(faultyDir, "nightly-sft"))).toEqual(datasetOf(join(cleanDir, "nightly-sft")));
  });

  it("with `hedge: off` no second copy is sent: a 504 is waited for and retried", async () => {
    const emu = await emulator({ seed: 72, runs: 60, timing: { gatewayTimeoutMs: 1_500, retryAfterSeconds: 1, slowDelayMs: 0 } });
    const ids = await scoredRunIds(emu);
    emu.aimFault({ kind: "504", path: new RegExp(`^/api/evals/${escape(ids.at(-1) ?? "")}/scorecard`) });
    const report = await nightWithReport(emu, tempDir("evalshard-hedge-off-"), (text) => text.replace("concurrency: 4", "concurrency: 4\n  hedge: off"));
    expect(emu.faultLog.map((f) => f.kind)).toEqual(["504"]);
    expect(report.hedges).toBe(0);
    expect(report.retries).toBe(1);
  });
});
