/**
 * The wait a `Retry-After` header asks for, in milliseconds: delta-seconds (`120`) or an HTTP-date
 * (`Wed, 21 Oct 2015 07:28:00 GMT`, measured against `nowMs`; a date in the past means no wait).
 * Undefined when the header is absent or unreadable, so the caller falls back to its own backoff.
 */
export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | undefined {
  const text = value?.trim() ?? "";
  if (text === "") return undefined;
  // RFC 9110 allows only digits; a decimal is read too, since some servers send one.
  if (/^\d+(?:\.\d+)?$/.test(text)) return Math.ceil(Number(text) * 1000);
  // Date.parse would also take "2025" or "1.5 days": demand the shape of an HTTP-date (a weekday first).
  if (!/^[A-Za-z]{3,9},? /.test(text)) return undefined;
  // HTTP-dates are GMT; asctime's form says so nowhere, and Date.parse would read it as local time.
  const at = Date.parse(/\b(?:GMT|UTC)\b/i.test(text) ? text : `${text} GMT`);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}
