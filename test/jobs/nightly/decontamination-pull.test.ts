import { appendFileSync, existsSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runNightly } from "../../../src/jobs/nightly/run-nightly.js";
import { verify } from "../../../src/jobs/verify.js";
import { parsePipeline } from "../../../src/pipeline-file/load-pipeline.js";
import type { RunningEmulator } from "../../../src/service/index.js";
import { clientFor, listed } from "../../pull/support.js";
import { rewritingProxy } from "../../helpers/rewriting-proxy.js";
import { s3rverForFile } from "../../helpers/s3rver.js";
import * as shapes from "../../service/spec-shapes.js";
import { tempDir } from "../../helpers/temp-dir.js";
import { LocalStorage } from "../../../src/output/local-storage.js";
import { S3Storage } from "../../../src/output/s3-storage.js";
import type { Files } from "../../../src/output/storage.js";
import { emulator, fastClock } from "./support.js";

// Issue 35: a pull drops every record of a run whose scenario a released benchmark suite pins (by
// scenario_version_hash, so copies too). The expectation is read from the emulator's own routes: the
// suites (agent key) and each scored run's run document (owner scorecard route).
const root = tempDir("evalshard-decontam-pull-");
const s3 = s3rverForFile();

/** Every file of a dataset but its lock, with its bytes. */
async function datasetFiles(files: Files): Promise<Record<string, string>> {
  const all: Record<string, string> = {};
  for (const file of await files.list("")) {
    if (file.path.startsWith("_state/lock")) continue;
    const parts: Buffer[] = [];
    for await (const chunk of (await files.read(file.path)) ?? []) parts.push(Buffer.from(chunk));
    all[file.path] = Buffer.concat(parts).toString("base64");
  }
  return all;
}
let n = 0;

interface Row {
  run_id?: string;
  run_chosen?: string;
  run_rejected?: string;
}

interface Suite {
  suite_key: string;
  version: number;
  scenario_ids: string[];
  scenario_version_hashes: string[];
}

async function pull(emu: RunningEmulator | { url: string; ownerToken: string; apiKeys: RunningEmulator["apiKeys"] }, format: "sft" | "rl" | "dpo", o: { extra?: string; out?: string; key?: boolean; budget?: number; view?: string; workers?: number } = {}) {
  const out = o.out ?? join(root, `o${n++}`);
  const env: Record<string, string> = { EVAL_BASE_URL: emu.url, EVAL_OWNER_TOKEN: emu.ownerToken, ...(o.key === false ? {} : { EVAL_API_KEY: emu.apiKeys[0]?.api_key as string }) };
  const budget = o.budget === undefined ? "" : `  retry_budget: ${o.budget}\n`;
  const view = o.view === undefined ? "" : `, view: ${o.view}`;
  const text = `version: 1\nname: d\nsource:\n  kind: http\n  base_url: \${EVAL_BASE_URL}\n  format: ${format}\n${budget}${o.extra ?? ""}select: {seats: all}\noutput: {dir: "${out}", to: jsonl, compression: none${view}}\n`;
  const result = await runNightly(parsePipeline(text, "d.yaml", env), { env, clock: fastClock(), retry: { maxAttempts: 4, baseDelayMs: 1 } }, o.workers === undefined ? {} : { workers: o.workers });
  return { ...result, out, rows: rowsOf(out) };
}

function rowsOf(out: string): Row[] {
  if (!existsSync(join(out, "data"))) return [];
  return readdirSync(join(out, "data"))
    .filter((f) => f.endsWith(".jsonl"))
    .flatMap((f) => readFileSync(join(out, "data", f), "utf8").split("\n").filter((l) => l !== ""))
    .map((l) => JSON.parse(l) as Row);
}

