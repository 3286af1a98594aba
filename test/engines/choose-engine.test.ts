import { describe, expect, it } from "vitest";
import { ConfigError } from "../../src/core/errors.js";
import { chooseEngine, ENGINES, prepareEngine } from "../../src/engines/choose-engine.js";
import type { Engine, RunSources } from "../../src/engines/engine.js";
import type { ConvertOptions } from "../../src/plan/options.js";
import { resolvePlan } from "../../src/plan/resolve-plan.js";
import type { LineSource } from "../../src/sources/line-source.js";

const source = (name: string, bytes: boolean): LineSource =>
  ({ name, lines: async function* () {}, info: async () => ({ path: name, bytes: 0, sha256: "" }), ...(bytes ? { bytes: async () => null } : {}) }) as unknown as LineSource;
const files: RunSources = { lines: [source("a.ndjson", true)], gates: () => undefined };
const plan = (options: Partial<ConvertOptions> = {}) => resolvePlan("convert", { inputs: ["a.ndjson"], out: "/tmp/out", ...options });
const names = (engines: readonly Engine[]) => engines.map((e) => e.name);

/** An engine that records what the choice did with it. */
function fake(name: Engine["name"], refusal: string | null): Engine & { calls: string[] } {
  const calls: string[] = [];
  return { name, calls, refuses: () => refusal, run: () => Promise.reject(new Error("not run here")), prepare: () => calls.push("prepare"), standDown: () => calls.push("standDown") };
}

describe("--engine auto", () => {
  it("tries the parallel engine first, then the stages", () => {
    expect(names(ENGINES)).toEqual(["parallel", "stages"]);
  });

  it("picks the parallel engine for Parquet it encodes from files it can read as bytes", () => {
    expect(chooseEngine(plan(), files).name).toBe("parallel");
  });

  it("picks the parallel engine for snappy too: our encoder writes it (DuckDB used to, on the stages engine)", () => {
    expect(chooseEngine(plan({ compression: "snappy" }), files).name).toBe("parallel");
  });

  it("picks the parallel engine for JSON Lines, a view's too, and for an input without bytes (a job spools it)", () => {
    expect(chooseEngine(plan({ to: "jsonl" }), files).name).toBe("parallel");
    expect(chooseEngine(plan({ to: "jsonl", view: "openai-sft" }), files).name).toBe("parallel");
    expect(chooseEngine(plan(), { lines: [source("-", false)], gates: () => undefined }).name).toBe("parallel");
  });

  it("stands the engines it did not choose down", () => {
    const first = fake("parallel", "no");
    const second = fake("stages", null);
    expect(chooseEngine(plan(), files, [first, second])).toBe(second);
    expect(first.calls).toEqual(["standDown"]);
    expect(second.calls).toEqual([]);
  });
});

describe("a named engine", () => {
  it("runs when it does not refuse", () => {
    expect(chooseEngine(plan({ engine: "stages" }), files).name).toBe("stages");
    expect(chooseEngine(plan({ engine: "parallel" }), files).name).toBe("parallel");
  });

  it("that refuses is a ConfigError naming the reason and the way out", () => {
    const run = () => chooseEngine(plan({ engine: "parallel" }), files, [fake("parallel", "it splits into at most 65536 splits (--split)"), fake("stages", null)]);
    expect(run).toThrow(ConfigError);
    expect(run).toThrow("The parallel engine cannot run this conversion: it splits into at most 65536 splits (--split); use --engine stages or auto");
  });
});

describe("prepareEngine (before the sources are open)", () => {
  it("prepares the engine the plan alone points to, and no other", () => {
    const parallel = fake("parallel", null);
    const stages = fake("stages", null);
    prepareEngine(plan(), [parallel, stages]);
    expect([parallel.calls, stages.calls]).toEqual([["prepare"], []]);
    prepareEngine(plan({ engine: "stages" }), [parallel, stages]);
    expect([parallel.calls, stages.calls]).toEqual([["prepare"], ["prepare"]]);
  });

  it("prepares nothing the plan rules out", () => {
    const parallel = fake("parallel", "it rotates shards by size, not into buckets");
    prepareEngine(plan({ engine: "parallel", to: "jsonl" }), [parallel]);
    expect(parallel.calls).toEqual([]);
  });
});
