import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { ConfigError } from "../../src/core/errors.js";
import { credentialsFromEnv } from "../../src/http/index.js";

const SECRET = "esk_canary_CREDENTIALS_7f3e9a";

describe("credentialsFromEnv", () => {
  it("reads EVAL_API_KEY for agent and EVAL_OWNER_TOKEN for owner, trimming a trailing newline", () => {
    expect({ ...credentialsFromEnv("agent", { EVAL_API_KEY: `${SECRET}\n` }) }).toEqual({ auth: "agent", token: SECRET, tokenSource: "EVAL_API_KEY" });
    expect({ ...credentialsFromEnv("owner", { EVAL_OWNER_TOKEN: "eyJ.abc.def" }) }).toEqual({ auth: "owner", token: "eyJ.abc.def", tokenSource: "EVAL_OWNER_TOKEN" });
  });

  it("throws ConfigError naming the missing variable", () => {
    expect(() => credentialsFromEnv("agent", {})).toThrow(ConfigError);
    expect(() => credentialsFromEnv("agent", {})).toThrow("EVAL_API_KEY is not set");
    expect(() => credentialsFromEnv("owner", { EVAL_API_KEY: SECRET })).toThrow("EVAL_OWNER_TOKEN is not set");
    expect(() => credentialsFromEnv("agent", { EVAL_API_KEY: "  " })).toThrow("EVAL_API_KEY is empty");
    expect(() => credentialsFromEnv("nobody" as "agent", {})).toThrow('got "nobody"');
  });

  it("never puts the value in a message, even for a malformed one", () => {
    for (const bad of [`${SECRET} extra`, `${SECRET}\u0000`, `${SECRET}é`]) {
      let message = "";
      try {
        credentialsFromEnv("agent", { EVAL_API_KEY: bad });
      } catch (error) {
        message = `${String(error)} ${(error as Error).stack}`;
      }
      expect(message).toContain("EVAL_API_KEY");
      expect(message).not.toContain("canary");
    }
  });

  it("does not show the token when logged or serialised", () => {
    const creds = credentialsFromEnv("agent", { EVAL_API_KEY: SECRET });
    expect(JSON.stringify(creds)).not.toContain(SECRET);
    expect(inspect(creds)).not.toContain(SECRET);
    expect(inspect(creds)).toContain("EVAL_API_KEY");
  });
});
