// JSON-typed values (shapes the spec does not show) as five Python readers load a converted dataset: each must hand
// back a string, the JSON text of the input's value. Before issue 22 they disagreed (pyarrow `arrow.json`, DuckDB
// `JSON`, polars `Binary`), see docs/decisions.md. The readers are the project venv's (test/helpers/python.ts):
// when it is missing this test fails, it does not skip.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { convert } from "../../src/index.js";
import { FIXTURES } from "../helpers/flow.js";
import { PythonBatch } from "../helpers/python-batch.js";
import { tempDir } from "../helpers/temp-dir.js";

const READ = new URL("./read_json_columns.py", import.meta.url).pathname;
const READERS = ["pyarrow", "duckdb", "polars", "pandas", "datasets"] as const;
const root = tempDir("evalshard-readers-");
const cache = join(root, ".hf-cache");
// The four reads in one Python process, importing the five readers while the first dataset is written.
const python = new PythonBatch({ HF_DATASETS_CACHE: cache, HF_HOME: cache, HF_HUB_OFFLINE: "1", HF_DATASETS_OFFLINE: "1" }, ["pyarrow.parquet", "duckdb", "polars", "pandas", "datasets"]);
afterAll(() => python.close());

interface Seen {
  readonly type: string;
  /** Python type names of the values found at the path. */
  readonly values: string[];
  readonly first: string;
}

async function readAll(dir: string, path: string): Promise<Record<(typeof READERS)[number], Record<string, Seen>>> {
  return JSON.parse(await python.stdout(READ, [dir, path])) as Record<(typeof READERS)[number], Record<string, Seen>>;
}

const firstLine = (name: string) => JSON.parse(readFileSync(`${FIXTURES}records/${name}.ndjson`, "utf8").split("\n")[0] as string) as Record<string, unknown>;

const CASES = [
  // SFT trace steps: a list of json values.
  { input: "sft-valid", path: "trace_steps[]", first: (r: Record<string, unknown>) => (r.trace_steps as unknown[])[0] },
  // RL observations: json values inside a list of structs.
  { input: "rl-valid", path: "tuples[].state.observation", first: (r: Record<string, unknown>) => (r.tuples as { state: { observation: unknown } }[])[0]?.state.observation },
];

describe.each(CASES)("json values at $path, from $input", ({ input, path, first }) => {
  it("read as strings holding the input's JSON by pyarrow, DuckDB, polars, pandas and datasets", { timeout: 120_000 }, async () => {
    const out = join(root, input);
    await convert({ inputs: [`${FIXTURES}records/${input}.ndjson`], out, seats: "all" });
    const seen = await readAll(out, path);
    expect(Object.keys(seen).sort()).toEqual([...READERS].sort());
    for (const reader of READERS) {
      const at = seen[reader][path] as Seen;
      expect(at.values, `${reader} reads ${path} as`).toEqual(["str"]);
      expect(JSON.parse(at.first), `${reader}'s first value`).toEqual(first(firstLine(input)));
      // No reader-specific JSON type anywhere in the column's type: the annotation is a plain string.
      expect(at.type, `${reader}'s type`).not.toMatch(/arrow\.json|\bJSON\b|Binary|Json\(/);
    }
    expect(seen.polars[path]?.type).toMatch(/String/);
    expect(seen.datasets[path]?.type).toMatch(/Value\('string'\)/);
  });
});