/** Scored runs on a scenario each released suite pins, read from the emulator's routes. */
async function pinnedRuns(emu: RunningEmulator): Promise<{ suites: Suite[]; runs: Map<string, string[]> }> {
  const { suites } = await clientFor(emu, "agent").getJson<{ suites: Suite[] }>("/api/agent/suites");
  const owner = clientFor(emu, "owner");
  const runs = new Map<string, string[]>();
  for (const run of (await listed(owner)).filter((r) => r.scored)) {
    const { manifest } = await owner.getJson<{ manifest: { scenario_version_hash: string } }>(`/api/evals/${run.run_id}/scorecard`);
    const by = suites.filter((s) => s.scenario_version_hashes.includes(manifest.scenario_version_hash)).map((s) => `${s.suite_key}@${s.version}`);
    if (by.length > 0) runs.set(run.run_id, by);
  }
  return { suites, runs };
}

/** Appends to a shard of `to` the first row of `from` that `pinned` picks: a row decontamination should have dropped. */
function slip(from: string, to: string, pinned: (row: Row) => boolean): void {
  const line = readdirSync(join(from, "data")).flatMap((f) => readFileSync(join(from, "data", f), "utf8").split("\n")).find((l) => l !== "" && pinned(JSON.parse(l) as Row));
  expect(line).toBeDefined();
  const shard = readdirSync(join(to, "data")).find((f) => f.endsWith(".jsonl")) as string;
  appendFileSync(join(to, "data", shard), `${line as string}\n`);
}

const runsOf = (r: Row) => (r.run_id === undefined ? [r.run_chosen, r.run_rejected] : [r.run_id]);

