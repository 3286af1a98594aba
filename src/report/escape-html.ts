/** Text for HTML and SVG content and attributes: the report shows reasons, paths and names taken from data. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
