import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { hfFeatures } from "../../src/schema/hf-features.js";
import { trlPreference } from "../../src/views/trl-preference.js";
import { RlContext } from "../../src/views/rl-context.js";
import { viewEnv } from "../../src/views/view-env.js";
import { VIEW_NAMES } from "../../src/views/view.js";
import { VIEWS, viewNamed } from "../../src/views/views.js";
import { readParquetRows } from "../helpers/read-parquet.js";
import { tempDir } from "../helpers/temp-dir.js";
import { RULES_PAIRS, RULES_TRAJECTORY } from "./helpers/view-fixtures.js";
import { demoPairs, demoTrajectory } from "./helpers/view-records.js";
import { writeViewDataset } from "./helpers/write-view-dataset.js";

const MESSAGES_SQL = 'STRUCT("role" VARCHAR, "content" VARCHAR)[]';
const root = tempDir("evalshard-view-columns-");
const context = new RlContext();
context.add(RULES_TRAJECTORY);
const rowsOf = (name: (typeof VIEW_NAMES)[number]) => {
  const view = VIEWS[name];
  const rows = view.rows as (record: unknown, env: ReturnType<typeof viewEnv>) => { rows: readonly Record<string, unknown>[] };
  return rows(view.from === "rl" ? RULES_TRAJECTORY : RULES_PAIRS, viewEnv({}, context)).rows;
};

describe("every view's rows have exactly its columns, in order", () => {
  it.each(VIEW_NAMES)("%s", (name) => {
    const rows = rowsOf(name);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(Object.keys(row)).toEqual(VIEWS[name].columns.map((c) => c.name));
  });

  it("looks views up by name, naming the views on a typo", () => {
    expect(viewNamed("rl-steps")).toBe(VIEWS["rl-steps"]);
    expect(() => viewNamed("trl-sft")).toThrow(/expected one of trl-prompt-completion/);
  });
});

describe("messages are typed lists of structs in Parquet, and plain arrays in JSON Lines", () => {
  it("the Parquet encoder writes list<struct<role, content>> that DuckDB reads back as written", async () => {
    const dir = join(root, "trl-preference");
    const records = [demoTrajectory("run-a", 6, true), demoTrajectory("run-b", 6, false)];
    const ctx = new RlContext();
    for (const r of records) ctx.add(r);
    const env = viewEnv({}, ctx);
    const { shards } = await writeViewDataset(dir, VIEWS["trl-preference"], [demoPairs(records[0]!, records[1]!)], env);
    const { columns, rows } = await readParquetRows(shards.map((s) => join(dir, s.path)));
    expect(columns.slice(0, 3)).toEqual([
      { name: "prompt", type: MESSAGES_SQL },
      { name: "chosen", type: MESSAGES_SQL },
      { name: "rejected", type: MESSAGES_SQL },
    ]);
    const expected = trlPreference.rows(demoPairs(records[0]!, records[1]!), viewEnv({}, ctx)).rows;
    expect(rows.map((r) => ({ ...r, seat_index: Number(r.seat_index), step_index: Number(r.step_index) }))).toEqual(expected);
  });

  it("the card's features say list of {role, content}, as `datasets` wants for TRL", () => {
    expect(hfFeatures(VIEWS["trl-prompt-completion"].columns)[0]).toEqual({ name: "prompt", list: [{ name: "role", dtype: "string" }, { name: "content", dtype: "string" }] });
  });

  it("the JSON Lines writer writes an OpenAI line with only its keys", async () => {
    const dir = join(root, "openai-dpo");
    const { shards } = await writeViewDataset(dir, VIEWS["openai-dpo"], [RULES_PAIRS], viewEnv({}, context));
    const lines = (await readFile(join(dir, shards[0]!.path), "utf8")).trimEnd().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(Object.keys(line)).toEqual(["input", "preferred_output", "non_preferred_output"]);
  });
});
