import { describe, expect, it } from "vitest";
import { dpo } from "../../src/formats/dpo.js";
import { fixtureLines } from "../helpers/flow.js";

const parse = (text: string) => dpo.schema.parse(JSON.parse(text));

describe("DPO dpo_format_version 1.0", () => {
  it("accepts the fixture pairs", () => {
    for (const line of fixtureLines("records/dpo-valid.ndjson")) expect(dpo.check(parse(line.text))).toBeNull();
  });

  it("rejects a pair of a run with itself as invalid_pair", () => {
    const [, same] = fixtureLines("records/dpo-invalid-pair.ndjson");
    expect(dpo.check(parse(same!.text))).toEqual({ reason: "invalid_pair", detail: expect.stringContaining("run-212") });
  });

  it("keys dedup on chosen, rejected and seat, and gates on both runs", () => {
    const facts = dpo.facts(parse(fixtureLines("records/dpo-valid.ndjson")[0]!.text));
    expect(facts.key).toBe(JSON.stringify(["run-200", "run-201", 0]));
    expect(facts.runIds).toEqual(["run-200", "run-201"]);
    expect(facts.scorecardVersion).toBeNull();
  });
});
