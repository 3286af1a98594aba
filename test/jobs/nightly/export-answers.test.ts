import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parsePipeline, runNightly } from "../../../src/index.js";
import type { NightlyResult, PullEvent } from "../../../src/index.js";
import type { RunningEmulator } from "../../../src/service/index.js";
import { rewritingProxy } from "../../helpers/rewriting-proxy.js";
import { tempDir } from "../../helpers/temp-dir.js";
import { datasetOf, emulator, envFor, fastClock, PIPELINES } from "./support.js";

// Issue 21: a rerun first requests the published night's export targets again and compares the bodies'
// sha256 (never parsing them); only when all are the same does it skip the pull. Each test below changes
// one answer the run list does not show (a late flag on a run only its own export carries, or on a run of
// a bulk stream) and expects that night to change, and the next, on the same answers, not to.

/** The real emulator behind a proxy that can rewrite one answer: the service changing one record. */
async function tamperedService(seed: number, runs: number, agentExportLimitCap = 500) {
  const emu = await emulator({ seed, runs, platform: { agentExportLimitCap } });
  let tamper: ((target: string, body: string) => string) | undefined;
  const url = await rewritingProxy(emu.url, (target, body) => (tamper === undefined ? body : Buffer.from(tamper(target, body.toString("utf8")))));
  const service: RunningEmulator = { ...emu, url };
  return { service, setTamper: (t: typeof tamper) => void (tamper = t) };
}

async function nightOf(service: RunningEmulator, out: string, agent = false): Promise<{ result: NightlyResult; events: PullEvent["type"][] }> {
  const env = envFor(service, out, agent ? { EVAL_AUTH: "agent", EVAL_API_KEY: service.apiKeys[0]?.api_key as string } : {});
  const text = readFileSync(join(PIPELINES, "nightly-sft.yaml"), "utf8").replace("to: parquet", "to: jsonl").replace("compression: zstd", "compression: none");
  const events: PullEvent["type"][] = [];
  const result = await runNightly(parsePipeline(text, "nightly-sft.yaml", env), { env, clock: fastClock(), retry: { maxAttempts: 12, baseDelayMs: 1 }, onPullEvent: (e) => events.push(e.type) });
  return { result, events };
}

/** The published export answers' targets (path and query), in the file's order. */
function targetsOf(dataset: string): string[] {
  const [, ...lines] = readFileSync(join(dataset, "_state/export-answers.txt"), "utf8").trimEnd().split("\n");
  return lines.map((line) => line.split("\t")[2] as string);
}

/** Run ids with a record in the dataset (its ledger's keys are `[run_id, seat_index]`). */
function keptRuns(dataset: string): Set<string> {
  const lines = readFileSync(join(dataset, "_state/ledger.ndjson"), "utf8").trim().split("\n");
  return new Set(lines.map((line) => (JSON.parse((JSON.parse(line) as { key: string }).key) as [string, number])[0]));
}

/** Flags every record of a `{records: [...]}` body. */
function flagAll(body: string): string {
  expect(body).toContain('"flagged":false');
  return body.replaceAll('"flagged":false', '"flagged":true');
}

/** Flags the first record of an NDJSON stream whose run is kept and is not the stream's last run (which is fetched again on its own). */
function flagOneStreamed(body: string, kept: ReadonlySet<string>): string {
  const lines = body.split("\n");
  const runOf = (line: string) => (line.trim() === "" ? undefined : (JSON.parse(line) as { run_id?: string }).run_id);
  const last = runOf(lines.filter((l) => l.trim() !== "").at(-1) ?? "");
  const i = lines.findIndex((line) => {
    const run = runOf(line);
    return run !== undefined && run !== last && kept.has(run) && line.includes('"flagged":false');
  });
  expect(i).toBeGreaterThanOrEqual(0);
  lines[i] = (lines[i] as string).replace('"flagged":false', '"flagged":true');
  return lines.join("\n");
}

const PER_RUN = /^\/api\/agent\/runs\/([^/?]+)\/finetuning$/;

