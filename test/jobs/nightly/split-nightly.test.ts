import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { commitNight, ConfigError, parsePipeline, runNightly } from "../../../src/index.js";
import type { NightlyResult } from "../../../src/index.js";
import type { SplitManifest } from "../../../src/splits/split-assigner.js";
import { PYTHON, RUN_AND_EXIT } from "../../helpers/python.js";
import { tempDir } from "../../helpers/temp-dir.js";
import { datasetOf, emulator, envFor, fastClock, PIPELINES } from "./support.js";

const root = tempDir("evalshard-split-nightly-");
const SPLIT = "  split:\n    train: 0.6\n    validation: 0.2\n    test: 0.2\n";

/** One night of the shipped SFT pipeline with `output.split` (and `extra` output keys), as JSON Lines. */
async function splitNight(env: Record<string, string>, split = SPLIT): Promise<NightlyResult> {
  const text = readFileSync(join(PIPELINES, "nightly-sft.yaml"), "utf8")
    .replace("to: parquet", "to: jsonl")
    .replace("compression: zstd", "compression: none")
    .replace(/ {2}buckets: 16\n/, `  buckets: 4\n${split}`);
  const spec = parsePipeline(text, "nightly-sft.yaml", env);
  return runNightly(spec, { env, clock: fastClock(), retry: { maxAttempts: 12, baseDelayMs: 1 } });
}

/**
 * Every row of a nightly JSON Lines dataset: its ledger key, the split its file is named after and its campaign.
 * A bucket's shard holds its keys' rows in key order, as the ledger (sorted by key) lists them.
 */
