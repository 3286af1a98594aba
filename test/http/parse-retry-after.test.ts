import { describe, expect, it } from "vitest";
import { parseRetryAfter } from "../../src/http/index.js";

const NOW = Date.parse("2025-06-02T12:00:00Z");

describe("parseRetryAfter", () => {
  it("reads delta-seconds", () => {
    expect(parseRetryAfter("120", NOW)).toBe(120_000);
    expect(parseRetryAfter(" 0 ", NOW)).toBe(0);
    expect(parseRetryAfter("1.5", NOW)).toBe(1_500);
  });

  it("reads an HTTP-date against the clock, a past date meaning no wait", () => {
    expect(parseRetryAfter("Mon, 02 Jun 2025 12:02:00 GMT", NOW)).toBe(120_000);
    expect(parseRetryAfter("Monday, 02-Jun-25 12:00:30 GMT", NOW)).toBe(30_000);
    expect(parseRetryAfter("Mon Jun  2 12:00:30 2025", NOW)).toBe(30_000);
    expect(parseRetryAfter("Mon, 02 Jun 2025 11:00:00 GMT", NOW)).toBe(0);
  });

  it("ignores what it cannot read, so the client falls back to its own backoff", () => {
    for (const value of [null, undefined, "", "soon", "-5", "1e3", "Tomorrow", "12 seconds"]) expect(parseRetryAfter(value, NOW), String(value)).toBeUndefined();
  });
});
