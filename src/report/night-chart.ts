import { CHART_WIDTH, chartFigure, PLOT_LEFT, valueAxis } from "./chart-figure.js";
import { escapeHtml } from "./escape-html.js";

/** One measure across nights, e.g. rows added. */
export interface Series {
  readonly name: string;
  readonly values: readonly number[];
}

const PALETTE = ["#3b6ea5", "#e0913a", "#5a9e55", "#c0504d", "#8064a2", "#4bacc6", "#9b8b4e", "#777777"];
const HEIGHT = 180;

/**
 * Night-over-night columns: for each night (a kept snapshot, oldest first) one column per
 * series, side by side, with a legend. Each column is a `<rect class="col">` with its series, night and value.
 */
export function nightChart(title: string, nights: readonly string[], series: readonly Series[]): string {
  const shown = series.filter((s) => s.values.some((v) => v > 0));
  if (nights.length === 0 || shown.length === 0) return chartFigure(title, HEIGHT, null);
  const max = Math.max(...shown.flatMap((s) => s.values));
  const plot = HEIGHT - 30;
  const slot = (CHART_WIDTH - PLOT_LEFT) / nights.length;
  const col = Math.max(2, Math.min(28, (slot - 8) / shown.length));
  const parts = valueAxis(plot, max);
  for (const [n, night] of nights.entries()) {
    const x0 = PLOT_LEFT + n * slot + 4;
    for (const [k, s] of shown.entries()) {
      const value = s.values[n] ?? 0;
      const h = Math.round((value / max) * (plot - 10));
      const fill = PALETTE[k % PALETTE.length] as string;
      parts.push(`<rect class="col" data-series="${escapeHtml(s.name)}" data-night="${escapeHtml(night)}" data-value="${value}" x="${(x0 + k * col).toFixed(1)}" y="${plot - h}" width="${(col - 1).toFixed(1)}" height="${h}" fill="${fill}"/>`);
    }
    parts.push(`<text x="${(x0 + (shown.length * col) / 2).toFixed(1)}" y="${plot + 16}" text-anchor="middle">${escapeHtml(night)}</text>`);
  }
  const legend = shown.map((s, k) => `<span class="key"><i style="background:${PALETTE[k % PALETTE.length] as string}"></i>${escapeHtml(s.name)}</span>`).join(" ");
  return chartFigure(title, HEIGHT, parts, `<div class="legend">${legend}</div>`);
}