function rowsOf(dir: string): Map<string, { split: string; campaign: string }> {
  const ledger = readFileSync(join(dir, "_state/ledger.ndjson"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as { key: string; split: string; bucket: number });
  const rows = new Map<string, { split: string; campaign: string }>();
  for (const name of readdirSync(join(dir, "data"))) {
    const m = /^(\w+)-(\d{5})-of-\d{5}\.jsonl$/.exec(name);
    if (m === null) throw new Error(`unexpected file data/${name}`);
    const [split, bucket] = [m[1]!, Number(m[2])];
    const keys = ledger.filter((e) => e.split === split && e.bucket === bucket).map((e) => e.key);
    const lines = readFileSync(join(dir, "data", name), "utf8").split("\n").filter(Boolean);
    expect(lines.length, name).toBe(keys.length);
    lines.forEach((line, i) => rows.set(keys[i]!, { split, campaign: (JSON.parse(line) as { scenario: { campaign_id: string } }).scenario.campaign_id }));
  }
  expect(rows.size).toBe(ledger.length);
  return rows;
}

describe("a split nightly dataset (issue 19)", () => {
  it("three nights: no row ever changes split, rows added later join their scenario's split, datasets loads the splits", async () => {
    const emu = await emulator({ seed: 31, runs: 200 });
    const out = join(root, "nights");
    const dir = join(out, "nightly-sft");
    const seen = new Map<string, string>();
    const campaignSplit = new Map<string, string>();
    const everCampaigns = new Map<string, Set<string>>();
    let joined = 0;
    const results: NightlyResult[] = [];
    for (let i = 0; i < 3; i++) {
      results.push(await splitNight(envFor(emu, out)));
      await emu.advance();
      const rows = rowsOf(dir);
      for (const [key, { split, campaign }] of rows) {
        const before = seen.get(key);
        if (before !== undefined) expect(split, `row ${key}`).toBe(before);
        // A row new tonight whose scenario had rows on an earlier night joins that scenario's split.
        const scenario = campaignSplit.get(campaign);
        if (before === undefined && scenario !== undefined) {
          expect(split, `new row ${key} of ${campaign}`).toBe(scenario);
          joined++;
        }
        seen.set(key, split);
        everCampaigns.set(campaign, (everCampaigns.get(campaign) ?? new Set()).add(split));
      }
      for (const [, { split, campaign }] of rows) campaignSplit.set(campaign, split);
    }
    await emu.close().catch(() => undefined);
    // Over all three nights together, a scenario was only ever in one split.
    for (const [campaign, splits] of everCampaigns) expect([...splits], campaign).toHaveLength(1);
    expect(everCampaigns.size).toBeGreaterThan(3);
    // Later nights added rows, some of them to scenarios already in the dataset.
    expect(results.slice(1).some((r) => r.manifest.night.added > 0)).toBe(true);
    expect(joined).toBeGreaterThan(0);
    const last = results.at(-1)!.manifest;
    expect(Object.keys(last.split!.splits)).toEqual(["train", "validation", "test"]);
    expect(last.split).toMatchObject({ by: "scenario", seed: "evalshard-split-1", fractions: { train: 0.6, validation: 0.2, test: 0.2 } });
    const counts = Object.fromEntries(Object.entries(last.split!.splits).filter(([, s]) => s.rows > 0).map(([name, s]) => [name, s.rows]));
    expect(Object.values(counts).reduce((a, b) => a + b, 0)).toBe(last.records_out);
    expect(last.shards.every((s) => s.path.startsWith(`data/${s.split}-`) && /-of-00004\.jsonl$/.test(s.path))).toBe(true);
    const env = { ...process.env, HF_HOME: join(root, "hf"), HF_DATASETS_CACHE: join(root, "hf"), HF_HUB_OFFLINE: "1", HF_DATASETS_OFFLINE: "1" };
    const loaded = execFileSync(PYTHON, [RUN_AND_EXIT, "-c", "import sys, json, datasets; d = datasets.load_dataset(sys.argv[1]); print(json.dumps({k: d[k].num_rows for k in d}))", dir], { env, encoding: "utf8" });
    expect(JSON.parse(loaded)).toEqual(counts);
  }, 300_000);

  it("refuses a night with another split, or none, and leaves the dataset as it was", async () => {
    const emu = await emulator({ seed: 32, runs: 60 });
    const out = join(root, "refuse");
    await splitNight(envFor(emu, out));
    const before = datasetOf(join(out, "nightly-sft"));
    await emu.advance();
    await expect(splitNight(envFor(emu, out), "  split:\n    train: 0.5\n    test: 0.5\n")).rejects.toThrow(ConfigError);
    await expect(splitNight(envFor(emu, out), `${SPLIT}  split_seed: other\n`)).rejects.toThrow(/rows would move between splits/);
    await expect(splitNight(envFor(emu, out), "")).rejects.toThrow(/written with split train=0.6,validation=0.2,test=0.2 by scenario with seed "evalshard-split-1", got split none/);
    await emu.close().catch(() => undefined);
    expect(datasetOf(join(out, "nightly-sft"))).toEqual(before);
  }, 120_000);

  it("N=2 partitions put every row in the split the single job puts it in", async () => {
    const emu = await emulator({ seed: 33, runs: 120 });
    const single = join(root, "single");
    const alone = await splitNight(envFor(emu, single));
    const parts = join(root, "parts");
    const union = new Map<string, string>();
    for (let k = 0; k < 2; k++) {
      const r = await splitNight(envFor(emu, parts, { EVALSHARD_PARTITION: `${k}/2`, EVALSHARD_NIGHT: "split-night" }));
      for (const [key, { split }] of rowsOf(r.outDir)) union.set(key, split);
    }
    await emu.close().catch(() => undefined);
    const whole = new Map([...rowsOf(join(single, "nightly-sft"))].map(([key, { split }]) => [key, split]));
    expect(union.size).toBe(whole.size);
    expect(new Set(union.values()).size).toBeGreaterThan(1);
    for (const [key, split] of whole) expect(union.get(key), key).toBe(split);
    // The committed night's split section: the parts' rows added, each split's share of them the single job's.
    const committed = await commitNight(join(parts, "nightly-sft"), { parts: 2, night: "split-night" });
    const rowsAndShares = (m: { readonly split?: SplitManifest | undefined }) => Object.entries(m.split?.splits ?? {}).map(([name, c]) => [name, c.rows, c.row_fraction]);
    expect(rowsAndShares(committed.manifest)).toEqual(rowsAndShares(alone.manifest));
    expect(rowsAndShares(committed.manifest)).toHaveLength(3);
  }, 180_000);
});
