import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runNightly } from "../../../src/jobs/nightly/run-nightly.js";
import type { NightlyResult } from "../../../src/jobs/nightly/run-nightly.js";
import { parsePipeline } from "../../../src/pipeline-file/load-pipeline.js";
import { tempDir } from "../../helpers/temp-dir.js";
import { datasetOf, emulator, envFor, fastClock, PIPELINES } from "./support.js";

const root = tempDir("evalshard-view-nightly-");

/** One night of the shipped RL pipeline with `output.view` set, as JSON Lines. */
async function viewNight(env: Record<string, string>, view = "trl-prompt-completion"): Promise<NightlyResult> {
  const text = readFileSync(join(PIPELINES, "nightly-rl.yaml"), "utf8")
    .replace("to: parquet", "to: jsonl")
    .replace("compression: zstd", "compression: none")
    .replace(/ {2}buckets: 16\n/, `  buckets: 16\n  view: ${view}\n`);
  expect(text).toContain(`view: ${view}`);
  const spec = parsePipeline(text, "nightly-rl.yaml", env);
  return runNightly(spec, { env, clock: fastClock(), retry: { maxAttempts: 12, baseDelayMs: 1 } });
}

/** Every row key of a nightly dataset's ledger, and the record keys they come from. */
function ledgerKeys(dir: string): string[] {
  return readFileSync(join(dir, "_state/ledger.ndjson"), "utf8")
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((l) => (JSON.parse(l) as { key: string }).key);
}

