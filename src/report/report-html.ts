import { barChart, type Bar } from "./bar-chart.js";
import { escapeHtml } from "./escape-html.js";
import { nightChart } from "./night-chart.js";
import { histogramChart } from "./histogram-chart.js";
import type { ReportManifest, ReportNight } from "./report-manifest.js";
import { viewLosses } from "../views/view-losses.js";
import type { PathAudit } from "../views/text-audit.js";
import type { StatsManifest } from "../stats/dataset-stats.js";
import { countTotal } from "../core/tally.js";
import { rowsOf } from "../output/published-rows.js";

/** What a report shows: the dataset's location, its current manifest, and its kept nights, oldest first. */
export interface ReportInput {
  readonly location: string;
  readonly current: ReportManifest;
  readonly nights: readonly ReportNight[];
}

// The page may load nothing: no script, font, image or stylesheet from anywhere (a report is opened offline and
// may be mailed around); its own inline style is all it needs.
const CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";
const STYLE = `body{font:14px/1.45 system-ui,sans-serif;margin:24px auto;max-width:780px;color:#222}
h1{font-size:20px}h2{font-size:16px;margin-top:28px;border-bottom:1px solid #ddd}
table{border-collapse:collapse}td,th{padding:2px 10px 2px 0;text-align:left}td.n{text-align:right}
figure{margin:12px 0}figcaption{font-weight:600;margin-bottom:4px}svg text{font:12px system-ui,sans-serif;fill:#333}
rect.bar,rect.bin{fill:#3b6ea5}.stat{margin:2px 0;color:#555}.legend i{display:inline-block;width:10px;height:10px;margin:0 4px 0 10px}.none{color:#888}
.warn{color:#8a4b00}`;

const bars = (counts: Readonly<Record<string, number | undefined>> | undefined): Bar[] => Object.entries(counts ?? {}).map(([label, value]) => ({ label, value: value ?? 0 }));

