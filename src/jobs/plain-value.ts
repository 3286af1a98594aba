/**
 * A value read from a shard, fit for JSON: an int64 (a bigint to the reader) becomes a number, as it was
 * written; one beyond 2^53, which a JSON number cannot hold exactly, becomes its decimal string.
 */
export function plainValue(value: unknown): unknown {
  if (value === undefined) return null;
  if (typeof value === "bigint") return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  if (Array.isArray(value)) return value.map(plainValue);
  if (value instanceof Uint8Array) return Buffer.from(value).toString("base64");
  if (value instanceof Date) return value.toISOString();
  if (value !== null && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plainValue(v)]));
  return value;
}
