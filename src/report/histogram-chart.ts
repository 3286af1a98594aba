import { CHART_WIDTH, chartFigure, PLOT_LEFT, valueAxis } from "./chart-figure.js";
import { escapeHtml } from "./escape-html.js";
import type { DistributionStats } from "../stats/dataset-stats.js";
import { binLower, binOf } from "../stats/histogram.js";

const HEIGHT = 170;

/**
 * A distribution as columns in bin order (a histogram, unlike the bar charts' largest first), with count, min,
 * mean and max below it. Each column is a `<rect class="bin">` with its bin's label and rows.
 */
export function histogramChart(title: string, d: DistributionStats | undefined): string {
  if (d === undefined || d.count === 0 || d.bins.length === 0) return chartFigure(title, HEIGHT, null);
  const fmt = (v: number | null) => (v === null ? "?" : String(Math.round(v * 1000) / 1000));
  const max = Math.max(...d.bins.map(([, n]) => n));
  const plot = HEIGHT - 30;
  // Every bin from the first to the last holding rows, the empty ones as gaps, so the axis reads true.
  const width = d.bin_width;
  const first = binOf(d.bins[0]?.[0] ?? 0, width);
  const bins = binOf(d.bins[d.bins.length - 1]?.[0] ?? 0, width) - first + 1;
  const rows = new Map(d.bins.map(([lower, n]) => [lower, n]));
  const slot = (CHART_WIDTH - PLOT_LEFT - 20) / bins;
  const w = Math.max(1, slot - (slot > 4 ? 2 : 0));
  const parts = valueAxis(plot, max);
  const every = Math.ceil(bins / 12);
  for (let i = 0; i < bins; i++) {
    const lower = binLower(first + i, width);
    const x = PLOT_LEFT + i * slot + 1;
    if (i % every === 0) parts.push(`<text x="${x.toFixed(1)}" y="${plot + 16}">${escapeHtml(String(lower))}</text>`);
    const n = rows.get(lower);
    if (n === undefined) continue;
    const h = Math.max(1, Math.round((n / max) * (plot - 10)));
    // A bin's label: `[lower, upper)`; the token bins' zero bin is "0".
    const label = escapeHtml(width === "log2" && lower === 0 ? "0" : `[${lower}, ${binLower(first + i + 1, width)})`);
    parts.push(`<rect class="bin" data-label="${label}" data-value="${n}" x="${x.toFixed(1)}" y="${plot - h}" width="${w.toFixed(1)}" height="${h}"><title>${label}: ${n}</title></rect>`);
  }
  const summary = `<p class="stat">${d.count.toLocaleString("en-US")} rows; min ${fmt(d.min)}, mean ${fmt(d.mean)}, max ${fmt(d.max)}</p>`;
  return chartFigure(title, HEIGHT, parts, summary);
}
