import { describe, expect, it } from "vitest";
import { sft } from "../../src/formats/sft.js";
import { fixtureLines } from "../helpers/flow.js";

const valid = () => JSON.parse(fixtureLines("records/sft-valid.ndjson")[0]!.text) as Record<string, unknown>;

describe("SFT format_version 1.1", () => {
  it("accepts the spec's record and keeps only declared fields", () => {
    const parsed = sft.schema.parse({ ...valid(), surprise: 1, seat: { ...(valid().seat as object), extra: true } });
    expect(parsed).not.toHaveProperty("surprise");
    expect(parsed.seat).not.toHaveProperty("extra");
    expect(parsed.run_id).toBe("run-001");
  });

  it("rejects a declared field of the wrong type", () => {
    expect(sft.schema.safeParse({ ...valid(), scored: "yes" }).success).toBe(false);
    expect(sft.schema.safeParse({ ...valid(), scorecard_version: 1.5 }).success).toBe(false);
  });

  it("rejects another version", () => {
    expect(sft.schema.safeParse({ ...valid(), format_version: "1.0" }).success).toBe(false);
  });

  it("keeps trace steps of any shape", () => {
    const parsed = sft.schema.parse({ ...valid(), trace_steps: [1, "two", { three: [3] }, null] });
    expect(parsed.trace_steps).toEqual([1, "two", { three: [3] }, null]);
  });

  it("allows the owner-only manifest and transcript", () => {
    const parsed = sft.schema.parse({ ...valid(), manifest: { judge: { prompt_hash: "h", model: "m" }, scenario_version_hash: "v" }, transcript: [{ any: "thing" }] });
    expect(parsed.manifest?.judge.model).toBe("m");
  });

  it("keys dedup on run and seat, with identifiers kept opaque", () => {
    const facts = sft.facts(sft.schema.parse(valid()));
    expect(facts.key).toBe(JSON.stringify(["run-001", 0]));
    expect(facts.scorecardVersion).toBe(1);
  });

  it("lists the spec's untrusted paths", () => {
    expect(sft.untrustedPaths).toEqual(["coaching.guidance", "scores.win_conditions[].description", "transcript"]);
  });

  it("types its columns: nested structs, lists, maps, json for unshown shapes", () => {
    const byName = Object.fromEntries(sft.columns.map((f) => [f.name, f]));
    expect(byName.trace_steps?.type).toEqual({ kind: "list", item: { kind: "json" } });
    expect(byName.scores?.nullable).toBe(true);
    const scores = byName.scores?.type;
    expect(scores?.kind === "struct" && scores.fields.find((f) => f.name === "per_trait")?.type.kind).toBe("map");
    expect(byName.manifest?.nullable).toBe(true);
  });
});
