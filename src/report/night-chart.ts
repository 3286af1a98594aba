import { escapeHtml } from "./escape-html.js";

/** One measure across nights, e.g. rows added. */
export interface Series {
  readonly name: string;
  readonly values: readonly number[];
}

const PALETTE = ["#3b6ea5", "#e0913a", "#5a9e55", "#c0504d", "#8064a2", "#4bacc6", "#9b8b4e", "#777777"];
const HEIGHT = 180;
const WIDTH = 720;

/**
 * Night-over-night columns, as inline SVG: for each night (a kept snapshot, oldest first) one column per
 * series, side by side, with a legend. Each column is a `<rect class="col">` with its series, night and value.
 */
export function nightChart(title: string, nights: readonly string[], series: readonly Series[]): string {
  const shown = series.filter((s) => s.values.some((v) => v > 0));
  if (nights.length === 0 || shown.length === 0) return `<figure class="chart"><figcaption>${escapeHtml(title)}</figcaption><p class="none">none</p></figure>`;
  const max = Math.max(...shown.flatMap((s) => s.values));
  const left = 50;
  const plot = HEIGHT - 30;
  const slot = (WIDTH - left) / nights.length;
  const col = Math.max(2, Math.min(28, (slot - 8) / shown.length));
  const parts: string[] = [`<line x1="${left}" y1="${plot}" x2="${WIDTH}" y2="${plot}" stroke="#999"/>`, `<text x="${left - 6}" y="12" text-anchor="end">${max.toLocaleString("en-US")}</text>`];
  for (const [n, night] of nights.entries()) {
    const x0 = left + n * slot + 4;
    for (const [k, s] of shown.entries()) {
      const value = s.values[n] ?? 0;
      const h = Math.round((value / max) * (plot - 10));
      const fill = PALETTE[k % PALETTE.length] as string;
      parts.push(`<rect class="col" data-series="${escapeHtml(s.name)}" data-night="${escapeHtml(night)}" data-value="${value}" x="${(x0 + k * col).toFixed(1)}" y="${plot - h}" width="${(col - 1).toFixed(1)}" height="${h}" fill="${fill}"/>`);
    }
    parts.push(`<text x="${(x0 + (shown.length * col) / 2).toFixed(1)}" y="${plot + 16}" text-anchor="middle">${escapeHtml(night)}</text>`);
  }
  const legend = shown.map((s, k) => `<span class="key"><i style="background:${PALETTE[k % PALETTE.length] as string}"></i>${escapeHtml(s.name)}</span>`).join(" ");
  return `<figure class="chart"><figcaption>${escapeHtml(title)}</figcaption><svg role="img" aria-label="${escapeHtml(title)}" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}">${parts.join("")}</svg><div class="legend">${legend}</div></figure>`;
}
