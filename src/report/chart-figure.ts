import { escapeHtml } from "./escape-html.js";

/** Every chart's drawing width (the page is 780 px). */
export const CHART_WIDTH = 720;
/** Where a column chart's plot starts, right of its value labels. */
export const PLOT_LEFT = 50;

/**
 * A chart as the report shows it: a figure captioned `title`, drawn as an inline SVG `height` tall (the report
 * is one file read offline, so it draws its own charts rather than load a library), or "none" when `parts` is
 * null. `after` follows the drawing (a summary line, a legend).
 */
export function chartFigure(title: string, height: number, parts: readonly string[] | null, after = ""): string {
  const caption = `<figcaption>${escapeHtml(title)}</figcaption>`;
  if (parts === null) return `<figure class="chart">${caption}<p class="none">none</p></figure>`;
  return `<figure class="chart">${caption}<svg role="img" aria-label="${escapeHtml(title)}" width="${CHART_WIDTH}" height="${height}" viewBox="0 0 ${CHART_WIDTH} ${height}">${parts.join("")}</svg>${after}</figure>`;
}

/** A column chart's baseline at `plot` and its tallest value labelled at the top. */
export function valueAxis(plot: number, max: number): string[] {
  return [`<line x1="${PLOT_LEFT}" y1="${plot}" x2="${CHART_WIDTH}" y2="${plot}" stroke="#999"/>`, `<text x="${PLOT_LEFT - 6}" y="12" text-anchor="end">${max.toLocaleString("en-US")}</text>`];
}