describe("a nightly dataset of view rows (output.view)", () => {
  it("three nights of rescoring and late flags hold each row exactly once, as one fresh pull does", async () => {
    const emu = await emulator({ seed: 21, runs: 160 });
    const nightly = join(root, "nightly");
    const results: NightlyResult[] = [];
    for (let i = 0; i < 3; i++) {
      results.push(await viewNight(envFor(emu, nightly)));
      await emu.advance();
    }
    await emu.close().catch(() => undefined);
    const again = await emulator({ seed: 21, runs: 160, epoch: 3 });
    const last = await viewNight(envFor(again, nightly));
    const fresh = await viewNight(envFor(again, join(root, "fresh")));
    await again.close().catch(() => undefined);
    const dir = join(nightly, "nightly-rl");
    expect(datasetOf(dir)).toEqual(datasetOf(join(root, "fresh", "nightly-rl")));
    // Rows, not records: the ledger holds one key per row, each once, and as many as the view wrote.
    const keys = ledgerKeys(dir);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys.length).toBe(last.manifest.view?.rows_out);
    expect(fresh.manifest.view?.rows_out).toBe(last.manifest.view?.rows_out);
    // Each row's key is its record's key and its place: the records behind the rows are the kept records.
    expect(new Set(keys.map((k) => k.replace(/#\d{5}$/, ""))).size).toBeLessThanOrEqual(last.manifest.records_out);
    const rows = last.manifest.shards.reduce((n, s) => n + s.rows, 0);
    expect(rows).toBe(keys.length);
    // Rescored runs replaced their rows; flagged (or gone) runs removed theirs.
    const nights = results.map((r) => r.manifest.night);
    expect(nights.slice(1).some((t) => t.replaced > 0)).toBe(true);
    expect(nights.slice(1).some((t) => t.removed > 0)).toBe(true);
    expect(last.manifest).toMatchObject({ view: { name: "trl-prompt-completion", trl_dataset_type: "conversational prompt-completion" } });
    expect(readFileSync(join(dir, "README.md"), "utf8")).toMatch(/trl-prompt-completion/);
    const line = readFileSync(join(dir, last.manifest.shards[0]?.path ?? ""), "utf8").split("\n")[0] ?? "";
    expect(Object.keys(JSON.parse(line) as object)).toEqual(["prompt", "completion", "run_id", "seat_index", "step_index", "campaign_id"]);
  }, 300_000);

  it("trl-stepwise (a row per episode) and trl-prompt-only: a rescoring night holds each row once, as one fresh pull does", async () => {
    for (const view of ["trl-stepwise", "trl-prompt-only"]) {
      const emu = await emulator({ seed: 22, runs: 80 });
      const nightly = join(root, `${view}-nightly`);
      const first = await viewNight(envFor(emu, nightly), view);
      await emu.advance();
      await emu.close().catch(() => undefined);
      const again = await emulator({ seed: 22, runs: 80, epoch: 1 });
      const last = await viewNight(envFor(again, nightly), view);
      const fresh = await viewNight(envFor(again, join(root, `${view}-fresh`)), view);
      await again.close().catch(() => undefined);
      const dir = join(nightly, "nightly-rl");
      expect(datasetOf(dir)).toEqual(datasetOf(join(root, `${view}-fresh`, "nightly-rl")));
      expect(fresh.manifest.view).toEqual(last.manifest.view);
      const keys = ledgerKeys(dir);
      expect(new Set(keys).size).toBe(keys.length);
      expect(keys.length).toBe(last.manifest.view?.rows_out);
      expect(first.manifest.view?.rows_out).toBeGreaterThan(0);
      expect(last.manifest.night.replaced + last.manifest.night.removed).toBeGreaterThan(0);
      // A stepwise row is a whole episode: one row per kept record at most, so one row key per record.
      if (view === "trl-stepwise") expect(keys.every((k) => k.endsWith("#00000"))).toBe(true);
    }
  }, 300_000);

  it("trl-messages: two nights hold each seat episode once, one row a record, as one fresh pull does", async () => {
    const emu = await emulator({ seed: 5, runs: 60 });
    const nightly = join(root, "episodes");
    await viewNight(envFor(emu, nightly), "trl-messages");
    await emu.advance();
    const last = await viewNight(envFor(emu, nightly), "trl-messages");
    const fresh = await viewNight(envFor(emu, join(root, "episodes-fresh")), "trl-messages");
    await emu.close().catch(() => undefined);
    const dir = join(nightly, "nightly-rl");
    expect(datasetOf(dir)).toEqual(datasetOf(join(root, "episodes-fresh", "nightly-rl")));
    const keys = ledgerKeys(dir);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys.length).toBeGreaterThan(10);
    expect(keys.every((k) => k.endsWith("#00000"))).toBe(true);
    expect(keys.length).toBe(last.manifest.view?.rows_out);
    expect(fresh.manifest.view).toEqual(last.manifest.view);
    expect(last.manifest.view).toMatchObject({ name: "trl-messages", trl_dataset_type: "conversational language modeling", episodes_dropped: {} });
  }, 300_000);

  it("a DPO view pulls the paired runs' RL records for its prompts; three nights hold each row once, as one fresh pull does", async () => {
    /** One night of the shipped DPO pipeline with `output.view: trl-preference`, pairs of every strategy. */
    const dpoNight = (env: Record<string, string>) => {
      const text = readFileSync(join(PIPELINES, "nightly-dpo.yaml"), "utf8")
        .replace("strategy: best-worst", "strategy: all")
        .replace(/ {2}buckets: 16\n/, "  buckets: 16\n  view: trl-preference\n");
      expect(text).toContain("view: trl-preference");
      return runNightly(parsePipeline(text, "nightly-dpo.yaml", env), { env, clock: fastClock(), retry: { maxAttempts: 12, baseDelayMs: 1 } });
    };
    const emu = await emulator({ seed: 23, runs: 120 });
    const nightly = join(root, "dpo-nightly");
    const results: NightlyResult[] = [];
    for (let i = 0; i < 3; i++) {
      results.push(await dpoNight(envFor(emu, nightly)));
      await emu.advance();
    }
    await emu.close().catch(() => undefined);
    const again = await emulator({ seed: 23, runs: 120, epoch: 3 });
    const last = await dpoNight(envFor(again, nightly));
    const fresh = await dpoNight(envFor(again, join(root, "dpo-fresh")));
    await again.close().catch(() => undefined);
    const dir = join(nightly, "nightly-dpo");
    expect(datasetOf(dir)).toEqual(datasetOf(join(root, "dpo-fresh", "nightly-dpo")));
    const view = last.manifest.view;
    // The pull fetched the paired runs' RL trajectories: prompts came from them, not from nowhere.
    expect(view?.context?.records).toBeGreaterThan(0);
    expect(view?.context?.trajectories).toBeGreaterThan(0);
    expect(view?.context?.invalid).toBe(0);
    expect(view?.rows_out).toBeGreaterThan(0);
    expect(view?.pairs_dropped?.no_context ?? 0).toBeLessThan(view?.rows_out ?? 0);
    expect(view?.context?.inputs).toEqual([expect.stringMatching(/^RL records of the paired runs, from http:\/\/127\.0\.0\.1:\d+\/api\/evals\/dpo \(owner\)$/)]);
    expect(fresh.manifest.view).toEqual(view);
    const keys = ledgerKeys(dir);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys.length).toBe(view?.rows_out);
    expect(last.manifest).toMatchObject({ view: { name: "trl-preference", trainer: "DPOTrainer" } });
    expect(results.every((r) => (r.manifest.view?.context?.records ?? 0) > 0)).toBe(true);
  }, 300_000);

  it("refuses a DPO view on a pipeline of export files, which holds no RL records to take prompts from", () => {
    const text = readFileSync(join(PIPELINES, "nightly-dpo.yaml"), "utf8")
      .replace(/source:\n[\s\S]*?\nfilters:/, "source:\n  kind: files\n  inputs: [dpo.ndjson]\nfilters:")
      .replace(/ {2}buckets: 16\n/, "  buckets: 16\n  view: trl-preference\n");
    const env = { EVALSHARD_OUT: join(root, "dpo") };
    expect(() => parsePipeline(text, "nightly-dpo.yaml", env)).toThrow(/trl-preference takes its prompts from RL records, which a pipeline of export files does not have/);
  });
});
