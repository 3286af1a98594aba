import { describe, expect, it } from "vitest";
import { describeError, redactor, safeCause } from "../../src/http/redact.js";

const SECRET = "tok_abcdef123456";

describe("redact", () => {
  it("removes every occurrence of the secret", () => {
    expect(redactor(SECRET)(`a ${SECRET} b ${SECRET}`)).toBe("a [REDACTED] b [REDACTED]");
    expect(redactor("")("unchanged")).toBe("unchanged");
  });

  it("keeps a clean cause as it is and replaces one that mentions the secret, however deep", () => {
    const clean = new TypeError("fetch failed", { cause: Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:4"), { code: "ECONNREFUSED" }) });
    expect(safeCause(clean, SECRET)).toBe(clean);
    const dirty = new TypeError("fetch failed", { cause: new Error(`header Bearer ${SECRET} rejected`) });
    const safe = safeCause(dirty, SECRET) as Error;
    expect(safe).not.toBe(dirty);
    expect(safe.message).toBe("fetch failed: header Bearer [REDACTED] rejected");
    expect(safe.stack).not.toContain(SECRET);
  });

  it("describes an error with its causes and codes on one line", () => {
    const error = new TypeError("fetch failed", { cause: Object.assign(new Error("other side closed"), { code: "UND_ERR_SOCKET" }) });
    expect(describeError(error)).toBe("fetch failed: other side closed (UND_ERR_SOCKET)");
    expect(describeError("plain")).toBe("plain");
  });
});
