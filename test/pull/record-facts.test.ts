import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { recordFacts } from "../../src/pull/record-facts.js";

/** What the pull read from JSON.parse's value before: the facts recordFacts must equal whenever it answers. */
function parsedFacts(line: string): { runId: unknown; seatIndex: unknown; version: unknown } | "invalid" | "not an object" {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return "invalid";
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return "not an object";
  const o = value as Record<string, unknown>;
  const seat = typeof o.seat === "object" && o.seat !== null && !Array.isArray(o.seat) ? (o.seat as Record<string, unknown>) : undefined;
  return {
    runId: typeof o.run_id === "string" ? o.run_id : undefined,
    seatIndex: typeof seat?.seat_index === "number" ? seat.seat_index : undefined,
    version: typeof o.scorecard_version === "number" ? o.scorecard_version : undefined,
  };
}

/** recordFacts either declines or agrees with JSON.parse; it never answers for a line JSON.parse rejects. */
function agrees(line: string): "answered" | "declined" {
  const facts = recordFacts(line);
  const expected = parsedFacts(line);
  if (facts === undefined) return "declined";
  expect(expected, line).not.toBe("invalid");
  expect(expected, line).not.toBe("not an object");
  expect(facts, line).toEqual(expected);
  return "answered";
}

/** Export lines as the benchmark's own generator writes them (bench/data/ is not in git), SFT and RL. */
function generatedLines(format: "sft" | "rl", count: number): string[] {
  const out = join(mkdtempSync(join(tmpdir(), "evalshard-record-facts-")), `${format}.ndjson`);
  const generate = fileURLToPath(new URL("../../bench/generate-exports.mjs", import.meta.url));
  execFileSync(process.execPath, [generate, "--format", format, "--mib", "1", "--seed", "1", "--out", out], { stdio: "ignore" });
  return readFileSync(out, "utf8").split("\n").filter((l) => l !== "").slice(0, count);
}

const realLines = [...generatedLines("sft", 40), ...generatedLines("rl", 20)];

describe("recordFacts: a record's key facts without JSON.parse", () => {
  it("answers for real export lines, equal to JSON.parse's values", () => {
    for (const line of realLines) expect(agrees(line)).toBe("answered");
  });

  it("follows JSON.parse on repeated keys, types, numbers and whitespace", () => {
    const cases = [
      '{"run_id":"a","seat":{"seat_index":1},"scorecard_version":2}',
      '  { "run_id" : "a" , "seat" : { "seat_index" : -0 } }  ',
      '{"run_id":"a","run_id":"b","seat":{"seat_index":1,"seat_index":2.5e1}}',
      '{"run_id":"a","seat":{"seat_index":1},"seat":{"role":"x"}}',
      '{"run_id":"a","seat":{"seat_index":"1"},"scorecard_version":"3"}',
      '{"run_id":7,"seat":[1],"scorecard_version":1E400}',
      '{"run_id":"a","run_id":null,"seat":{"seat_index":0}}',
      '{"nested":{"run_id":"x","seat":{"seat_index":9}},"list":[1,{"a":[true,false,null]},"s\\"q"],"run_id":"r"}',
      "{}",
      '{"run_id":"\uDC80 lone surrogate"}',
      '{"s":"tab\\tand \\u00e9","run_id":"r","seat":{"seat_index":0}}',
      '{"run_id":"r\\u0062\\"","seat":{"seat_index":0}}',
    ];
    for (const line of cases) expect(agrees(line), line).toBe("answered");
    expect(recordFacts('{"run_id":"a","seat":{"seat_index":1,"seat_index":2.5e1}}')).toEqual({ runId: "a", seatIndex: 25, version: undefined });
  });

  it("declines what it cannot vouch for: invalid JSON, non-objects, escaped keys, control characters, deep nesting", () => {
    const cases = [
      '{"run_id":"a",}',
      '{"run_id":"a"} x',
      '{"run_id":"a"',
      '{"run_id":"a\tb"}',
      '\t{"run_id":"a"}\r\n',
      '{"run_id":01}',
      '{"n":1.}',
      '{"n":-}',
      '{"n":1e}',
      '{"n":tru}',
      '{"s":"\\x"}',
      '{"s":"\\u12g4"}',
      "[1,2]",
      '"run_id"',
      '{"run\\u005fid":"a"}',
      '{"seat":{"seat\\u005findex":1}}',
      `{"deep":${"[".repeat(100)}${"]".repeat(100)}}`,
      '\uFEFF{"run_id":"a"}',
      '{"a":1 "b":2}',
      '{"a" 1}',
      "{'a':1}",
    ];
    for (const line of cases) expect(recordFacts(line), line).toBeUndefined();
  });

  it("never answers differently from JSON.parse on real lines cut, spliced and mangled at random", () => {
    let seed = 21;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    const pieces = ['"', "\\", "{", "}", "[", "]", ",", ":", " ", "0", "-", "e", ".", "\\u00", '"run_id":', '"seat":{', "\n", "\u0001"];
    let answered = 0;
    for (let n = 0; n < 4000; n++) {
      const line = realLines[n % realLines.length] as string;
      const at = Math.floor(random() * line.length);
      const cut = Math.floor(random() * 4);
      const piece = random() < 0.5 ? (pieces[Math.floor(random() * pieces.length)] as string) : "";
      const mangled = line.slice(0, at) + piece + line.slice(at + cut);
      if (agrees(mangled) === "answered") answered++;
    }
    // Most single edits inside long string values leave the line valid: those are answered, not declined.
    expect(answered).toBeGreaterThan(1000);
  });
});
