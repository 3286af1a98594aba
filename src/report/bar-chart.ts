import { CHART_WIDTH, chartFigure } from "./chart-figure.js";
import { escapeHtml } from "./escape-html.js";

/** One bar: a label (a reason, a split, a path) and its count. */
export interface Bar {
  readonly label: string;
  readonly value: number;
}

const ROW = 22;
const LABEL = 230;

/**
 * Horizontal bars, largest first, each with its count. Each bar is a `<rect class="bar">` with `data-label`
 * and `data-value`, which the browser test reads back.
 */
export function barChart(title: string, bars: readonly Bar[]): string {
  const sorted = [...bars].filter((b) => b.value > 0).sort((a, b) => b.value - a.value || (a.label < b.label ? -1 : 1));
  if (sorted.length === 0) return chartFigure(title, 0, null);
  const max = Math.max(...sorted.map((b) => b.value));
  const span = CHART_WIDTH - LABEL - 70;
  const rows = sorted.map((b, i) => {
    const y = i * ROW;
    const w = Math.max(1, Math.round((b.value / max) * span));
    const label = escapeHtml(b.label);
    return (
      `<text x="${LABEL - 6}" y="${y + 15}" text-anchor="end">${label}</text>` +
      `<rect class="bar" data-label="${label}" data-value="${b.value}" x="${LABEL}" y="${y + 3}" width="${w}" height="${ROW - 6}"/>` +
      `<text x="${LABEL + w + 6}" y="${y + 15}">${b.value.toLocaleString("en-US")}</text>`
    );
  });
  return chartFigure(title, sorted.length * ROW, rows);
}
