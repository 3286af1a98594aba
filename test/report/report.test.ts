import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { DuckDBInstance } from "@duckdb/node-api";
import { beforeAll, describe, expect, it } from "vitest";
import { emulator } from "../pull/support.js";
import { chromiumBinary, recordingProxy, renderPage } from "../helpers/headless-chromium.js";
import { countColour, pngPixels } from "../helpers/png-pixels.js";
import { spawnCli } from "../helpers/spawn-cli.js";
import { tempDir } from "../helpers/temp-dir.js";

// Issue 36: `evalshard report` writes one self-contained HTML page of a dataset. Its figures are the manifest's
// (counted while the data was written) and are checked here against DuckDB over the shards; the page is rendered
// in a real headless Chromium, which draws its charts and makes no request.
const FIXTURES = fileURLToPath(new URL("../../fixtures/records/", import.meta.url));
const fixture = (name: string) => join(FIXTURES, name);
const root = tempDir("evalshard-report-");
const manifestOf = (dir: string) => JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8"));

/** Every chart's bars: figure caption -> label -> value, from the page's `data-*` attributes. */
function barsOf(html: string): Map<string, Map<string, number>> {
  const charts = new Map<string, Map<string, number>>();
  for (const figure of html.matchAll(/<figure class="chart"><figcaption>([^<]*)<\/figcaption>([\s\S]*?)<\/figure>/g)) {
    const bars = new Map<string, number>();
    for (const bar of (figure[2] as string).matchAll(/<rect class="bar" data-label="([^"]*)" data-value="(\d+)"/g)) bars.set(bar[1] as string, Number(bar[2]));
    for (const col of (figure[2] as string).matchAll(/<rect class="col" data-series="([^"]*)" data-night="([^"]*)" data-value="(\d+)"/g)) bars.set(`${col[1]}@${col[2]}`, Number(col[3]));
    charts.set(figure[1] as string, bars);
  }
  return charts;
}
const nonZero = (counts: Record<string, number>) => new Map(Object.entries(counts).filter(([, n]) => n > 0));

