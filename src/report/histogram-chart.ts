import { escapeHtml } from "./escape-html.js";
import type { DistributionStats } from "../stats/dataset-stats.js";

const HEIGHT = 170;
const WIDTH = 720;
const LEFT = 50;

/** A bin's label: `[lower, upper)`, the token bins' upper the next power of two (the zero bin is "0"). */
export function binLabel(d: Pick<DistributionStats, "bin_width">, lower: number): string {
  if (d.bin_width === "log2") return lower === 0 ? "0" : `[${lower}, ${lower * 2})`;
  return `[${lower}, ${Math.round((lower + d.bin_width) * 1e6) / 1e6})`;
}

/**
 * A distribution as inline SVG columns in bin order (a histogram, unlike the bar charts' largest first), with
 * count, min, mean and max below it. Each column is a `<rect class="bin">` with its bin's label and rows.
 */
export function histogramChart(title: string, d: DistributionStats | undefined): string {
  const caption = `<figcaption>${escapeHtml(title)}</figcaption>`;
  if (d === undefined || d.count === 0 || d.bins.length === 0) return `<figure class="chart">${caption}<p class="none">none</p></figure>`;
  const fmt = (v: number | null) => (v === null ? "?" : String(Math.round(v * 1000) / 1000));
  const max = Math.max(...d.bins.map(([, n]) => n));
  const plot = HEIGHT - 30;
  // Every bin from the first to the last holding rows, the empty ones as gaps, so the axis reads true.
  const edges = edgesOf(d);
  const rows = new Map(d.bins.map(([lower, n]) => [lower, n]));
  const slot = (WIDTH - LEFT - 20) / edges.length;
  const w = Math.max(1, slot - (slot > 4 ? 2 : 0));
  const parts: string[] = [`<line x1="${LEFT}" y1="${plot}" x2="${WIDTH}" y2="${plot}" stroke="#999"/>`, `<text x="${LEFT - 6}" y="12" text-anchor="end">${max.toLocaleString("en-US")}</text>`];
  const every = Math.ceil(edges.length / 12);
  for (const [i, lower] of edges.entries()) {
    const x = LEFT + i * slot + 1;
    if (i % every === 0) parts.push(`<text x="${x.toFixed(1)}" y="${plot + 16}">${escapeHtml(String(lower))}</text>`);
    const n = rows.get(lower);
    if (n === undefined) continue;
    const h = Math.max(1, Math.round((n / max) * (plot - 10)));
    const label = escapeHtml(binLabel(d, lower));
    parts.push(`<rect class="bin" data-label="${label}" data-value="${n}" x="${x.toFixed(1)}" y="${plot - h}" width="${w.toFixed(1)}" height="${h}"><title>${label}: ${n}</title></rect>`);
  }
  const summary = `<p class="stat">${d.count.toLocaleString("en-US")} rows; min ${fmt(d.min)}, mean ${fmt(d.mean)}, max ${fmt(d.max)}</p>`;
  return `<figure class="chart">${caption}<svg role="img" aria-label="${escapeHtml(title)}" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}">${parts.join("")}</svg>${summary}</figure>`;
}

/** The lower edges of every bin from the first holding rows to the last (token bins: 0, then powers of two). */
function edgesOf(d: DistributionStats): number[] {
  const first = d.bins[0]?.[0] ?? 0;
  const last = d.bins[d.bins.length - 1]?.[0] ?? 0;
  const edges: number[] = [];
  if (d.bin_width === "log2") {
    if (first === 0) edges.push(0);
    for (let p = Math.max(1, first); p <= last; p *= 2) edges.push(p);
    return edges;
  }
  const width = d.bin_width;
  for (let i = Math.round(first / width); i <= Math.round(last / width); i++) edges.push(Math.round(i * width * 1e6) / 1e6);
  return edges;
}