describe("a rerun compares the export answers before pulling", () => {
  it("a rerun of the same answers pulls nothing; a late flag on a per-run export changes the night once", async () => {
    // Agent routes with a small bulk cap: most runs come from their own export.
    const { service, setTamper } = await tamperedService(71, 300, 10);
    const out = tempDir("evalshard-answers-");
    const dataset = join(out, "nightly-sft");
    const first = await nightOf(service, out, true);
    expect(first.result.changed).toBe(true);
    expect(first.events).toContain("listed");
    const targets = targetsOf(dataset);
    expect(targets[0]).toBe("/api/agent/runs");
    expect(targets.some((t) => t.startsWith("/api/agent/finetuning?"))).toBe(true);
    expect(targets.some((t) => t.endsWith("/scorecard") || t.includes("/scorecard?"))).toBe(false);
    const kept = keptRuns(dataset);
    const perRun = targets.filter((t) => kept.has(decodeURIComponent(PER_RUN.exec(t)?.[1] ?? "")));
    expect(perRun.length).toBeGreaterThan(10);

    // Same answers: only the comparison, no pull (no listing, no stream, no scorecard).
    const rerun = await nightOf(service, out, true);
    expect(rerun.result.changed).toBe(false);
    expect(rerun.events).toEqual(["done"]);
    expect(rerun.result.manifest.pull?.requests).toBe(targets.length);

    // A flag set late on a run whose records only its own export carries: the list and the streams are the same.
    // The last per-run export of a kept run: the comparison must not stop before it.
    const target = perRun.at(-1) as string;
    setTamper((t, body) => (t === target ? flagAll(body) : body));
    const flagged = await nightOf(service, out, true);
    expect(flagged.events).toContain("listed");
    expect(flagged.result.changed).toBe(true);
    expect(flagged.result.manifest.night.removed).toBeGreaterThan(0);
    const after = datasetOf(dataset);

    const again = await nightOf(service, out, true);
    expect(again.events).toEqual(["done"]);
    expect(again.result.changed).toBe(false);
    expect(datasetOf(dataset)).toEqual(after);

    // The same as one fresh pull of the service as it now answers.
    const fresh = tempDir("evalshard-answers-fresh-");
    await nightOf(service, fresh, true);
    expect(datasetOf(join(fresh, "nightly-sft"))).toEqual(after);
  });

  it("a late flag on a run a bulk stream carries changes the night once", async () => {
    const { service, setTamper } = await tamperedService(72, 400);
    const out = tempDir("evalshard-answers-");
    const dataset = join(out, "nightly-sft");
    await nightOf(service, out);
    const bulk = targetsOf(dataset).filter((t) => t.startsWith("/api/evals/finetuning?")).at(-1) as string;
    const kept = keptRuns(dataset);
    setTamper((t, body) => (t === bulk ? flagOneStreamed(body, kept) : body));
    const flagged = await nightOf(service, out);
    expect(flagged.result.changed).toBe(true);
    expect(flagged.result.manifest.night.removed).toBe(1);
    const again = await nightOf(service, out);
    expect(again.events).toEqual(["done"]);
    expect(again.result.changed).toBe(false);
    const fresh = tempDir("evalshard-answers-fresh-");
    await nightOf(service, fresh);
    expect(datasetOf(join(fresh, "nightly-sft"))).toEqual(datasetOf(dataset));
  });

  it("pulls when the answers cannot be relied on: a stream cut in the night that recorded them, a score cache changed since", async () => {
    const emu = await emulator({ seed: 73, runs: 300 });
    const out = tempDir("evalshard-answers-");
    const dataset = join(out, "nightly-sft");
    emu.aimFault({ kind: "cut", path: "/api/evals/finetuning", at: 2 });
    const cut = await nightOf(emu, out);
    expect(cut.result.changed).toBe(true);
    expect(cut.result.manifest.pull?.streamCuts).toBe(1);
    expect(() => readFileSync(join(dataset, "_state/export-answers.txt"))).toThrow();
    const rerun = await nightOf(emu, out);
    expect(rerun.events).toContain("listed");
    expect(rerun.result.changed).toBe(false);

    // A night that converts anew records them; then a score cache that is not the one they were pulled with.
    rmSync(join(dataset, "_state/night-input.json"));
    emu.aimFault({ kind: "503", path: /^\/api\/evals\/[^/?]+\/scorecard/, times: 0 });
    await emu.advance();
    const next = await nightOf(emu, out);
    expect(next.result.changed).toBe(true);
    expect(targetsOf(dataset).length).toBeGreaterThan(0);
    rmSync(join(dataset, "_cache/scorecards.ndjson"));
    const uncached = await nightOf(emu, out);
    expect(uncached.events).toContain("scorecards");
    expect(uncached.result.changed).toBe(false);
    expect(uncached.result.manifest.pull?.scorecardsFetched).toBeGreaterThan(0);
  });

  it("pulls when the answers file lacks a request it names, or names one more", async () => {
    const emu = await emulator({ seed: 74, runs: 150 });
    const out = tempDir("evalshard-answers-");
    const file = join(out, "nightly-sft", "_state/export-answers.txt");
    await nightOf(emu, out);
    const text = readFileSync(file, "utf8");
    const lines = text.trimEnd().split("\n");
    expect(lines.length).toBeGreaterThan(2);
    for (const edited of [`${lines.slice(0, -1).join("\n")}\n`, `${text}${lines.at(-1) as string}\n`]) {
      // The published file, edited in place: a header whose count does not match its lines is not trusted.
      writeFileSync(file, edited);
      const rerun = await nightOf(emu, out);
      expect(rerun.events).toContain("listed");
      expect(rerun.result.changed).toBe(false);
    }
    writeFileSync(file, text);
    expect((await nightOf(emu, out)).events).toEqual(["done"]);
  });
});
