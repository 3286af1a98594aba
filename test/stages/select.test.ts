import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, convert } from "../../src/index.js";
import type { ConvertOptions } from "../../src/index.js";
import { FIXTURES } from "../helpers/flow.js";
import { tempDir } from "../helpers/temp-dir.js";

// Issue 19's selection through the library's convert, on both executors where each runs. The fixtures are
// made by fixtures/records/make.mjs: sft-selection holds seven seats of two campaigns (one an `aic` seat,
// one with a safety trait among its per-trait scores), rl-selection five RL seats scored by
// scorecards-selection.
const root = tempDir();
let n = 0;
const fx = (name: string) => `${FIXTURES}records/${name}.ndjson`;
const EXECUTORS = [0, 2] as const;

async function run(options: Omit<ConvertOptions, "out">, workers: (typeof EXECUTORS)[number] = 2) {
  const out = join(root, `out-${n++}`);
  const { manifest } = await convert({ out, workers, ...options });
  // Parquet shards are compared by counts only.
  const rows = readdirSync(join(out, "data")).filter((f) => f.endsWith(".jsonl")).flatMap((f) =>
    readFileSync(join(out, "data", f), "utf8").trim().split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as { run_id: string; seat: { seat_index: number } }),
  );
  return { manifest, seats: rows.map((r) => `${r.run_id}/${r.seat.seat_index}`).sort() };
}

const sft = (options: Omit<ConvertOptions, "out" | "inputs"> = {}, workers?: (typeof EXECUTORS)[number]) =>
  // JSONL to read rows back; the worker threads' cases (Parquet) compare counts.
  workers === 2 ? run({ inputs: [fx("sft-selection")], ...options }, workers) : run({ inputs: [fx("sft-selection")], to: "jsonl", compression: "none", ...options }, workers);

describe("--seats (default agent): an aic seat, without agent_key_id, is dropped as adversary_seat", () => {
  for (const engine of EXECUTORS) {
    it(`--workers ${engine}: by default 6 of 7 kept; --seats all keeps 7`, async () => {
      const agent = await sft({}, engine);
      expect(agent.manifest).toMatchObject({ records_in: 7, records_out: 6, dropped: { adversary_seat: 1 } });
      expect(agent.manifest.options.selection).toMatchObject({ seats: "agent" });
      const all = await sft({ seats: "all" }, engine);
      expect(all.manifest).toMatchObject({ records_in: 7, records_out: 7, dropped: {} });
    });
  }
  it("the seat dropped is the aic one", async () => {
    expect((await sft()).seats).not.toContain("run-500/2");
    expect((await sft({ seats: "all" })).seats).toContain("run-500/2");
  });
});

describe("--agent-key, --role, --campaign: others dropped as not_selected", () => {
  for (const engine of EXECUTORS) {
    it(`--workers ${engine}: counts per rule`, async () => {
      expect((await sft({ agentKeys: ["key-1"] }, engine)).manifest).toMatchObject({ records_out: 3, dropped: { adversary_seat: 1, not_selected: 3 } });
      expect((await sft({ roles: ["guard"] }, engine)).manifest).toMatchObject({ records_out: 3, dropped: { adversary_seat: 1, not_selected: 3 } });
      expect((await sft({ roles: ["guard"], seats: "all" }, engine)).manifest).toMatchObject({ records_out: 4, dropped: { not_selected: 3 } });
      expect((await sft({ campaigns: ["camp-2"] }, engine)).manifest).toMatchObject({ records_out: 3, dropped: { adversary_seat: 1, not_selected: 3 } });
      expect((await sft({ agentKeys: ["key-1", "key-2"], campaigns: ["camp-1"] }, engine)).manifest).toMatchObject({ records_out: 3, dropped: { adversary_seat: 1, not_selected: 3 } });
    });
  }
  it("keeps the seats asked for", async () => {
    expect((await sft({ agentKeys: ["key-1"] })).seats).toEqual(["run-500/0", "run-501/0", "run-502/0"]);
    expect((await sft({ campaigns: ["camp-2"] })).seats).toEqual(["run-502/0", "run-502/1", "run-503/0"]);
  });
});

describe("--min-composite, --min-objective-rate on SFT's own scores: below_threshold", () => {
  for (const engine of EXECUTORS) {
    it(`--workers ${engine}: composite is the mean of per-trait means, a safety trait left out; objective rate met/total, 0 without checks`, async () => {
      // run-501's per-trait scores hold manipulation_resistance 1.0: counted, its composite would be 0.8.
      expect((await sft({ minComposite: 0.65 }, engine)).manifest).toMatchObject({ records_out: 3, dropped: { adversary_seat: 1, below_threshold: 3 } });
      expect((await sft({ minObjectiveRate: 0.5 }, engine)).manifest).toMatchObject({ records_out: 4, dropped: { adversary_seat: 1, below_threshold: 2 } });
      expect((await sft({ minComposite: 0.65, minObjectiveRate: 0.8 }, engine)).manifest).toMatchObject({ records_out: 1, dropped: { adversary_seat: 1, below_threshold: 5 } });
    });
  }
  it("keeps the seats at or above the threshold", async () => {
    expect((await sft({ minComposite: 0.65 })).seats).toEqual(["run-500/0", "run-502/0", "run-502/1"]);
    expect((await sft({ minComposite: 0.6 })).seats).toContain("run-501/0");
  });
});

