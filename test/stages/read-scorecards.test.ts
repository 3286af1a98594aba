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

// Issue 20: scorecards were read by truthiness and never checked; issue 39: gating reads run, key and stamp alone.
describe("readGatedRuns (scorecards checked against spec 2.7)", () => {
  it("reads NDJSON of scorecard responses and bare scorecards; `participation_gated: true` gates, false does not", async () => {
    const path = file("a.ndjson", `${lines({ scorecards: [card("r1", { participation_gated: true }), card("r2")], versions: [1] })}\n\n${lines(card("r3", { participation_gated: true }))}\r\n${lines(card("r4", { participation_gated: false }))}\n`);
    expect([...(await readGatedRuns(path))].sort()).toEqual(["r1", "r3"]);
  });

  it("reads one JSON document: an array or a response", async () => {
    expect([...(await readGatedRuns(file("b.json", JSON.stringify([card("r5", { participation_gated: true })]))))]).toEqual(["r5"]);
    expect([...(await readGatedRuns(file("c.json", JSON.stringify({ scorecards: [card("r6", { participation_gated: true })], versions: [1, 2] }))))]).toEqual(["r6"]);
  });

  it('gates with a card faulty elsewhere; an unreadable stamp or key is warned about, naming run, key and field', async () => {
    const { partial_credit: _, ...noCredit } = card("x").outcomes;
    const path = file(
      "d.ndjson",
      lines(
        card("r7", { participation_gated: "false" }),
        card("r8", { participation_gated: 1 }),
        { run_id: "r9", agent_key_id: "key-9", participation_gated: true },
        card("r10", { participation_gated: { player_messages: 2, min_player_messages: 5 } }),
        card("r11", { outcomes: noCredit, participation_gated: true }),
        card("r12", { agent_key_id: 7 }),
        { agent_key_id: "key-1", participation_gated: true },
      ),
    );
    const { book, gates, quarantined, warnings } = await readScorecardFile(path);
    expect(gates.runsWith("gated")).toEqual(new Set(["r9", "r10", "r11"]));
    expect(gates.runsWith("unreadable")).toEqual(new Set(["r7", "r8", "r12"]));
    // Only the cards that pass spec 2.7 give scores (r7 and r8 do: their stamp is gating's business).
    expect(book.entries.map((e) => e[0])).toEqual(["r7", "r8", "r10"]);
    expect(quarantined.map((q) => [q.where, q.reason])).toEqual([["line 7", "invalid_scorecard"]]);
    const unreadable = warnings.filter((w) => w.reason === "unreadable_gating").map((w) => [w.run_id, w.agent_key_id, w.field]);
    expect(unreadable).toEqual([
      ["r7", '"key-1"', "participation_gated"],
      ["r8", '"key-1"', "participation_gated"],
      ["r12", "7", "agent_key_id"],
    ]);
    const notScored = warnings.filter((w) => w.reason === "not_scored").map((w) => [w.run_id, w.field]);
    expect(notScored).toEqual([
      ["r9", "outcomes"],
      ["r11", "outcomes.partial_credit"],
      ["r12", "agent_key_id"],
    ]);
  });

  it("the fixture scorecards-invalid.ndjson: the string \"false\" unreadable, a card without outcomes still gates", async () => {
    const { book, gates, quarantined } = await readScorecardFile(`${FIXTURES}records/scorecards-invalid.ndjson`);
    expect(quarantined).toHaveLength(0);
    expect(book.size).toBe(2);
    expect(gates.record({ runIds: ["run-600"], seat: { agentKeyId: "key-2" }, scorecardVersion: 1 }, "seat")).toBe("gated");
    expect(gates.record({ runIds: ["run-600"], seat: { agentKeyId: "key-1" }, scorecardVersion: 1 }, "seat")).toBe("unreadable");
    expect(gates.record({ runIds: ["run-601"], seat: { agentKeyId: "key-1" }, scorecardVersion: 1 }, "seat")).toBe("gated");
    expect(gates.record({ runIds: ["run-601"], seat: { agentKeyId: "key-2" }, scorecardVersion: 1 }, "seat")).toBe("open");
    expect(gates.record({ runIds: ["run-601"], seat: { agentKeyId: "key-2" }, scorecardVersion: 1 }, "run")).toBe("gated");
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
