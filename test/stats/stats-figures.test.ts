import { execFile } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { DuckDBInstance } from "@duckdb/node-api";
import { beforeAll, describe, expect, it } from "vitest";
import { RATE_BIN, SCORE_BIN } from "../../src/stats/dataset-stats.js";
import type { DistributionStats, StatsManifest } from "../../src/stats/dataset-stats.js";
import { SAFETY_TRAITS } from "../../src/formats/seat-score.js";
import { startEmulator } from "../../src/service/index.js";
import { sealedManifestText } from "../../src/output/manifest-seal.js";
import { PythonBatch } from "../helpers/python-batch.js";
import { dpoPairsAndScorecards, rlScorecards } from "../helpers/scored-exports.js";
import { spawnCli } from "../helpers/spawn-cli.js";
import { tempDir } from "../helpers/temp-dir.js";

// Issue 36: the manifest's `stats`, counted by the engines as they write the rows, against DuckDB's (and, for
// token lengths, transformers') reading of the shards written: Parquet and JSON Lines on both executors, a
// view, a tokenized view, and a nightly dataset over two nights, the second replacing runs. RL and DPO scores
// come from --scorecards: DuckDB joins the shards' rows to the scorecards file as the score book does.
const root = tempDir("evalshard-stats-");
const GENERATE = fileURLToPath(new URL("../../bench/generate-exports.mjs", import.meta.url));
const TOKEN_CHECK = fileURLToPath(new URL("../python/token_check.py", import.meta.url));
const execFileAsync = promisify(execFile);
const manifestOf = (dir: string) => JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")) as { stats: StatsManifest; records_out: number; night?: { replaced: number }; snapshot: number; view?: { rows_out: number } };

type Facts = (query: string) => Promise<Record<string, unknown>[]>;

