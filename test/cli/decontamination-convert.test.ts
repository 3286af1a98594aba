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

    const refused = await runCli(["convert", rl, "--out", join(root, "rl-refused"), "--to", "jsonl", "--compression", "none", "--suites", suitesFile, "--require-suites"]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/--require-suites: \d+ record\(s\) carry no scenario_version_hash/);

    const out = join(root, "rl-out");
    const r = await runCli(["convert", rl, "--out", out, "--to", "jsonl", "--compression", "none", "--suites", suitesFile, "--run-manifests", manifestsFile, "--require-suites", "--json"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).dropped.benchmark_scenario).toBeGreaterThan(0);
    expect(rows(out).filter((row) => pinned.has(row.run_id))).toEqual([]);
  });

  it("the unit engine, in both executors, drops, counts and writes what the stages engine does, with --top-k-per-scenario too", { timeout: 240_000 }, async () => {
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
      for (const engine of [["--engine", "stages"], ["--engine", "parallel"], ["--engine", "parallel", "--workers", "0"]]) {
        const out = join(root, `agree-${n}-${engine.join("")}`);
        const r = await runCli(["convert", ...inputs.map((i) => join(root, i)), "--out", out, "--to", "jsonl", "--compression", "none", "--suites", suitesFile, "--shard-rows", "50", "--json", ...extra, ...engine]);
        expect(r.code, r.stderr).toBe(0);
        const m = JSON.parse(r.stdout) as { records_out: number; dropped: Record<string, number>; quarantined: object; decontamination: object; output: { engine: string } };
        expect(m.output.engine).toBe(engine[1]);
        const data = Object.fromEntries(readdirSync(join(out, "data")).sort().map((f) => [f, readFileSync(join(out, "data", f), "utf8")]));
        outcomes.push({ records_out: m.records_out, dropped: m.dropped, quarantined: m.quarantined, decontamination: m.decontamination, data });
      }
      expect(outcomes[0]?.dropped.benchmark_scenario ?? 0).toBeGreaterThan(n === 2 ? -1 : 0);
      if (n === 0) expect(outcomes[0]?.dropped.duplicate).toBeGreaterThan(0);
      if (n > 2) expect(outcomes[0]?.dropped.not_top_k).toBeGreaterThan(0);
      // The decoys stand in their campaigns' top k.
      if (n === 4) expect(Object.values(outcomes[0]?.data ?? {}).join("").match(/-decoy"/g)?.length).toBeGreaterThan(0);
      expect(outcomes[1]).toEqual(outcomes[0]);
      expect(outcomes[2]).toEqual(outcomes[0]);
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