async function duckdb(sql: string): Promise<Record<string, unknown>[]> {
  const instance = await DuckDBInstance.create(":memory:");
  const connection = await instance.connect();
  try {
    return (await connection.runAndReadAll(sql)).getRowObjectsJson() as Record<string, unknown>[];
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/** Rows per split of a dataset's shards, by DuckDB: the split is the shard name's prefix (`data/<split>-…`). */
async function rowsPerSplit(dir: string): Promise<Map<string, number>> {
  const rows = await duckdb(`SELECT regexp_extract(filename, '/data/([a-z]+)-', 1) AS split, count(*) AS n FROM read_parquet('${join(dir, "data")}/*.parquet', filename = true) GROUP BY split`);
  return new Map(rows.map((r) => [String(r.split), Number(r.n)]));
}

const datasets = { view: join(root, "view"), split: join(root, "split"), nightly: join(root, "nightly") };

beforeAll(async () => {
  const convert = async (out: string, args: string[]) => {
    const r = await spawnCli(["convert", ...args, "--out", out]);
    expect(r.status, r.stderr).toBe(0);
  };
  await convert(datasets.view, [fixture("views-dpo.ndjson"), fixture("dpo-invalid-pair.ndjson"), "--context", fixture("views-rl.ndjson"), "--view", "trl-preference", "--max-quarantined", "1"]);
  await convert(datasets.split, [fixture("sft-valid.ndjson"), fixture("sft-filters.ndjson"), fixture("sft-bad-lines.ndjson"), "--split", "train=0.5,test=0.5", "--split-by", "run", "--seats", "all", "--max-quarantined", "1"]);
  const emu = await emulator({ seed: 36, runs: 60 });
  for (let night = 0; night < 3; night++) {
    const r = await spawnCli(["pull", "sft", "--buckets", "2", "--base-url", emu.url, "--out", datasets.nightly, "--snapshot-grace", "0"], { EVAL_OWNER_TOKEN: emu.ownerToken });
    expect(r.status, r.stderr).toBe(0);
    // Two epochs a night: enough change for every night to publish.
    await emu.advance();
    await emu.advance();
  }
}, 240_000);

async function reportOf(dataset: string, name: string): Promise<{ path: string; html: string }> {
  const path = join(root, `${name}.html`);
  const r = await spawnCli(["report", dataset, "--out", path]);
  expect(r.status, r.stderr).toBe(0);
  expect(r.stdout).toContain(path);
  return { path, html: readFileSync(path, "utf8") };
}

describe("evalshard report: the figures", () => {
  it("a view's dataset: drops, quarantine and the view's left-out pairs as the manifest counts them; rows as DuckDB counts them", async () => {
    const { html } = await reportOf(datasets.view, "view");
    const m = manifestOf(datasets.view);
    const charts = barsOf(html);
    expect(charts.get("Records quarantined, by reason")).toEqual(nonZero(m.quarantined));
    expect(charts.get("Records dropped, by reason")).toEqual(nonZero(m.dropped));
    const caption = [...charts.keys()].find((k) => k.startsWith("View trl-preference: pairs left out"));
    expect(caption).toBeDefined();
    expect(charts.get(caption as string)).toEqual(nonZero(m.view.pairs_dropped));
    expect(m.view.pairs_dropped).not.toEqual({});
    expect(charts.get("Rows per split (dpo)")).toEqual(await rowsPerSplit(datasets.view));
  });

  it("a split dataset: rows per split as DuckDB counts them in the shards, and the split warning", async () => {
    const { html } = await reportOf(datasets.split, "split");
    const bySplit = await rowsPerSplit(datasets.split);
    expect(bySplit.size).toBe(2);
    expect(barsOf(html).get("Rows per split (sft)")).toEqual(bySplit);
    expect(html).toMatch(/<li class="warn">split: /);
  });

  it("a nightly dataset: each kept night's rows as DuckDB counts them in that snapshot, and what each night did", async () => {
    const { html } = await reportOf(datasets.nightly, "nightly");
    const kept = readdirSync(`${datasets.nightly}.snapshots`).filter((n) => /^\d+$/.test(n)).sort();
    // Three nights, each publishing (the world moves between them).
    expect(kept.length).toBe(3);
    const charts = barsOf(html);
    const rows = charts.get("Rows in the dataset") as Map<string, number>;
    const added = charts.get("Rows added, replaced and retracted") as Map<string, number>;
    for (const folder of kept) {
      const dir = join(`${datasets.nightly}.snapshots`, folder);
      const m = manifestOf(dir);
      const [{ n }] = (await duckdb(`SELECT count(*) AS n FROM read_parquet('${dir}/data/*.parquet')`)) as [{ n: number }];
      expect(rows.get(`rows@#${m.snapshot}`)).toBe(Number(n));
      for (const what of ["added", "replaced", "removed"] as const) expect(added.get(`${what}@#${m.snapshot}`) ?? 0).toBe(m.night[what]);
    }
  });

  it("takes text from the data as text: a reason or label never becomes markup", async () => {
    const { reportHtml } = await import("../../src/report/report-html.js");
    const html = reportHtml({ location: "<script>x</script>", current: { records_in: 1, records_out: 0, dropped: { "<img src=x>": 1 }, quarantined: {}, shards: [] }, nights: [] });
    expect(html).not.toContain("<script>x");
    expect(html).not.toContain("<img src=x>");
    expect(html).toContain("&#60;img src=x&#62;");
  });
});

describe("evalshard report: in a real browser", () => {
  let bin: string;
  beforeAll(() => {
    bin = chromiumBinary();
  }, 600_000);

  it("draws the charts (bars on the screenshot, every bar in the DOM) and makes no request", async () => {
    const { path, html } = await reportOf(datasets.nightly, "browser");
    const proxy = await recordingProxy();
    try {
      const png = join(root, "report.png");
      const dom = await renderPage(bin, path, proxy.url, png);
      const expectedBars = [...html.matchAll(/<rect class="(?:bar|col|bin)"/g)].length;
      expect(expectedBars).toBeGreaterThan(5);
      expect([...dom.matchAll(/<rect class="(?:bar|col|bin)"/g)].length).toBe(expectedBars);
      // Issue 36: the rows' figures from the manifest's stats, drawn: score histograms (composite, objective
      // rate, each trait), rows per scenario, and the stats' night-over-night charts.
      const bins = [...dom.matchAll(/<rect class="bin"/g)].length;
      expect(bins).toBeGreaterThan(10);
      for (const caption of ["Composite score (mean of per-trait means), rows per bin", "Objective rate (met_count / total_checks), rows per bin", "Rows per split", "Scenarios in the dataset", "Rows by composite score"]) expect(dom).toContain(`<figcaption>${caption}</figcaption>`);
      expect(dom).toMatch(/<figcaption>Trait [^<]+: mean score, rows per bin<\/figcaption><svg/);
      expect(dom).toMatch(/<figcaption>Rows per scenario: the top \d+ of \d+<\/figcaption><svg/);
      expect(dom).toContain("Night over night (3 kept snapshots)");
      const pixels = pngPixels(readFileSync(png));
      // The bars' and first series' colour (#3b6ea5), drawn: hundreds of pixels, not a blank page.
      expect(countColour(pixels, [0x3b, 0x6e, 0xa5])).toBeGreaterThan(500);
      expect(proxy.requests).toEqual([]);
    } finally {
      await proxy.close();
    }
  }, 120_000);

  it("the proxy does see a page that reaches out (the check above can fail)", async () => {
    const page = join(root, "reaches-out.html");
    writeFileSync(page, `<!doctype html><html><body><img src="http://evalshard.invalid/pixel.png"><link rel="stylesheet" href="https://fonts.googleapis.com/css2?family=Inter"></body></html>`);
    const proxy = await recordingProxy();
    try {
      await renderPage(bin, page, proxy.url, join(root, "reaches-out.png"), "400,300");
      expect(proxy.requests.some((r) => r.includes("evalshard.invalid"))).toBe(true);
      expect(proxy.requests.some((r) => r.includes("fonts.googleapis.com"))).toBe(true);
    } finally {
      await proxy.close();
    }
  }, 120_000);
});
