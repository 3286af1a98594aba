import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../src/service/index.js";
import { clientFor, emulator, listed } from "../pull/support.js";
import { runCli } from "../helpers/run-cli.js";
import { tempDir } from "../helpers/temp-dir.js";

// Issue 35: `convert --suites FILE` applies the one decontamination rule to export files: SFT records of owner
// routes carry their run's scenario_version_hash; RL and DPO records take it from `--run-manifests`.
const root = tempDir("evalshard-decontam-convert-");
let emu: RunningEmulator;
const suitesFile = join(root, "suites.json");
const manifestsFile = join(root, "run-manifests.ndjson");
const pinned = new Set<string>();

async function exportTo(path: string, route: string): Promise<void> {
  const lines: string[] = [];
  for await (const line of clientFor(emu, "owner").getNdjson(route, { limit: 500 })) lines.push(line);
  writeFileSync(path, `${lines.join("\n")}\n`);
}

function rows(out: string): { run_id: string }[] {
  return readdirSync(join(out, "data"))
    .filter((f) => f.endsWith(".jsonl"))
    .flatMap((f) => readFileSync(join(out, "data", f), "utf8").split("\n").filter((l) => l !== ""))
    .map((l) => JSON.parse(l) as { run_id: string });
}

beforeAll(async () => {
  emu = await emulator({ seed: 35, runs: 160, benchmarkRuns: true });
  const answer = await clientFor(emu, "agent").getJson<{ suites: { scenario_version_hashes: string[] }[] }>("/api/agent/suites");
  writeFileSync(suitesFile, JSON.stringify(answer));
  const hashes = new Set(answer.suites.flatMap((s) => s.scenario_version_hashes));
  const owner = clientFor(emu, "owner");
  const docs: string[] = [];
  for (const run of (await listed(owner)).filter((r) => r.scored)) {
    const { manifest } = await owner.getJson<{ manifest: { scenario_version_hash: string } }>(`/api/evals/${run.run_id}/scorecard`);
    docs.push(JSON.stringify({ run_id: run.run_id, manifest }));
    if (hashes.has(manifest.scenario_version_hash)) pinned.add(run.run_id);
  }
  writeFileSync(manifestsFile, `${docs.join("\n")}\n`);
  await exportTo(join(root, "sft.ndjson"), "/api/evals/finetuning");
  await exportTo(join(root, "rl.ndjson"), "/api/evals/finetuning/rl");
}, 120_000);

