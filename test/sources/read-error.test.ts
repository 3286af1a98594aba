import { describe, expect, it } from "vitest";
import { ConfigError, IoError } from "../../src/core/errors.js";
import { readError } from "../../src/sources/read-error.js";

describe("a read failure becomes an IoError naming the input and the cause", () => {
  it("wraps a system error", () => {
    const cause = Object.assign(new Error("ENOENT: no such file or directory, open 'x.ndjson'"), { code: "ENOENT" });
    const err = readError("x.ndjson", cause);
    expect(err).toBeInstanceOf(IoError);
    expect(err.message).toBe(`Cannot read input "x.ndjson": ENOENT: no such file or directory, open 'x.ndjson'`);
    expect((err as IoError).path).toBe("x.ndjson");
    expect(err.cause).toBe(cause);
  });

  it("wraps a thrown non-error", () => {
    expect(readError("-", "boom").message).toBe('Cannot read input "-": boom');
  });

  it("keeps an evalshard error as it is", () => {
    const config = new ConfigError("bad option");
    expect(readError("x", config)).toBe(config);
  });
});
