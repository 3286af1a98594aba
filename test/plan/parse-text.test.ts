import { describe, expect, it } from "vitest";
import { ratio as ratioKind } from "../../src/plan/option-kind.js";
import { byteSize, pathPolicy, wholeNumber } from "../../src/plan/parse-text.js";

const ratio = (flag: string) => (ratioKind().fromText as (flag: string) => (text: string) => number)(flag);

describe("flag parsers", () => {
  it("whole numbers", () => {
    expect(wholeNumber("--n")("42")).toBe(42);
    for (const bad of ["0", "-1", "1.5", "ten", ""]) expect(() => wholeNumber("--n")(bad)).toThrow(`--n`);
  });

  it("counts from zero", () => {
    expect(wholeNumber("--rows", 0)("0")).toBe(0);
    expect(() => wholeNumber("--rows", 0)("-1")).toThrow(/--rows/);
  });

  it("sizes with units", () => {
    expect(byteSize("--b")("512MiB")).toBe(512 * 1024 ** 2);
    expect(byteSize("--b")("1GB")).toBe(1e9);
    expect(byteSize("--b")("1000")).toBe(1000);
    expect(() => byteSize("--b")("12 parsecs")).toThrow(/"12 parsecs"/);
  });

  it("ratios", () => {
    expect(ratio("--r")("0.05")).toBe(0.05);
    for (const bad of ["1.5", "-0.1", "", "x"]) expect(() => ratio("--r")(bad)).toThrow(/--r/);
  });

  it("repeatable PATH=POLICY", () => {
    expect(pathPolicy("b.c=keep", pathPolicy("a=drop"))).toEqual({ a: "drop", "b.c": "keep" });
    for (const bad of ["nope", "=drop", "a="]) expect(() => pathPolicy(bad)).toThrow(/PATH=POLICY/);
  });
});
