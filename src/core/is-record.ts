/** Whether a parsed JSON value is an object (not null, not an array): the shape every record, body and entry is read as. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
