import { describe, expect, it } from "vitest";
import { ConfigError } from "../../src/core/errors.js";
import { detectFormat, formatByName } from "../../src/formats/index.js";
import { isLaterMinor } from "../../src/formats/common.js";

describe("format detection", () => {
  it("detects each format from its version field", () => {
    expect(detectFormat({ format_version: "1.1" })?.name).toBe("sft");
    expect(detectFormat({ rl_format_version: "1.0" })?.name).toBe("rl");
    expect(detectFormat({ dpo_format_version: "1.0" })?.name).toBe("dpo");
    expect(detectFormat({ run_id: "x" })).toBeNull();
  });

  it("names the bad value for an unknown format", () => {
    expect(() => formatByName("ppo")).toThrow(ConfigError);
    expect(() => formatByName("ppo")).toThrow(/"ppo"/);
  });

  it("treats later minors of the same major as later minors only", () => {
    expect(isLaterMinor("1.2", "1.1")).toBe(true);
    expect(isLaterMinor("1.1", "1.1")).toBe(true);
    expect(isLaterMinor("1.0", "1.1")).toBe(false);
    expect(isLaterMinor("2.1", "1.1")).toBe(false);
    expect(isLaterMinor("1.x", "1.1")).toBe(false);
    expect(isLaterMinor(1.2, "1.1")).toBe(false);
  });
});
