import { describe, expect, it } from "vitest";
import { describeError } from "../../src/core/describe-error.js";
import { addSecrets, redactSecrets, safeCause } from "../../src/core/secrets.js";

const SECRET = "tok_abcdef123456";

describe("redact", () => {
  it("removes every occurrence of the secret", () => {
    expect(redactSecrets("unchanged")).toBe("unchanged");
    const clean = new TypeError("fetch failed", { cause: new Error(`header Bearer ${SECRET} rejected`) });
    expect(safeCause(clean)).toBe(clean);
    addSecrets(SECRET, "");
    expect(redactSecrets(`a ${SECRET} b ${SECRET}`)).toBe("a [REDACTED] b [REDACTED]");
    expect(redactSecrets("unchanged")).toBe("unchanged");
  });

  it("keeps a clean cause as it is and replaces one that mentions the secret, however deep", () => {
    addSecrets(SECRET);
    const clean = new TypeError("fetch failed", { cause: Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:4"), { code: "ECONNREFUSED" }) });
    expect(safeCause(clean)).toBe(clean);
    const dirty = new TypeError("fetch failed", { cause: new Error(`header Bearer ${SECRET} rejected`) });
    const safe = safeCause(dirty) as Error;
    expect(safe).not.toBe(dirty);
    expect(safe.message).toBe("fetch failed: header Bearer [REDACTED] rejected");
    expect(safe.stack).not.toContain(SECRET);
  });

  it("describes an error with its causes and codes on one line", () => {
    const error = new TypeError("fetch failed", { cause: Object.assign(new Error("other side closed"), { code: "UND_ERR_SOCKET" }) });
    expect(describeError(error)).toBe("fetch failed: other side closed (UND_ERR_SOCKET)");
    expect(describeError("plain")).toBe("plain");
    const s3 = Object.assign(new Error("string to sign", { cause: "a plain cause" }), { name: "SignatureDoesNotMatch" });
    expect(describeError(s3, true)).toBe("SignatureDoesNotMatch: string to sign: a plain cause");
    expect(describeError(s3)).toBe("string to sign: a plain cause");
  });
});
