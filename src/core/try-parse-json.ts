/** The value of a JSON text, or undefined when it is not JSON (JSON.parse never answers undefined). */
export function tryParseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
