import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, IoError } from "../../src/core/errors.js";
import { readGatedRuns, readScorecardFile } from "../../src/stages/read-scorecards.js";
import { FIXTURES } from "../helpers/flow.js";
import { tempDir } from "../helpers/temp-dir.js";

const dir = tempDir();
const file = (name: string, text: string) => {
  writeFileSync(join(dir, name), text);
  return join(dir, name);
};
/** A scorecard as spec 2.7 lists it. */
const card = (runId: string, over: Record<string, unknown> = {}) => ({
  run_id: runId,
  agent_key_id: "key-1",
  outcomes: { met_count: 1, total_checks: 2, total_actions: 3, win_conditions: [], partial_credit: { per_condition: {}, total: 0, max_possible: 1 } },
  traits: { per_trait: { empathy: { mean: 4, variance: 0, evidence: [] } } },
  ...over,
});
const lines = (...values: unknown[]) => values.map((v) => JSON.stringify(v)).join("\n");

// Issue 20: scorecards were read by truthiness and never checked; spec 2.7 is the schema now.
describe("readGatedRuns (scorecards checked against spec 2.7)", () => {
  it("reads NDJSON of scorecard responses and bare scorecards; only `participation_gated: true` gates", async () => {
    const path = file("a.ndjson", `${lines({ scorecards: [card("r1", { participation_gated: true }), card("r2")], versions: [1] })}\n\n${lines(card("r3", { participation_gated: true }))}\r\n${lines(card("r4", { participation_gated: false }))}\n`);
    expect([...(await readGatedRuns(path))].sort()).toEqual(["r1", "r3"]);
  });

  it("reads one JSON document: an array or a response", async () => {
    expect([...(await readGatedRuns(file("b.json", JSON.stringify([card("r5", { participation_gated: true })]))))]).toEqual(["r5"]);
    expect([...(await readGatedRuns(file("c.json", JSON.stringify({ scorecards: [card("r6", { participation_gated: true })], versions: [1, 2] }))))]).toEqual(["r6"]);
  });

  it('quarantines a card that is not spec 2.7\'s, with its reason: the string "false", 1 or "yes" never gates', async () => {
    const path = file("d.ndjson", lines(card("r7", { participation_gated: "false" }), card("r8", { participation_gated: 1 }), { run_id: "r9", participation_gated: true }, card("r10", { participation_gated: true })));
    const { book, quarantined } = await readScorecardFile(path);
    expect(book.gatedRuns()).toEqual(new Set(["r10"]));
    expect(quarantined.map((q) => [q.where, q.reason])).toEqual([
      ["line 1", "invalid_scorecard"],
      ["line 2", "invalid_scorecard"],
      ["line 3", "invalid_scorecard"],
    ]);
    expect(quarantined[0]?.detail).toMatch(/participation_gated/);
    expect(quarantined[2]?.detail).toMatch(/outcomes/);
  });

  it("the fixture scorecards-invalid.ndjson: two bad cards quarantined, the valid stamp read", async () => {
    const { book, quarantined } = await readScorecardFile(`${FIXTURES}records/scorecards-invalid.ndjson`);
    expect(quarantined).toHaveLength(2);
    expect(book.size).toBe(1);
    expect(book.seat({ runId: "run-600", agentKeyId: "key-2", version: 1 })?.gated).toBe(true);
    expect(book.seat({ runId: "run-600", agentKeyId: "key-1", version: 1 })).toBeUndefined();
  });

  it("a response's cards describe its latest version; a record of another version finds none", async () => {
    const { book } = await readScorecardFile(`${FIXTURES}records/scorecards-selection.ndjson`);
    expect(book.seat({ runId: "run-601", agentKeyId: "key-1", version: 2 })?.composite).toBe(0.8);
    expect(book.seat({ runId: "run-601", agentKeyId: "key-1", version: 1 })).toBeUndefined();
    expect(book.seat({ runId: "run-603", agentKeyId: "key-1", version: 1 })).toBeUndefined();
    // A bare card's version is unknown: it stands for any.
    const bare = await readScorecardFile(file("e.ndjson", lines(card("r11"))));
    expect(bare.book.seat({ runId: "r11", agentKeyId: "key-1", version: 7 })?.objectiveRate).toBe(0.5);
  });

  it("names the file and line of a line that is not JSON", async () => {
    await expect(readGatedRuns(file("f.ndjson", `${lines(card("ok"))}\n{oops\n`))).rejects.toThrow(/f\.ndjson" line 2/);
    await expect(readGatedRuns(file("g.ndjson", "{oops\n"))).rejects.toThrow(ConfigError);
  });

  it("names a missing file", async () => {
    await expect(readGatedRuns(join(dir, "missing.json"))).rejects.toThrow(IoError);
  });
});