describe("decontamination of a pull against the service's benchmark suites (issue 35)", () => {
  it("the emulator's suites pin played scenarios by id and through copies (other id, same hash)", async () => {
    const emu = await emulator({ seed: 35, runs: 160, benchmarkRuns: true });
    const { suites, runs } = await pinnedRuns(emu);
    expect(suites.map((s) => s.suite_key)).toEqual(["negotiation-core", "adversarial-pressure"]);
    // Spec 2.10's shape, before and after the late suite's release.
    shapes.suites.parse({ suites });
    await emu.advance();
    const later = await clientFor(emu, "agent").getJson<{ suites: Suite[] }>("/api/agent/suites");
    expect(shapes.suites.parse(later).suites.map((s) => s.suite_key)).toEqual(["negotiation-core", "adversarial-pressure", "late-release"]);
    const pinnedBy = new Set([...runs.values()].flat());
    expect(pinnedBy).toEqual(new Set(["negotiation-core@2", "adversarial-pressure@1"]));
    // The copy: adversarial-pressure pins the hash of a campaign played under another id.
    const owner = clientFor(emu, "owner");
    const copyRun = [...runs].find(([, by]) => by.includes("adversarial-pressure@1"))?.[0] as string;
    const [record] = (await owner.getJson<{ records: { scenario: { campaign_id: string } }[] }>(`/api/evals/${copyRun}/finetuning`)).records;
    expect(suites[1]?.scenario_ids).not.toContain(record?.scenario.campaign_id);
  });

  for (const format of ["sft", "rl", "dpo"] as const) {
    it(`${format}: no kept row is of a pinned run; the manifest counts what each suite took out; --suites none keeps them`, async () => {
      const emu = await emulator({ seed: 35, runs: 160, benchmarkRuns: true });
      const { runs } = await pinnedRuns(emu);
      expect(runs.size).toBeGreaterThan(0);

      const on = await pull(emu, format);
      const kept = on.rows.flatMap(runsOf);
      expect(kept.length).toBeGreaterThan(0);
      expect(kept.filter((id) => runs.has(id as string))).toEqual([]);
      const section = on.manifest.decontamination;
      expect(section?.asked).toBe("all");
      expect(section?.suites_sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(section?.suites.map((s) => `${s.suite_key}@${s.version}`)).toEqual(["negotiation-core@2", "adversarial-pressure@1"]);
      expect(section?.undecided_records).toBe(0);
      for (const s of section?.suites ?? []) expect(s.pinned_hashes).toBeGreaterThan(0);
      expect(Math.max(...(section?.suites ?? []).map((s) => s.runs_dropped))).toBeGreaterThan(0);
      if (format === "dpo") {
        // DPO pairing consults the rule: a pinned run is never paired, so no pair of one is even fetched.
        expect(on.manifest.pull?.pairs.excluded).toBeGreaterThan(0);
      } else {
        expect(on.manifest.dropped.benchmark_scenario ?? 0).toBeGreaterThan(0);
        expect(Math.max(...(section?.suites ?? []).map((s) => s.records_dropped))).toBeGreaterThan(0);
      }
      expect(readFileSync(join(on.out, "README.md"), "utf8")).toContain("Decontaminated: it excludes every run on a scenario pinned by the benchmark suites `negotiation-core@2`, `adversarial-pressure@1`");

      // verify: no kept row carries a pinned hash (SFT rows carry it); a pinned row slipped into a shard is found.
      expect((await verify(on.out)).findings.filter((f) => f.kind === "benchmark_row")).toEqual([]);
      const off = await pull(emu, format, { extra: "  suites: none\n" });
      expect(off.manifest.decontamination?.suites).toEqual([]);
      expect(off.manifest.dropped.benchmark_scenario ?? 0).toBe(0);
      expect(off.rows.flatMap(runsOf).some((id) => runs.has(id as string))).toBe(true);
      expect(off.rows.length).toBeGreaterThan(on.rows.length);
      // SFT rows carry their hash; RL and DPO rows are checked by their runs' hashes the pull cached.
      slip(off.out, on.out, (r) => runsOf(r).some((id) => runs.get(id as string)?.includes("adversarial-pressure@1") === true));
      expect((await verify(on.out)).findings.find((f) => f.kind === "benchmark_row")?.message).toMatch(/is of a scenario the benchmark suite adversarial-pressure@1 pins \((scenario_version_hash|run \S+'s scenario_version_hash) /);

      // One suite asked for: only its runs go.
      const one = await pull(emu, format, { extra: "  suites: negotiation-core@2\n" });
      const onlyOne = one.rows.flatMap(runsOf);
      expect(onlyOne.filter((id) => runs.get(id as string)?.includes("negotiation-core@2") === true)).toEqual([]);
      expect(one.manifest.decontamination?.suites.map((s) => s.suite_key)).toEqual(["negotiation-core"]);
    });
  }

  it("a view's rows carry no hash: verify checks them by their runs' cached hashes, and by scenario id without the cache", async () => {
    const emu = await emulator({ seed: 35, runs: 160, benchmarkRuns: true });
    const { suites, runs } = await pinnedRuns(emu);
    const on = await pull(emu, "rl", { view: "trl-messages" });
    expect(on.manifest.view?.name).toBe("trl-messages");
    expect(on.rows.filter((r) => runs.has(r.run_id as string))).toEqual([]);
    expect((await verify(on.out)).findings.filter((f) => f.kind === "benchmark_row")).toEqual([]);
    const off = await pull(emu, "rl", { view: "trl-messages", extra: "  suites: none\n" });
    // A copy's row (another scenario id): only its run's cached hash tells.
    slip(off.out, on.out, (r) => runs.get(r.run_id as string)?.includes("adversarial-pressure@1") === true);
    expect((await verify(on.out)).findings.find((f) => f.kind === "benchmark_row")?.message).toMatch(/benchmark suite adversarial-pressure@1 pins \(run \S+'s scenario_version_hash [0-9a-f]{64}\)/);

    const byId = await pull(emu, "rl", { view: "trl-messages" });
    rmSync(join(byId.out, "_cache"), { recursive: true });
    const ids = new Set(suites[0]?.scenario_ids);
    slip(off.out, byId.out, (r) => ids.has((r as { campaign_id?: string }).campaign_id as string));
    expect((await verify(byId.out)).findings.find((f) => f.kind === "benchmark_row")?.message).toMatch(/benchmark suite negotiation-core@2 pins \(scenario id /);
  });

  it("an agent pull (no run documents) drops by scenario id where the records give one", async () => {
    const emu = await emulator({ seed: 35, runs: 160, benchmarkRuns: true });
    const { suites } = await pinnedRuns(emu);
    const ids = new Set(suites.flatMap((s) => s.scenario_ids));
    const off = await pull(emu, "rl", { extra: "  auth: agent\n  suites: none\n" });
    const byIdRows = (rows: Row[]) => rows.filter((r) => ids.has((r as { scenario?: { campaign_id: string } }).scenario?.campaign_id as string));
    expect(byIdRows(off.rows).length).toBeGreaterThan(0);
    const on = await pull(emu, "rl", { extra: "  auth: agent\n" });
    expect(byIdRows(on.rows)).toEqual([]);
    // The rule runs before every other: a pinned record another rule would drop counts as benchmark_scenario.
    expect(on.manifest.dropped.benchmark_scenario).toBeGreaterThanOrEqual(byIdRows(off.rows).length);
    expect(on.manifest.decontamination?.suites.find((s) => s.suite_key === "negotiation-core")?.records_dropped).toBeGreaterThan(0);
    expect(on.manifest.warnings.join("\n")).toMatch(/checked by scenario id only, so a copy of a benchmark scenario under another id is kept/);
    await expect(pull(emu, "rl", { extra: "  auth: agent\n  require_suites: true\n" })).rejects.toThrow(/--require-suites: agent routes give no scenario_version_hash/);
  });

  it("a suite released between two nights retracts its runs' rows on the next night, exactly once", async () => {
    const emu = await emulator({ seed: 36, runs: 400, benchmarkRuns: true });
    const out = join(root, "retract");
    const first = await pull(emu, "sft", { out });
    expect(first.manifest.decontamination?.suites.map((s) => s.suite_key)).not.toContain("late-release");
    await emu.advance();
    const { runs } = await pinnedRuns(emu);
    const late = new Set([...runs].filter(([, by]) => by.includes("late-release@1")).map(([id]) => id));
    const lateRows = first.rows.filter((r) => late.has(r.run_id as string)).length;
    expect(lateRows).toBeGreaterThan(0);

    const second = await pull(emu, "sft", { out });
    expect(second.decision.tripped).toEqual([]);
    expect(second.changed).toBe(true);
    expect(second.rows.filter((r) => late.has(r.run_id as string))).toEqual([]);
    expect(second.manifest.night.removed).toBeGreaterThanOrEqual(lateRows);
    expect(second.manifest.decontamination?.suites.find((s) => s.suite_key === "late-release")?.records_dropped).toBeGreaterThanOrEqual(lateRows);

    const third = await pull(emu, "sft", { out });
    expect(third.changed).toBe(false);
    expect(third.manifest.night.removed).toBe(0);
  });

  it("a night runs the rule on either executor: main's thread by default, worker threads under --workers 2, the same rows", async () => {
    const emu = await emulator({ seed: 35, runs: 60, benchmarkRuns: true });
    const threads = await pull(emu, "sft", { workers: 2 });
    expect(threads.manifest.dropped.benchmark_scenario).toBeGreaterThan(0);
    const main = await pull(emu, "sft");
    expect(threads.rows).toEqual(main.rows);
    expect(threads.manifest.dropped).toEqual(main.manifest.dropped);
  });

  it("without EVAL_API_KEY an owner pull cannot decide: a warning, or with require_suites a usage error", async () => {
    const emu = await emulator({ seed: 35, runs: 60, benchmarkRuns: true });
    const warned = await pull(emu, "sft", { key: false });
    expect(warned.manifest.warnings.join("\n")).toMatch(/decontamination: EVAL_API_KEY is not set/);
    expect(warned.manifest.decontamination?.suites_sha256).toBeNull();
    await expect(pull(emu, "sft", { key: false, extra: "  require_suites: true\n" })).rejects.toThrow(/--require-suites: EVAL_API_KEY is not set/);
  });

  it("run documents without a hash: the records are kept with a warning, or with require_suites the night fails, the dataset untouched", async () => {
    const emu = await emulator({ seed: 35, runs: 60, benchmarkRuns: true });
    const out = join(root, "no-hash");
    const first = await pull(emu, "rl", { out });
    const before = readFileSync(join(out, "manifest.json"), "utf8");
    await emu.advance();
    const strip = (url: string, body: Buffer) => (/^\/api\/evals\/[^/]+\/scorecard/.test(url) ? Buffer.from(body.toString("utf8").replace(/"scenario_version_hash":"[0-9a-f]+"/g, '"other":"x"')) : body);
    const proxy = { url: await rewritingProxy(emu.url, strip), ownerToken: emu.ownerToken, apiKeys: emu.apiKeys };
    await expect(pull(proxy, "rl", { out, extra: "  require_suites: true\n" })).rejects.toThrow(/--require-suites: \d+ record\(s\) of runs whose scenario_version_hash no run document gave/);
    expect(readFileSync(join(out, "manifest.json"), "utf8")).toBe(before);
    const warned = await pull(proxy, "rl", { out: join(root, "no-hash-warned") });
    expect(warned.manifest.decontamination?.undecided_records).toBeGreaterThan(0);
    expect(warned.manifest.warnings.join("\n")).toMatch(/decontamination: \d+ record\(s\) of runs whose scenario_version_hash is unknown were kept unchecked/);
    expect(first.manifest.decontamination?.undecided_records).toBe(0);
  });

  it("a suites answer that fails spec 2.10 is quarantined and fails the night (SuitesError), the dataset untouched", async () => {
    const emu = await emulator({ seed: 35, runs: 60, benchmarkRuns: true });
    const out = join(root, "bad");
    const first = await pull(emu, "sft", { out });
    const before = readFileSync(join(out, "manifest.json"), "utf8");
    const proxy = await rewritingProxy(emu.url, (url, body) => (url === "/api/agent/suites" ? Buffer.from(body.toString("utf8").replace('"status":"released"', '"status":"draft"')) : body));
    await expect(pull({ url: proxy, ownerToken: emu.ownerToken, apiKeys: emu.apiKeys }, "sft", { out })).rejects.toMatchObject({
      name: "SuitesError",
      message: expect.stringMatching(/fails spec 2\.10: suites\[0\]\.status is "draft", not "released"; it is kept as _rejected\/.*\/suites-answer\.json/),
    });
    expect(readFileSync(join(out, "manifest.json"), "utf8")).toBe(before);
    expect(first.rows.length).toBeGreaterThan(0);
    const kept = readdirSync(join(out, "_rejected")).map((d) => join(out, "_rejected", d, "suites-answer.json"));
    expect(readFileSync(kept[0] as string, "utf8")).toContain('"draft"');
  });

  for (const where of ["local", "s3"] as const) {
    it(`an unreachable suites route is retried like the exports, then fails the night, the dataset untouched (${where})`, async () => {
      const emu = await emulator({ seed: 35, runs: 60, benchmarkRuns: true });
      const out = where === "local" ? join(root, "down") : `s3://${s3().bucket}/down`;
      const storage: Files = where === "local" ? new LocalStorage(out) : new S3Storage(out).root;
      const first = await pull(emu, "sft", { out });
      expect(first.changed).toBe(true);
      const before = await datasetFiles(storage);
      // As many 503s as the night's retries allow (maxAttempts 4): the route is back for the next night.
      emu.aimFault({ kind: "503", path: "/api/agent/suites", times: 4 });
      await expect(pull(emu, "sft", { out })).rejects.toThrow(/503/);
      expect(emu.faultLog.filter((f) => f.path === "/api/agent/suites").length).toBe(4);
      expect(await datasetFiles(storage)).toEqual(before);
      // The lock is released: the next night runs (and finds nothing new).
      expect((await pull(emu, "sft", { out })).changed).toBe(false);
    });
  }
});
