import { describe, expect, it } from "vitest";
import type { Flow } from "../../src/core/flow.js";
import { filter } from "../../src/stages/filter.js";
import type { FilterOptions } from "../../src/stages/filter.js";
import { validate } from "../../src/stages/validate.js";
import type { ValidRecord } from "../../src/formats/valid-record.js";
import { readGatedRuns, readScorecardFile } from "../../src/stages/read-scorecards.js";
import { GateBook } from "../../src/formats/gate-book.js";
import { collect, FIXTURES, fixtureLines, from, outcomes } from "../helpers/flow.js";

const run = async (options: FilterOptions, name = "records/sft-filters.ndjson") =>
  outcomes((await collect(filter(options)(validate()(from(fixtureLines(name)))))) as Flow<ValidRecord>[]);

describe("filter", () => {
  it("drops flagged, unscored and trace-less records by default", async () => {
    expect(await run({})).toEqual([
      "kept:run-060",
      "dropped:flagged",
      "dropped:unscored",
      "dropped:no_trace",
      "dropped:no_trace",
      "kept:run-065",
    ]);
  });

  it("drops participation-gated seats named by the scorecards", async () => {
    const gatedRuns = await readGatedRuns(`${FIXTURES}records/scorecards-gated.ndjson`);
    expect([...gatedRuns]).toEqual(["run-065"]);
    const { gates } = await readScorecardFile(`${FIXTURES}records/scorecards-gated.ndjson`);
    expect((await run({ gates })).at(-1)).toBe("dropped:participation_gated");
  });

  it("drops a seat whose card's stamp cannot be read as unreadable_gating", async () => {
    const gates = new GateBook([["run-065", "key-1", null, "unreadable"]]);
    expect((await run({ gates })).at(-1)).toBe("dropped:unreadable_gating");
  });

  it("lets each rule be switched off", async () => {
    const gates = new GateBook([["run-065", "key-1", null, "gated"]]);
    expect(await run({ gates, rules: { flagged: false, unscored: false, no_trace: false, participation_gated: false } })).toEqual(
      ["060", "061", "062", "063", "064", "065"].map((n) => `kept:run-${n}`),
    );
    expect((await run({ rules: { flagged: false } }))[1]).toBe("kept:run-061");
    expect((await run({ rules: { no_trace: false } }))[3]).toBe("kept:run-063");
  });

  it("gates a DPO pair when either run is gated", async () => {
    expect(await run({ gates: new GateBook([["run-201", "key-1", null, "gated"]]) }, "records/dpo-valid.ndjson")).toEqual(["dropped:participation_gated", "kept:run-202"]);
  });
});