/** A DuckDB session over the tables `setup` creates: they are built (from the shards) once, then each query reads them. */
async function withFacts<T>(setup: readonly string[], use: (facts: Facts) => Promise<T>): Promise<T> {
  const instance = await DuckDBInstance.create(":memory:");
  const connection = await instance.connect();
  try {
    for (const sql of setup) await connection.run(sql);
    return await use(async (query) => (await connection.runAndReadAll(query)).getRowObjectsJson() as Record<string, unknown>[]);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

const duckdb = (statements: readonly string[], query: string) => withFacts(statements, (facts) => facts(query));

const SAFETY = `(${[...SAFETY_TRAITS].map((t) => `'${t}'`).join(", ")})`;
const SPLIT = "regexp_extract(filename, '/data/([a-z]+)-', 1)";

/** Per row of a plain SFT dataset's shards: split, scenario, composite, objective rate, and each trait's mean (table `traits`). */
function sftFacts(dir: string, to: "parquet" | "jsonl"): string[] {
  // JSON Lines shards hold maps as Parquet does, lists of {key, value}: one query reads both.
  const from = to === "parquet" ? `read_parquet('${dir}/data/*.parquet', filename = true)` : `read_json('${dir}/data/*.jsonl*', format = 'newline_delimited', sample_size = -1, filename = true)`;
  return [
    `CREATE TABLE facts AS SELECT ${SPLIT} AS split, scenario.campaign_id AS scenario, scores IS NULL AS unscored,
      list_avg(list_transform(list_filter(scores.per_trait, t -> t.key NOT IN ${SAFETY}), t -> t.value.mean)) AS composite,
      CASE WHEN coalesce(scores.outcomes.total_checks, 0) = 0 THEN 0 ELSE scores.outcomes.met_count / scores.outcomes.total_checks END AS rate FROM ${from}`,
    `CREATE TABLE traits AS SELECT t.key AS name, t.value.mean AS mean FROM (SELECT unnest(scores.per_trait) AS t FROM ${from})`,
  ];
}

/**
 * Table `cards` from a scorecards file (spec 2.7): each card's run, agent key, version (a response's latest,
 * NULL for a bare card), composite (mean of the non-safety trait means), objective rate and `per_trait` map.
 */
function cardsOf(file: string): string[] {
  const card = "STRUCT(run_id VARCHAR, agent_key_id VARCHAR, outcomes STRUCT(met_count DOUBLE, total_checks DOUBLE), traits STRUCT(per_trait MAP(VARCHAR, STRUCT(mean DOUBLE))))";
  return [
    `CREATE TABLE lines AS SELECT * FROM read_json_auto('${file}', format = 'newline_delimited', columns = {scorecards: '${card}[]', versions: 'BIGINT[]', run_id: 'VARCHAR', agent_key_id: 'VARCHAR', outcomes: 'STRUCT(met_count DOUBLE, total_checks DOUBLE)', traits: 'STRUCT(per_trait MAP(VARCHAR, STRUCT(mean DOUBLE)))'})`,
    `CREATE TABLE card_lines AS SELECT unnest(scorecards) AS c, list_max(versions) AS version FROM lines WHERE scorecards IS NOT NULL
      UNION ALL SELECT {run_id: run_id, agent_key_id: agent_key_id, outcomes: outcomes, traits: traits} AS c, NULL AS version FROM lines WHERE scorecards IS NULL`,
    `CREATE TABLE cards AS SELECT c.run_id, c.agent_key_id, version,
      list_avg(list_transform(list_filter(map_entries(c.traits.per_trait), t -> t.key NOT IN ${SAFETY}), t -> t.value.mean)) AS composite,
      CASE WHEN c.outcomes.total_checks = 0 THEN 0 ELSE c.outcomes.met_count / c.outcomes.total_checks END AS rate, c.traits.per_trait AS per_trait FROM card_lines`,
  ];
}

/**
 * Tables `facts` and `traits` (each row's trait means) of an RL dataset: each row's seat's card of its
 * scorecard version, else its bare card (none: unscored).
 */
function rlFacts(dir: string, scorecards: string, seats = `SELECT ${SPLIT} AS split, scenario.campaign_id AS scenario, run_id, seat.agent_key_id AS agent_key_id, scorecard_version FROM read_parquet('${dir}/data/*.parquet', filename = true)`): string[] {
  return [
    ...cardsOf(scorecards),
    `CREATE TABLE seats AS ${seats}`,
    `CREATE TABLE facts AS SELECT s.split, s.scenario, e.run_id IS NULL AND b.run_id IS NULL AS unscored,
      CASE WHEN e.run_id IS NULL THEN b.composite ELSE e.composite END AS composite, CASE WHEN e.run_id IS NULL THEN b.rate ELSE e.rate END AS rate,
      CASE WHEN e.run_id IS NULL THEN b.per_trait ELSE e.per_trait END AS per_trait
      FROM seats s
      LEFT JOIN cards e ON e.run_id = s.run_id AND e.agent_key_id IS NOT DISTINCT FROM s.agent_key_id AND e.version = s.scorecard_version
      LEFT JOIN cards b ON b.run_id = s.run_id AND b.agent_key_id IS NOT DISTINCT FROM s.agent_key_id AND b.version IS NULL`,
    `CREATE TABLE traits AS SELECT t.key AS name, t.value.mean AS mean FROM (SELECT unnest(map_entries(per_trait)) AS t FROM facts)`,
  ];
}

/** {@link rlFacts} of a step view's rows: each row's seat (agent key, scorecard version) from its record in the export. */
function rlViewFacts(dir: string, exported: string, scorecards: string): string[] {
  const records = `read_json('${exported}', format = 'newline_delimited', columns = {run_id: 'VARCHAR', seat: 'STRUCT(seat_index BIGINT, agent_key_id VARCHAR)', scorecard_version: 'BIGINT'})`;
  return rlFacts(dir, scorecards, `SELECT ${SPLIT} AS split, v.campaign_id AS scenario, v.run_id, r.agent_key_id, r.scorecard_version
    FROM read_parquet('${dir}/data/*.parquet', filename = true) v JOIN (SELECT DISTINCT run_id, seat.seat_index AS seat_index, seat.agent_key_id AS agent_key_id, scorecard_version FROM ${records}) r
    ON r.run_id = v.run_id AND r.seat_index = v.seat_index`);
}

/**
 * Tables `facts` and `traits` of a DPO dataset: each pair's chosen run's score, the mean over the cards of the
 * run's latest version (a bare card's counts as 0), its agent seats' where it has any; each trait's mean
 * likewise, over those of the cards that have the trait.
 */
function dpoFacts(dir: string, scorecards: string): string[] {
  return [
    ...cardsOf(scorecards),
    `CREATE TABLE current AS SELECT * FROM cards c WHERE coalesce(version, 0) = (SELECT max(coalesce(version, 0)) FROM cards d WHERE d.run_id = c.run_id)`,
    `CREATE TABLE seats AS SELECT * FROM current c
      WHERE agent_key_id IS NOT NULL OR NOT EXISTS (SELECT 1 FROM current d WHERE d.run_id = c.run_id AND d.agent_key_id IS NOT NULL)`,
    "CREATE TABLE runs AS SELECT run_id, avg(composite) AS composite, avg(rate) AS rate FROM seats GROUP BY run_id",
    "CREATE TABLE run_traits AS SELECT run_id, t.key AS name, avg(t.value.mean) AS mean FROM (SELECT run_id, unnest(map_entries(per_trait)) AS t FROM seats) GROUP BY run_id, name",
    `CREATE TABLE facts AS SELECT ${SPLIT} AS split, p.scenario.campaign_id AS scenario, r.run_id IS NULL AS unscored, r.composite, r.rate, p.run_chosen
      FROM read_parquet('${dir}/data/*.parquet', filename = true) p LEFT JOIN runs r ON r.run_id = p.run_chosen`,
    "CREATE TABLE traits AS SELECT t.name, t.mean FROM facts f JOIN run_traits t ON t.run_id = f.run_chosen",
  ];
}

/** A distribution's bins keyed by their lower edge in millionths, from DuckDB over `values` (a query of one column `v`). */
async function binsOf(facts: Facts, values: string, width: number): Promise<{ bins: Map<number, number>; count: number; mean: number | null; min: number | null; max: number | null }> {
  const scale = Math.round(width * 1e6);
  const rows = await facts(`SELECT (floor(round(v * 1e6) / ${scale}) * ${scale})::BIGINT AS lower, count(*) AS n, sum(count(*)) OVER () AS total, sum(sum(v)) OVER () / sum(count(*)) OVER () AS mean, min(min(v)) OVER () AS lo, max(max(v)) OVER () AS hi FROM (${values}) WHERE v IS NOT NULL GROUP BY lower`);
  const first = rows[0];
  const number = (v: unknown) => (first === undefined ? null : Number(v));
  return { bins: new Map(rows.map((r) => [Number(r.lower), Number(r.n)])), count: Number(first?.total ?? 0), mean: number(first?.mean), min: number(first?.lo), max: number(first?.hi) };
}
const shownBins = (d: DistributionStats) => new Map(d.bins.map(([lower, n]) => [Math.round(lower * 1e6), n]));

/** A distribution's every figure against DuckDB's over `values`. */
async function expectDistribution(shown: DistributionStats, facts: Facts, values: string, width: number): Promise<void> {
  const expected = await binsOf(facts, values, width);
  expect(shownBins(shown)).toEqual(expected.bins);
  expect(shown.count).toBe(expected.count);
  for (const figure of ["mean", "min", "max"] as const) {
    if (expected[figure] === null) expect(shown[figure]).toBeNull();
    else expect(shown[figure], figure).toBeCloseTo(expected[figure], 6);
  }
}

/** The composite's and objective rate's figures and the unscored rows of `stats` against DuckDB's table `facts`. */
async function expectScores(stats: StatsManifest, facts: Facts): Promise<void> {
  await expectDistribution(stats.composite, facts, "SELECT composite AS v FROM facts WHERE NOT unscored", SCORE_BIN);
  await expectDistribution(stats.objective_rate, facts, "SELECT rate AS v FROM facts WHERE NOT unscored", RATE_BIN);
  const [unscored] = await facts("SELECT count(*) FILTER (WHERE unscored) AS n FROM facts");
  expect(stats.unscored_rows).toBe(Number(unscored?.n));
}

/** Every score figure and the scenarios and splits of `stats` against DuckDB over the dataset's rows. */
async function expectScoresAndScenarios(stats: StatsManifest, setup: readonly string[]): Promise<void> {
  await withFacts(setup, async (facts) => {
    await expectScores(stats, facts);
    const names = (await facts("SELECT DISTINCT name FROM traits ORDER BY name")).map((r) => String(r.name));
    expect(Object.keys(stats.traits).sort()).toEqual(names);
    expect(names.length).toBeGreaterThan(2);
    for (const name of names) await expectDistribution(stats.traits[name] as DistributionStats, facts, `SELECT mean AS v FROM traits WHERE name = '${name}'`, SCORE_BIN);
    await expectScenariosAndSplits(stats, facts);
  });
}

async function expectScenariosAndSplits(stats: StatsManifest, facts: Facts): Promise<void> {
  const scenarios = await facts("SELECT scenario, count(*) AS rows FROM facts GROUP BY scenario ORDER BY rows DESC, scenario");
  const all = scenarios.map((r) => ({ scenario: String(r.scenario), rows: Number(r.rows) }));
  expect(stats.scenarios.count).toBe(all.length);
  expect(stats.scenarios.top).toEqual(all.slice(0, 20));
  expect(stats.scenarios.tail).toEqual({ scenarios: Math.max(0, all.length - 20), rows: all.slice(20).reduce((n, s) => n + s.rows, 0) });
  const splits = await facts("SELECT split, count(*) AS n FROM facts GROUP BY split");
  expect(stats.splits).toEqual(Object.fromEntries(splits.map((r) => [String(r.split), Number(r.n)])));
  expect(stats.rows).toBe(all.reduce((n, s) => n + s.rows, 0));
}

/** Every chart of a report page: caption -> label -> value, from its bars', columns' and bins' `data-*` attributes. */
function chartsOf(html: string): Map<string, Map<string, number>> {
  const charts = new Map<string, Map<string, number>>();
  for (const figure of html.matchAll(/<figure class="chart"><figcaption>([^<]*)<\/figcaption>([\s\S]*?)<\/figure>/g)) {
    const marks = new Map<string, number>();
    for (const m of (figure[2] as string).matchAll(/<rect class="(?:bar|bin)" data-label="([^"]*)" data-value="([\d.]+)"/g)) marks.set(m[1] as string, Number(m[2]));
    for (const m of (figure[2] as string).matchAll(/<rect class="col" data-series="([^"]*)" data-night="([^"]*)" data-value="([\d.]+)"/g)) marks.set(`${m[1]}@${m[2]}`, Number(m[3]));
    charts.set(figure[1] as string, marks);
  }
  return charts;
}

async function reportCharts(dataset: string): Promise<Map<string, Map<string, number>>> {
  const path = join(root, `${dataset.replace(/[^\w]/g, "_")}.html`);
  const r = await spawnCli(["report", dataset, "--out", path]);
  expect(r.status, r.stderr).toBe(0);
  return chartsOf(readFileSync(path, "utf8"));
}

/** A distribution's bins as the report labels them. */
function labelled(d: DistributionStats): Map<string, number> {
  const upper = (lower: number) => (d.bin_width === "log2" ? lower * 2 : Math.round((lower + d.bin_width) * 1e6) / 1e6);
  return new Map(d.bins.map(([lower, n]) => [d.bin_width === "log2" && lower === 0 ? "0" : `[${lower}, ${upper(lower)})`, n]));
}

/** The report's current-snapshot figures are the manifest's stats (which the tests above check against DuckDB). */
function expectReportDraws(charts: Map<string, Map<string, number>>, stats: StatsManifest): void {
  expect(charts.get("Composite score (mean of per-trait means), rows per bin")).toEqual(labelled(stats.composite));
  expect(charts.get("Objective rate (met_count / total_checks), rows per bin")).toEqual(labelled(stats.objective_rate));
  for (const [name, d] of Object.entries(stats.traits)) expect(charts.get(`Trait ${name}: mean score, rows per bin`)).toEqual(labelled(d));
  const scenarios = [...charts.keys()].find((k) => k.startsWith("Rows per scenario: the top"));
  const tail = stats.scenarios.tail.scenarios === 0 ? [] : [[`the other ${stats.scenarios.tail.scenarios} scenarios`, stats.scenarios.tail.rows] as const];
  expect(charts.get(scenarios as string)).toEqual(new Map([...stats.scenarios.top.map((t) => [t.scenario, t.rows] as const), ...tail]));
  if (stats.tokens !== undefined) expect(charts.get("Training-text length in tokens, rows per bin")).toEqual(labelled(stats.tokens));
}

/**
 * Writes, as bare cards (version NULL: a pull takes one body a run, pinned to the version its records carry),
 * the cards the emulator itself answers for each of `runs` (run id to the version to pin; null: its latest).
 */
async function emulatorCards(url: string, token: string, runs: ReadonlyMap<string, number | null>, file: string): Promise<void> {
  const lines: string[] = [];
  for (const [runId, version] of runs) {
    const query = version === null ? "" : `?version=${version}`;
    const response = await fetch(`${url}/api/evals/${encodeURIComponent(runId)}/scorecard${query}`, { headers: { authorization: `Bearer ${token}` } });
    expect(response.status, runId).toBe(200);
    const body = (await response.json()) as { scorecards: unknown[] };
    for (const card of body.scorecards) lines.push(JSON.stringify(card));
  }
  writeFileSync(file, `${lines.join("\n")}\n`);
}

/** The runs a pulled dataset's rows come from, each with the scorecard version its records carry (RL), or null (DPO's pairs, both runs). */
async function pulledRuns(dir: string, format: "rl" | "dpo"): Promise<Map<string, number | null>> {
  const from = `read_parquet('${dir}/data/*.parquet')`;
  const query = format === "rl" ? `SELECT run_id, max(scorecard_version) AS v FROM ${from} GROUP BY run_id` : `SELECT DISTINCT unnest([run_chosen, run_rejected]) AS run_id, NULL AS v FROM ${from}`;
  const rows = await duckdb([], query);
  return new Map(rows.map((r) => [String(r.run_id), r.v === null || r.v === undefined ? null : Number(r.v)]));
}

async function convert(out: string, args: readonly string[]): Promise<StatsManifest> {
  const r = await spawnCli(["convert", ...args, "--out", out]);
  expect(r.status, r.stderr).toBe(0);
  const verified = await spawnCli(["verify", out]);
  expect(verified.status, verified.stdout + verified.stderr).toBe(0);
  return manifestOf(out).stats;
}

let sft = "";
let rl = "";
beforeAll(async () => {
  // ~10 MiB: two units of the parallel engine; 40 scenarios (a long tail past the top 20), seven traits.
  sft = join(root, "sft.ndjson");
  rl = join(root, "rl.ndjson");
  await execFileAsync(process.execPath, [GENERATE, "--format", "sft", "--mib", "10", "--seed", "36", "--out", sft]);
  await execFileAsync(process.execPath, [GENERATE, "--format", "rl", "--mib", "2", "--seed", "36", "--out", rl]);
}, 60_000);

describe("the manifest's stats, against DuckDB over the shards", () => {
  it("convert to Parquet (split): both executors count the same figures, and they are DuckDB's", async () => {
    const args = [sft, "--split", "train=0.8,test=0.2", "--seats", "all"];
    const parallel = await convert(join(root, "parquet-parallel"), [...args, "--workers", "2"]);
    const stages = await convert(join(root, "parquet-stages"), [...args, "--workers", "0"]);
    expect(stages).toEqual(parallel);
    expect(parallel.scenarios.tail.scenarios).toBeGreaterThan(0);
    expect(Object.keys(parallel.splits).sort()).toEqual(["test", "train"]);
    await expectScoresAndScenarios(parallel, sftFacts(join(root, "parquet-parallel"), "parquet"));
    // verify holds the stats to the shards: a test split's rows moved to train, the manifest sealed again, fails.
    const dir = join(root, "parquet-stages");
    const m = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")) as { stats: StatsManifest };
    const splits = { test: (m.stats.splits.test ?? 0) - 1, train: (m.stats.splits.train ?? 0) + 1 };
    writeFileSync(join(dir, "manifest.json"), sealedManifestText({ ...m, stats: { ...m.stats, splits } }));
    const verified = await spawnCli(["verify", dir]);
    expect(verified.status).toBe(5);
    expect(verified.stdout + verified.stderr).toMatch(/stats\.splits\.test is \d+, its test shards hold \d+ rows/);
  }, 120_000);

  it("convert to JSON Lines: the same figures as DuckDB reads them from the lines", async () => {
    const dir = join(root, "jsonl");
    const stats = await convert(dir, [sft, "--to", "jsonl", "--no-filter-unscored"]);
    expect(stats.unscored_rows).toBeGreaterThan(0);
    await expectScoresAndScenarios(stats, sftFacts(dir, "jsonl"));
  }, 120_000);

  it("a view: its rows per scenario and split (the record's facts), unscored without --scorecards", async () => {
    const args = [rl, "--view", "trl-prompt-completion", "--split", "train=0.5,test=0.5"];
    const parallel = await convert(join(root, "view-parallel"), [...args, "--workers", "2"]);
    const stages = await convert(join(root, "view-stages"), [...args, "--workers", "0"]);
    expect(stages).toEqual(parallel);
    const dir = join(root, "view-parallel");
    expect(parallel.rows).toBe(manifestOf(dir).view?.rows_out);
    expect(parallel.unscored_rows).toBe(parallel.rows);
    expect(parallel.composite.count).toBe(0);
    await withFacts([`CREATE TABLE facts AS SELECT ${SPLIT} AS split, campaign_id AS scenario FROM read_parquet('${dir}/data/*.parquet', filename = true)`], (facts) => expectScenariosAndSplits(parallel, facts));
  }, 120_000);

  it("RL with --scorecards: each seat's card and its trait means, joined to the shards by DuckDB; both executors count the same; the report draws them", async () => {
    const cards = join(root, "rl-scorecards.ndjson");
    writeFileSync(cards, rlScorecards(rl, 36));
    const args = [rl, "--scorecards", cards, "--seats", "all", "--split", "train=0.7,test=0.3"];
    const parallel = await convert(join(root, "rl-cards-parallel"), [...args, "--workers", "2"]);
    const stages = await convert(join(root, "rl-cards-stages"), [...args, "--workers", "0"]);
    expect(stages).toEqual(parallel);
    const setup = rlFacts(join(root, "rl-cards-parallel"), cards);
    const [cases] = await duckdb(setup, "SELECT count(*) FILTER (WHERE composite IS NULL AND NOT unscored) AS traitless, count(*) FILTER (WHERE unscored) AS unscored, count(*) AS rows FROM facts");
    expect(Number(cases?.rows)).toBe(parallel.rows);
    expect(Number(cases?.traitless)).toBeGreaterThan(0);
    expect(Number(cases?.unscored)).toBeGreaterThan(0);
    expect(parallel.composite.count).toBeGreaterThan(40);
    await expectScoresAndScenarios(parallel, setup);
    expectReportDraws(await reportCharts(join(root, "rl-cards-stages")), stages);
  }, 120_000);

  it("an RL view with --scorecards: each step row counts its seat's card and trait means; both executors count the same", async () => {
    const cards = join(root, "rl-scorecards.ndjson");
    writeFileSync(cards, rlScorecards(rl, 36));
    const args = [rl, "--view", "trl-prompt-completion", "--scorecards", cards, "--seats", "all", "--split", "train=0.5,test=0.5"];
    const parallel = await convert(join(root, "rl-view-cards-parallel"), [...args, "--workers", "2"]);
    const stages = await convert(join(root, "rl-view-cards-stages"), [...args, "--workers", "0"]);
    expect(stages).toEqual(parallel);
    const dir = join(root, "rl-view-cards-parallel");
    expect(parallel.rows).toBe(manifestOf(dir).view?.rows_out);
    expect(parallel.unscored_rows).toBeGreaterThan(0);
    expect(parallel.unscored_rows).toBeLessThan(parallel.rows);
    await expectScoresAndScenarios(parallel, rlViewFacts(dir, rl, cards));
  }, 120_000);

  it("DPO with --scorecards: each pair's chosen run's score and trait means, joined to the shards by DuckDB; both executors count the same; the report draws them", async () => {
    const { pairs, scorecards } = dpoPairsAndScorecards(120, 36);
    const [file, cards] = [join(root, "dpo.ndjson"), join(root, "dpo-scorecards.ndjson")];
    writeFileSync(file, pairs);
    writeFileSync(cards, scorecards);
    const args = [file, "--scorecards", cards, "--split", "train=0.5,test=0.5"];
    const parallel = await convert(join(root, "dpo-cards-parallel"), [...args, "--workers", "2"]);
    const stages = await convert(join(root, "dpo-cards-stages"), [...args, "--workers", "0"]);
    expect(stages).toEqual(parallel);
    expect(parallel.rows).toBe(120);
    expect(parallel.unscored_rows).toBeGreaterThan(0);
    const setup = dpoFacts(join(root, "dpo-cards-parallel"), cards);
    await expectScoresAndScenarios(parallel, setup);
    expectReportDraws(await reportCharts(join(root, "dpo-cards-parallel")), parallel);
  }, 120_000);

  it("a nightly RL and DPO dataset from export files and their scorecards: the night's traits are DuckDB's", async () => {
    const dpo = dpoPairsAndScorecards(120, 37);
    const [dpoFile, dpoCards, rlCards] = [join(root, "night-dpo.ndjson"), join(root, "night-dpo-cards.ndjson"), join(root, "night-rl-cards.ndjson")];
    writeFileSync(dpoFile, dpo.pairs);
    writeFileSync(dpoCards, dpo.scorecards);
    writeFileSync(rlCards, rlScorecards(rl, 37));
    for (const [format, input, cards, facts] of [["rl", rl, rlCards, rlFacts], ["dpo", dpoFile, dpoCards, dpoFacts]] as const) {
      const [file, out] = [join(root, `night-${format}.yaml`), join(root, `night-${format}`)];
      writeFileSync(file, `version: 1\nname: night-${format}\nsource:\n  kind: files\n  format: ${format}\n  inputs: [${input}]\n  scorecards: ${cards}\noutput:\n  dir: ${out}\n  buckets: 4\n`);
      const r = await spawnCli(["run", file]);
      expect(r.status, r.stderr).toBe(0);
      const stats = manifestOf(out).stats;
      expect(stats.unscored_rows, format).toBeLessThan(stats.rows);
      const [snapshot] = readdirSync(`${out}.snapshots`).filter((n) => /^\d+$/.test(n));
      await expectScoresAndScenarios(stats, facts(join(`${out}.snapshots`, snapshot as string), cards));
    }
  }, 120_000);

  it("a nightly RL and DPO pull from the service: each row's seat's scores and traits, from the cards the pull fetched or cached; both executors count the same; a second night from the cache equals a fresh full pull; the report draws them", async () => {
    for (const [format, facts] of [["rl", rlFacts], ["dpo", dpoFacts]] as const) {
      const emu = await startEmulator({ port: 0, seed: 38, runs: 80, timing: { gatewayTimeoutMs: 5, retryAfterSeconds: 0, slowDelayMs: 0 } });
      const pull = async (out: string, workers: "0" | "2") => {
        const r = await spawnCli(["pull", format, "--buckets", "4", "--base-url", emu.url, "--out", out, "--snapshot-grace", "0", "--workers", workers], { EVAL_OWNER_TOKEN: emu.ownerToken });
        expect(r.status, r.stderr).toBe(0);
        return manifestOf(out) as ReturnType<typeof manifestOf> & { pull: { scorecardsCached: number } };
      };
      try {
        const [nightly, parallel, fresh] = [`pull-${format}`, `pull-${format}-parallel`, `pull-${format}-fresh`].map((n) => join(root, n)) as [string, string, string];
        // Against the cards the emulator answers now, for the runs of the night's rows (DuckDB joins them).
        // The dataset's own folder: its entries link to the current snapshot's.
        const expectEmulatorCards = async (night: ReturnType<typeof manifestOf>, dir: string) => {
          expect(night.stats.unscored_rows, format).toBeLessThan(night.stats.rows);
          const cards = join(root, `${format}-${night.snapshot}-emulator-cards.ndjson`);
          await emulatorCards(emu.url, emu.ownerToken, await pulledRuns(dir, format), cards);
          await expectScoresAndScenarios(night.stats, facts(dir, cards));
        };
        const first = await pull(nightly, "0");
        expect((await pull(parallel, "2")).stats, format).toEqual(first.stats);
        await expectEmulatorCards(first, nightly);
        for (let epoch = 0; epoch < 4; epoch++) await emu.advance();
        // The second night takes the runs it saw from its cache; a fresh pull of the same world fetches every card.
        const second = await pull(nightly, "0");
        expect(second.pull.scorecardsCached, format).toBeGreaterThan(0);
        const full = await pull(fresh, "2");
        expect(full.pull.scorecardsCached, format).toBe(0);
        expect(second.stats, format).toEqual(full.stats);
        await expectEmulatorCards(second, nightly);
        expectReportDraws(await reportCharts(nightly), second.stats);
        // A night that changed nothing leaves the first night's manifest: this one published.
        expect(second.snapshot, format).toBeGreaterThan(first.snapshot);
      } finally {
        await emu.close();
      }
    }
  }, 300_000);

  it("a pull's RL and DPO thresholds read the same cards: kept rows reach the threshold, some are below_threshold", async () => {
    const emu = await startEmulator({ port: 0, seed: 39, runs: 60, timing: { gatewayTimeoutMs: 5, retryAfterSeconds: 0, slowDelayMs: 0 } });
    try {
      for (const format of ["rl", "dpo"] as const) {
        const out = join(root, `pull-${format}-threshold`);
        const r = await spawnCli(["pull", format, "--buckets", "4", "--base-url", emu.url, "--out", out, "--snapshot-grace", "0", "--min-composite", "2.5"], { EVAL_OWNER_TOKEN: emu.ownerToken });
        expect(r.status, r.stderr).toBe(0);
        const m = JSON.parse(readFileSync(join(out, "manifest.json"), "utf8")) as { stats: StatsManifest; dropped: Record<string, number> };
        expect(m.stats.rows, format).toBeGreaterThan(0);
        expect(m.stats.unscored_rows, format).toBe(0);
        expect(m.stats.composite.min, format).toBeGreaterThanOrEqual(2.5);
        expect(m.dropped.below_threshold, format).toBeGreaterThan(0);
      }
      // Top k reads the same cards: one seat per scenario, the others not_top_k.
      const out = join(root, "pull-rl-top-k");
      const r = await spawnCli(["pull", "rl", "--buckets", "4", "--base-url", emu.url, "--out", out, "--snapshot-grace", "0", "--top-k-per-scenario", "1"], { EVAL_OWNER_TOKEN: emu.ownerToken });
      expect(r.status, r.stderr).toBe(0);
      const m = JSON.parse(readFileSync(join(out, "manifest.json"), "utf8")) as { stats: StatsManifest; dropped: Record<string, number> };
      expect(m.dropped.not_top_k).toBeGreaterThan(0);
      expect(m.stats.rows).toBe(m.stats.scenarios.count);
      expect(m.stats.scenarios.top.every((s) => s.rows === 1)).toBe(true);
    } finally {
      await emu.close();
    }
  }, 120_000);

  it("a tokenized view: the token-length histogram is transformers' count of each row, binned", async () => {
    const tokDir = join(root, "tok");
    const corpus = join(root, "corpus.txt");
    writeFileSync(corpus, readFileSync(rl, "utf8").slice(0, 1 << 20));
    // 25 of the 77 RL records (~330 step rows of 1,026): transformers renders each row five times, and the
    // histogram's bins need tens of rows, not thousands.
    const input = join(root, "tokens-rl.ndjson");
    writeFileSync(input, `${readFileSync(rl, "utf8").trim().split("\n").slice(0, 25).join("\n")}\n`);
    // Its three runs in one Python process: each start imports transformers again.
    const python = new PythonBatch({ HF_HUB_OFFLINE: "1", TRANSFORMERS_OFFLINE: "1", HF_HOME: join(root, "hf") });
    const py = (args: readonly string[]) => python.stdout(TOKEN_CHECK, args);
    let line: string | undefined;
    let stats: StatsManifest;
    const dir = join(root, "tokens");
    try {
      const site = (await py(["site"])).trim();
      await py(["make", tokDir, corpus, join(site, "trl", "chat_templates"), "llama3"]);
      stats = await convert(dir, [input, "--view", "trl-prompt-completion", "--tokenizer", join(tokDir, "llama3", "tokenizer.json")]);
      line = (await py(["count", join(tokDir, "llama3"), dir, "trl-prompt-completion"])).split("\n").find((l) => l.startsWith("TOKEN_CHECK "));
    } finally {
      python.close();
    }
    const counted = (JSON.parse((line as string).slice("TOKEN_CHECK ".length)) as { rows: { fulls: { tokens: number }[] }[] }).rows.map((r) => Math.max(...r.fulls.map((f) => f.tokens)));
    const expected = new Map<number, number>();
    for (const n of counted) {
      const lower = n === 0 ? 0 : 2 ** Math.floor(Math.log2(n));
      expected.set(lower, (expected.get(lower) ?? 0) + 1);
    }
    const tokens = stats.tokens as DistributionStats;
    expect(new Map(tokens.bins.map(([lower, rows]) => [lower, rows]))).toEqual(expected);
    expect(tokens.count).toBe(counted.length);
    expect([tokens.min, tokens.max]).toEqual([Math.min(...counted), Math.max(...counted)]);
    expect(expected.size).toBeGreaterThan(1);
    expectReportDraws(await reportCharts(dir), stats);
  }, 600_000);

  it("a nightly dataset: each night's stats describe the whole published snapshot, the second night replacing runs", async () => {
    const emu = await startEmulator({ port: 0, seed: 36, runs: 100, timing: { gatewayTimeoutMs: 5, retryAfterSeconds: 0, slowDelayMs: 0 } });
    const out = join(root, "nightly");
    try {
      for (let night = 0; night < 2; night++) {
        const r = await spawnCli(["pull", "sft", "--buckets", "4", "--base-url", emu.url, "--out", out, "--snapshot-grace", "0"], { EVAL_OWNER_TOKEN: emu.ownerToken });
        expect(r.status, r.stderr).toBe(0);
        // Epochs enough for rescored runs (a new scorecard version replaces their rows).
        for (let epoch = 0; epoch < 4; epoch++) await emu.advance();
      }
    } finally {
      await emu.close();
    }
    const current = manifestOf(out);
    expect(current.night?.replaced).toBeGreaterThan(0);
    const kept = readdirSync(`${out}.snapshots`).filter((n) => /^\d+$/.test(n));
    expect(kept.length).toBe(2);
    for (const folder of kept) {
      const dir = join(`${out}.snapshots`, folder);
      await expectScoresAndScenarios(manifestOf(dir).stats, sftFacts(dir, "parquet"));
    }
    const verified = await spawnCli(["verify", out]);
    expect(verified.status, verified.stdout + verified.stderr).toBe(0);
    // The report: the current snapshot's figures, and night over night from each kept night's stats.
    const charts = await reportCharts(out);
    expectReportDraws(charts, current.stats);
    for (const folder of kept) {
      const m = manifestOf(join(`${out}.snapshots`, folder));
      for (const [split, rows] of Object.entries(m.stats.splits)) expect(charts.get("Rows per split")?.get(`${split}@#${m.snapshot}`)).toBe(rows);
      expect(charts.get("Scenarios in the dataset")?.get(`scenarios@#${m.snapshot}`)).toBe(m.stats.scenarios.count);
      const bands = [...(charts.get("Rows by composite score") ?? new Map<string, number>())].filter(([k]) => k.endsWith(`@#${m.snapshot}`));
      expect(bands.reduce((n, [, v]) => n + v, 0)).toBe(m.stats.composite.count);
    }
  }, 240_000);
});