describe("convert --suites FILE (issue 35)", () => {
  it("SFT: drops every record of a pinned run, counts it per suite, and says so in the card", async () => {
    const out = join(root, "sft-out");
    const r = await runCli(["convert", join(root, "sft.ndjson"), "--out", out, "--to", "jsonl", "--compression", "none", "--suites", suitesFile, "--seats", "all", "--json"]);
    expect(r.stderr).not.toMatch(/decontamination/);
    expect(r.code).toBe(0);
    const manifest = JSON.parse(r.stdout) as { dropped: Record<string, number>; output: { engine: string }; decontamination: { asked: string; suites_sha256: string; suites: { records_dropped: number; runs_dropped: number }[]; undecided_records: number } };
    expect(pinned.size).toBeGreaterThan(0);
    expect(rows(out).filter((row) => pinned.has(row.run_id))).toEqual([]);
    expect(manifest.dropped.benchmark_scenario).toBeGreaterThan(0);
    expect(manifest.output.engine).toBe("parallel");
    expect(manifest.decontamination.asked).toBe(suitesFile);
    expect(manifest.decontamination.suites_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(manifest.decontamination.undecided_records).toBe(0);
    expect(manifest.decontamination.suites.reduce((n, s) => n + s.records_dropped, 0)).toBe(manifest.dropped.benchmark_scenario);
    expect(readFileSync(join(out, "README.md"), "utf8")).toContain("Decontaminated: it excludes every run on a scenario pinned by the benchmark suites");
  });

  it("RL: without --run-manifests a warning (records kept unchecked), with --require-suites exit 2; with them, pinned runs go", async () => {
    const rl = join(root, "rl.ndjson");
    const warned = await runCli(["convert", rl, "--out", join(root, "rl-warned"), "--to", "jsonl", "--compression", "none", "--suites", suitesFile, "--json"]);
    expect(warned.code, warned.stderr).toBe(0);
    expect(warned.stderr).toMatch(/decontamination: \d+ record\(s\) carry no scenario_version_hash/);
    // Records give their scenario id: those of a scenario a suite pins by id go even without the hashes.
    expect(JSON.parse(warned.stdout).dropped.benchmark_scenario).toBeGreaterThan(0);

    const refused = await runCli(["convert", rl, "--out", join(root, "rl-refused"), "--to", "jsonl", "--compression", "none", "--suites", suitesFile, "--require-suites"]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/--require-suites: \d+ record\(s\) carry no scenario_version_hash/);

    const out = join(root, "rl-out");
    const r = await runCli(["convert", rl, "--out", out, "--to", "jsonl", "--compression", "none", "--suites", suitesFile, "--run-manifests", manifestsFile, "--require-suites", "--json"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).dropped.benchmark_scenario).toBeGreaterThan(0);
    expect(rows(out).filter((row) => pinned.has(row.run_id))).toEqual([]);
  });

  it("the engine, in both executors, drops, counts and writes the same, with --top-k-per-scenario too", { timeout: 240_000 }, async () => {
    // A second copy of each record: only the copy that wins dedup counts for its suites.
    writeFileSync(join(root, "sft-again.ndjson"), readFileSync(join(root, "sft.ndjson")));
    // A seat of a pinned scenario's campaign played on another (unpinned) version, scoring lowest: it is its
    // campaign's best seat only once the pinned seats are out of the ranking.
    const decoys = readFileSync(join(root, "sft.ndjson"), "utf8").split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as { run_id: string; manifest: object; scores: { per_trait: Record<string, { mean: number }> } }).filter((r) => pinned.has(r.run_id)).map((r) => ({ ...r, run_id: `${r.run_id}-decoy`, manifest: { ...r.manifest, scenario_version_hash: "0".repeat(64) }, scores: { ...r.scores, per_trait: Object.fromEntries(Object.entries(r.scores.per_trait).map(([k, t]) => [k, { ...t, mean: 0 }])) } }));
    expect(decoys.length).toBeGreaterThan(0);
    writeFileSync(join(root, "sft-decoys.ndjson"), `${decoys.map((r) => JSON.stringify(r)).join("\n")}\n`);
    const cases: [string[], string[]][] = [
      [["sft.ndjson", "sft-again.ndjson"], ["--seats", "all"]],
      [["rl.ndjson"], ["--run-manifests", manifestsFile]],
      [["rl.ndjson"], []],
      // The ranking read decontaminates too: a pinned seat does not take a place in its scenario's top k.
      [["sft.ndjson", "sft-again.ndjson"], ["--seats", "all", "--top-k-per-scenario", "1"]],
      [["sft.ndjson", "sft-decoys.ndjson"], ["--seats", "all", "--top-k-per-scenario", "2"]],
    ];
    for (const [n, [inputs, extra]] of cases.entries()) {
      const outcomes = [];
      for (const executor of [["--workers", "2"], ["--workers", "0"]]) {
        const out = join(root, `agree-${n}-${executor.join("")}`);
        const r = await runCli(["convert", ...inputs.map((i) => join(root, i)), "--out", out, "--to", "jsonl", "--compression", "none", "--suites", suitesFile, "--shard-rows", "50", "--json", ...extra, ...executor]);
        expect(r.code, r.stderr).toBe(0);
        const m = JSON.parse(r.stdout) as { records_out: number; dropped: Record<string, number>; quarantined: object; decontamination: object };
        const data = Object.fromEntries(readdirSync(join(out, "data")).sort().map((f) => [f, readFileSync(join(out, "data", f), "utf8")]));
        outcomes.push({ records_out: m.records_out, dropped: m.dropped, quarantined: m.quarantined, decontamination: m.decontamination, data });
      }
      expect(outcomes[0]?.dropped.benchmark_scenario ?? 0).toBeGreaterThan(n === 2 ? -1 : 0);
      if (n === 0) expect(outcomes[0]?.dropped.duplicate).toBeGreaterThan(0);
      if (n > 2) expect(outcomes[0]?.dropped.not_top_k).toBeGreaterThan(0);
      // The decoys stand in their campaigns' top k.
      if (n === 4) expect(Object.values(outcomes[0]?.data ?? {}).join("").match(/-decoy"/g)?.length).toBeGreaterThan(0);
      expect(outcomes[1]).toEqual(outcomes[0]);
    }
  });

  it("DPO: a pair goes when either of its runs is pinned (--run-manifests), and a clean pair stays", { timeout: 120_000 }, async () => {
    // Runs by scenario (from the SFT export) and their hashes (the run documents).
    const campaignOf = new Map<string, string>();
    for (const line of readFileSync(join(root, "sft.ndjson"), "utf8").split("\n").filter((l) => l.startsWith("{"))) {
      const record = JSON.parse(line) as { run_id?: string; scenario?: { campaign_id: string } };
      if (record.run_id !== undefined && record.scenario !== undefined) campaignOf.set(record.run_id, record.scenario.campaign_id);
    }
    const docs = readFileSync(manifestsFile, "utf8").split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as { run_id: string; manifest: { scenario_version_hash: string } });
    const ids = new Set((JSON.parse(readFileSync(suitesFile, "utf8")) as { suites: { scenario_ids: string[] }[] }).suites.flatMap((s) => s.scenario_ids));
    // A pinned pair on a copy (its scenario id pinned by no suite: only the hash tells), and a clean pair.
    const pairOn = async (pinnedScenario: boolean): Promise<string> => {
      const byCampaign = new Map<string, string[]>();
      for (const { run_id } of docs) {
        const campaign = campaignOf.get(run_id);
        if (campaign !== undefined && !ids.has(campaign) && pinned.has(run_id) === pinnedScenario) byCampaign.set(campaign, [...(byCampaign.get(campaign) ?? []), run_id]);
      }
      for (const runIds of byCampaign.values()) {
        for (let i = 1; i < runIds.length; i++) {
          const answer = await clientFor(emu, "owner").getJson<{ records: unknown[] }>("/api/evals/dpo", { run_id_a: runIds[0] as string, run_id_b: runIds[i] as string }).catch(() => null);
          if (answer !== null && answer.records.length > 0) return JSON.stringify(answer.records[0]);
        }
      }
      throw new Error("no pair found");
    };
    const pinnedPair = JSON.parse(await pairOn(true)) as { run_chosen: string; run_rejected: string };
    const cleanPair = JSON.parse(await pairOn(false)) as { run_chosen: string };
    const dpo = join(root, "dpo.ndjson");
    writeFileSync(dpo, `${JSON.stringify(pinnedPair)}\n${JSON.stringify(cleanPair)}\n`);
    const clean = docs.find((d) => !pinned.has(d.run_id))?.manifest.scenario_version_hash as string;
    // The scenario changed between the pair's runs (another hash): one run of it pinned, the other not.
    for (const cleanRun of [pinnedPair.run_chosen, pinnedPair.run_rejected]) {
      const manifests = join(root, `dpo-manifests-${cleanRun}.ndjson`);
      writeFileSync(manifests, `${docs.map((d) => JSON.stringify(d.run_id === cleanRun ? { ...d, manifest: { ...d.manifest, scenario_version_hash: clean } } : d)).join("\n")}\n`);
      const out = join(root, `dpo-out-${cleanRun}`);
      const r = await runCli(["convert", dpo, "--out", out, "--to", "jsonl", "--compression", "none", "--suites", suitesFile, "--run-manifests", manifests, "--require-suites", "--seats", "all", "--json"]);
      expect(r.code, r.stderr).toBe(0);
      const m = JSON.parse(r.stdout) as { dropped: Record<string, number>; decontamination: { suites: { runs_dropped: number; records_dropped: number }[] } };
      expect(m.dropped.benchmark_scenario).toBe(1);
      expect(m.decontamination.suites.reduce((n, s) => n + s.runs_dropped, 0)).toBe(1);
      expect(rows(out).map((row) => (row as { run_chosen?: string }).run_chosen)).toEqual([cleanPair.run_chosen]);
    }
  });

  it("a suites file that fails spec 2.10 exits 9; --require-suites alone exits 2", async () => {
    const bad = join(root, "bad-suites.json");
    writeFileSync(bad, JSON.stringify({ suites: [{ suite_key: "x" }] }));
    const r = await runCli(["convert", join(root, "sft.ndjson"), "--out", join(root, "bad-out"), "--suites", bad]);
    expect(r.code).toBe(9);
    expect(r.stderr).toMatch(/fails spec 2\.10: suites\[0\]\.title is not a string/);
    const alone = await runCli(["convert", join(root, "sft.ndjson"), "--out", join(root, "alone-out"), "--require-suites"]);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toMatch(/--require-suites: no --suites file/);
  });
});
