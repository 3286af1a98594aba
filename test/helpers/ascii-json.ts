/** `JSON.stringify` with every UTF-16 unit above ASCII as a `\u` escape, as some exports write JSON. */
export function asciiJson(t: string): string {
  return JSON.stringify(t).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