/** The report: one self-contained HTML page, its charts inline SVG. */
export function reportHtml(input: ReportInput): string {
  const m = input.current;
  const sections = [summary(input), current(m), ...(m.stats === undefined ? [] : [statistics(m.stats)]), ...(input.nights.length > 1 ? [history(input.nights)] : [])];
  const title = `evalshard report: ${input.location}`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="viewport" content="width=device-width"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body><h1>${escapeHtml(title)}</h1>
${sections.join("\n")}
</body></html>
`;
}

function summary(input: ReportInput): string {
  const m = input.current;
  const rows: [string, string][] = [
    ["format", m.format === undefined ? "unknown" : `${m.format.name} ${m.format.version}`],
    ...(m.pipeline === undefined ? [] : [["pipeline", m.pipeline] as [string, string]]),
    ...(m.snapshot === undefined || m.snapshot === null ? [] : [["snapshot", String(m.snapshot)] as [string, string]]),
    ["written", `${m.finished_at ?? "unknown"} by evalshard ${m.evalshard_version ?? "?"}`],
    ["records in / out", `${m.records_in.toLocaleString("en-US")} / ${m.records_out.toLocaleString("en-US")}`],
    ["dropped / quarantined", `${countTotal(m.dropped).toLocaleString("en-US")} / ${countTotal(m.quarantined).toLocaleString("en-US")}`],
    ["rows in the dataset", `${rowsOf(m.shards).toLocaleString("en-US")} in ${m.shards.length} shard(s), ${m.shards.reduce((n, s) => n + s.bytes, 0).toLocaleString("en-US")} bytes`],
    ...(m.view === undefined ? [] : [["view", `${m.view.name}${m.view.trainer === null ? "" : ` (${m.view.trainer})`}`] as [string, string]]),
  ];
  const table = `<table>${rows.map(([k, v]) => `<tr><th>${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`).join("")}</table>`;
  const warnings = (m.warnings ?? []).map((w) => `<li class="warn">${escapeHtml(w)}</li>`).join("");
  return `<section id="summary"><h2>This snapshot</h2>${table}${warnings === "" ? "" : `<ul>${warnings}</ul>`}</section>`;
}

function current(m: ReportManifest): string {
  const splits: Bar[] =
    m.split !== undefined
      ? Object.entries(m.split.splits).map(([label, c]) => ({ label, value: c.rows }))
      : [...m.shards.reduce((acc, s) => acc.set(s.split ?? "train", (acc.get(s.split ?? "train") ?? 0) + s.rows), new Map<string, number>())].map(([label, value]) => ({ label, value }));
  const charts = [
    barChart(`Rows per split (${m.format?.name ?? "records"})`, splits),
    barChart("Records dropped, by reason", bars(m.dropped)),
    barChart("Records quarantined, by reason", bars(m.quarantined)),
  ];
  if (m.view !== undefined) {
    const losses = viewLosses(m.view);
    charts.push(barChart(`View ${losses.view}: ${losses.unit} left out, by reason (${losses.rows_out.toLocaleString("en-US")} rows written)`, bars(losses.left_out)));
  }
  const audit = m.view?.text_audit ?? m.text_audit;
  if (audit !== undefined && Object.keys(audit).length > 0) {
    const per = (pick: (a: PathAudit) => number) => Object.entries(audit).map(([label, a]) => ({ label, value: pick(a) }));
    charts.push(barChart("Texts written, per path", per((a) => a.values)));
    charts.push(barChart("Texts changed by sanitizing, per path", per((a) => a.changed)));
    charts.push(barChart("Texts matching an injection pattern, per path", per((a) => a.injected)));
  }
  return `<section id="current"><h2>What went in and what came out</h2>${charts.join("\n")}</section>`;
}

/** The rows' figures, all from the manifest's `stats` (counted as the rows were written, never read back). */
function statistics(s: StatsManifest): string {
  const scored = s.rows - s.unscored_rows;
  const charts = [
    histogramChart("Composite score (mean of per-trait means), rows per bin", s.composite),
    histogramChart("Objective rate (met_count / total_checks), rows per bin", s.objective_rate),
    ...Object.entries(s.traits).map(([name, d]) => histogramChart(`Trait ${name}: mean score, rows per bin`, d)),
    barChart(`Rows per scenario: the top ${s.scenarios.top.length} of ${s.scenarios.count.toLocaleString("en-US")}`, [
      ...s.scenarios.top.map((t) => ({ label: t.scenario, value: t.rows })),
      ...(s.scenarios.tail.scenarios === 0 ? [] : [{ label: `the other ${s.scenarios.tail.scenarios.toLocaleString("en-US")} scenarios`, value: s.scenarios.tail.rows }]),
    ]),
    ...(s.tokens === undefined ? [] : [histogramChart("Training-text length in tokens, rows per bin", s.tokens)]),
  ];
  const note = `<p>${scored.toLocaleString("en-US")} of ${s.rows.toLocaleString("en-US")} rows carry a score${s.unscored_rows === 0 ? "" : ` (${s.unscored_rows.toLocaleString("en-US")} without: unscored records, or RL and DPO rows converted without --scorecards)`}.</p>`;
  return `<section id="stats"><h2>The rows: scores, scenarios${s.tokens === undefined ? "" : ", tokens"}</h2>${note}${charts.join("\n")}</section>`;
}

function history(nights: readonly ReportNight[]): string {
  const labels = nights.map((n) => n.label);
  const over = (pick: (m: ReportManifest) => number) => nights.map((n) => pick(n.manifest));
  const reasons = (key: "dropped" | "quarantined") => [...new Set(nights.flatMap((n) => Object.keys(n.manifest[key])))].sort();
  const charts = [
    nightChart("Rows in the dataset", labels, [{ name: "rows", values: over((m) => rowsOf(m.shards)) }]),
    nightChart("Rows added, replaced and retracted", labels, [
      { name: "added", values: over((m) => m.night?.added ?? 0) },
      { name: "replaced", values: over((m) => m.night?.replaced ?? 0) },
      { name: "removed", values: over((m) => m.night?.removed ?? 0) },
    ]),
    nightChart("Records dropped, by reason", labels, reasons("dropped").map((r) => ({ name: r, values: over((m) => m.dropped[r] ?? 0) }))),
    nightChart("Records quarantined, by reason", labels, reasons("quarantined").map((r) => ({ name: r, values: over((m) => m.quarantined[r] ?? 0) }))),
  ];
  // The rows' figures, where the kept nights' manifests have stats (older ones count 0).
  if (nights.some((n) => n.manifest.stats !== undefined)) {
    const splits = [...new Set(nights.flatMap((n) => Object.keys(n.manifest.stats?.splits ?? {})))].sort();
    charts.push(
      nightChart("Rows per split", labels, splits.map((name) => ({ name, values: over((m) => m.stats?.splits[name] ?? 0) }))),
      nightChart("Scenarios in the dataset", labels, [{ name: "scenarios", values: over((m) => m.stats?.scenarios.count ?? 0) }]),
      nightChart("Rows by composite score", labels, compositeBands(nights)),
    );
  }
  return `<section id="history"><h2>Night over night (${nights.length} kept snapshots)</h2>${charts.join("\n")}</section>`;
}

/** Night-over-night composite: rows per whole-point band of the score (the stats' 0.1 bins, summed), so nights with different bins line up. */
function compositeBands(nights: readonly ReportNight[]): { name: string; values: number[] }[] {
  const bandOf = (lower: number) => Math.floor(Math.round(lower * 1e6) / 1e6);
  const bands = [...new Set(nights.flatMap((n) => (n.manifest.stats?.composite.bins ?? []).map(([lower]) => bandOf(lower))))].sort((a, b) => a - b);
  return bands.map((band) => ({
    name: `[${band}, ${band + 1})`,
    values: nights.map((n) => (n.manifest.stats?.composite.bins ?? []).filter(([lower]) => bandOf(lower) === band).reduce((sum, [, rows]) => sum + rows, 0)),
  }));
}