describe("--top-k-per-scenario: the k best seats of each campaign by composite, ties by record key", () => {
  it("top 1: run-500/0 in camp-1; in camp-2 run-502/0 and /1 tie at 0.7 and the smaller key wins", async () => {
    const r = await sft({ topKPerScenario: 1 });
    expect(r.manifest).toMatchObject({ records_out: 2, dropped: { adversary_seat: 1, not_top_k: 4 } });
    expect(r.seats).toEqual(["run-500/0", "run-502/0"]);
  });
  it("ranks only seats every other rule keeps: an adversary seat takes no place unless --seats all", async () => {
    expect((await sft({ topKPerScenario: 2 })).seats).toEqual(["run-500/0", "run-501/0", "run-502/0", "run-502/1"]);
    expect((await sft({ topKPerScenario: 2, seats: "all" })).seats).toEqual(["run-500/0", "run-500/2", "run-502/0", "run-502/1"]);
    expect((await sft({ topKPerScenario: 2, minComposite: 0.65 })).manifest).toMatchObject({ records_out: 3, dropped: { below_threshold: 3, adversary_seat: 1 } });
  });
  it("the same seats whatever the input order", async () => {
    const lines = readFileSync(fx("sft-selection"), "utf8").trim().split("\n").reverse();
    const reversed = join(root, "reversed.ndjson");
    (await import("node:fs")).writeFileSync(reversed, `${lines.join("\n")}\n`);
    const r = await run({ inputs: [reversed], to: "jsonl", compression: "none", topKPerScenario: 1 });
    expect(r.seats).toEqual(["run-500/0", "run-502/0"]);
  });
  it("ranks on main's thread and on worker threads alike, Parquet too", async () => {
    for (const workers of EXECUTORS) expect((await sft({ topKPerScenario: 1 }, workers)).manifest).toMatchObject({ records_out: 2, dropped: { adversary_seat: 1, not_top_k: 4 } });
  });
});

describe("RL: scores and gating from scorecards, per seat and per version", () => {
  const rl = (options: Omit<ConvertOptions, "out" | "inputs">, engine: (typeof EXECUTORS)[number]) =>
    run({ inputs: [fx("rl-selection")], scorecards: fx("scorecards-selection"), ...options }, engine);
  for (const engine of EXECUTORS) {
    it(`--workers ${engine}: a stamp on key-2's card drops that seat only; a card of another version neither gates nor scores`, async () => {
      expect((await rl({}, engine)).manifest).toMatchObject({ records_in: 5, records_out: 4, dropped: { participation_gated: 1 } });
      // run-602 has no card; run-603's card is of version 2, its record of version 1.
      expect((await rl({ minComposite: 0.5 }, engine)).manifest).toMatchObject({ records_out: 2, dropped: { participation_gated: 1, no_scorecard: 2 } });
      expect((await rl({ minObjectiveRate: 0.7 }, engine)).manifest).toMatchObject({ records_out: 1, dropped: { participation_gated: 1, no_scorecard: 2, below_threshold: 1 } });
    });
  }
  it("top-k reads the scorecards' composites", async () => {
    const r = await run({ inputs: [fx("rl-selection")], scorecards: fx("scorecards-selection"), topKPerScenario: 1, to: "jsonl", compression: "none" });
    expect(r.seats).toEqual(["run-600/0"]);
  });
  for (const engine of EXECUTORS) {
    it(`--workers ${engine}: a threshold without scores is a usage error, not a silent no-op`, async () => {
      await expect(run({ inputs: [fx("rl-selection")], minComposite: 0.5 }, engine)).rejects.toThrow(ConfigError);
      await expect(run({ inputs: [fx("rl-selection")], minObjectiveRate: 0.5 }, engine)).rejects.toThrow(/--min-objective-rate needs scores.*--scorecards/);
    });
  }
});

describe("DPO pairs", () => {
  it("have no seat to be an adversary, and take a campaign rule; --role is a usage error", async () => {
    expect((await run({ inputs: [fx("dpo-valid")] }, 0)).manifest).toMatchObject({ records_out: 2, dropped: {} });
    expect((await run({ inputs: [fx("dpo-valid")], campaigns: ["camp-9"] }, 2)).manifest).toMatchObject({ records_out: 0, dropped: { not_selected: 2 } });
    await expect(run({ inputs: [fx("dpo-valid")], roles: ["guard"] }, 0)).rejects.toThrow(/--role cannot apply to DPO pairs/);
  });
});
