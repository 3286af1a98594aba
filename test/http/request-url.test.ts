import { describe, expect, it } from "vitest";
import { ConfigError } from "../../src/core/errors.js";
import { checkBaseUrl, displayPath, requestUrl } from "../../src/http/request-url.js";

describe("checkBaseUrl", () => {
  it("takes https anywhere and http on loopback", () => {
    expect(checkBaseUrl("https://evals.example.com/prefix/", false).href).toBe("https://evals.example.com/prefix/");
    expect(checkBaseUrl("http://127.0.0.1:4000", false).port).toBe("4000");
    expect(checkBaseUrl("http://localhost:4000", false).hostname).toBe("localhost");
    expect(checkBaseUrl("http://10.0.0.5", true).hostname).toBe("10.0.0.5");
  });

  it("rejects what would leak or misroute the token, naming the value (credentials removed)", () => {
    expect(() => checkBaseUrl("not a url", false)).toThrow('got "not a url"');
    expect(() => checkBaseUrl("ftp://x", false)).toThrow('"ftp:"');
    expect(() => checkBaseUrl("http://10.0.0.5", false)).toThrow("cleartext");
    expect(() => checkBaseUrl("https://x/?a=1", false)).toThrow(ConfigError);
    let message = "";
    try {
      checkBaseUrl("https://user:hunter2@evals.example.com", false);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain("without credentials");
    expect(message).not.toContain("hunter2");
  });
});

describe("requestUrl and displayPath", () => {
  it("joins a base with a path prefix, the path and the query, leaving out undefined and null", () => {
    const url = requestUrl(new URL("https://h/v1/"), "/api/evals/finetuning", { limit: 500, campaign_id: undefined, other: null, flag: true });
    expect(url.href).toBe("https://h/v1/api/evals/finetuning?limit=500&flag=true");
    expect(() => requestUrl(new URL("https://h"), "api/x")).toThrow(ConfigError);
    expect(() => requestUrl(new URL("https://h"), "//evil.example/x")).toThrow(ConfigError);
  });

  it("shows path and query with secret-looking values removed", () => {
    const url = requestUrl(new URL("https://h"), "/api/x", { run_id_a: "abc", api_key: "esk_secret", character_token: "t0k", api_key_id: "id1" });
    expect(displayPath(url)).toBe("/api/x?run_id_a=abc&api_key=[REDACTED]&character_token=[REDACTED]&api_key_id=id1");
  });
});
