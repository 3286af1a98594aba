import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { convert } from "../../src/jobs/convert.js";
import { FIXTURES } from "../helpers/flow.js";
import { PYTHON, RUN_AND_EXIT } from "../helpers/python.js";
import { tempDir } from "../helpers/temp-dir.js";

// End to end: what `convert` publishes loads as is in the readers ML engineers use.
const READ_BACK = fileURLToPath(new URL("../helpers/read_back.py", import.meta.url));
const root = tempDir("evalshard-convert-interop-");
const env = { ...process.env, HF_HOME: join(root, "hf"), HF_DATASETS_CACHE: join(root, "hf"), HF_HUB_OFFLINE: "1", HF_DATASETS_OFFLINE: "1" };
const readBack = (engine: string, dir: string) =>
  JSON.parse(execFileSync(PYTHON, [RUN_AND_EXIT, READ_BACK, engine, dir], { env, maxBuffer: 1 << 28, encoding: "utf8" })) as { rows: Record<string, any>[]; types: Record<string, string> };

/** The fixture records as the dataset should hold them: flagged and trace-less dropped, untrusted text gone. */
function expectedSft(): Record<string, any>[] {
  return readFileSync(`${FIXTURES}records/sft-filters.ndjson`, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l))
    .filter((r) => !r.flagged && r.scored && r.reconstruction === "per_seat_trace")
    .map((r) => ({ ...r, coaching: r.coaching && { weak_traits: r.coaching.weak_traits }, scores: { ...r.scores, win_conditions: r.scores.win_conditions.map(({ id, met }: any) => ({ id, met })) } }));
}

describe("convert output read back by pyarrow, DuckDB and Hugging Face datasets", () => {
  const out = join(root, "sft");
  const ready = convert({ inputs: [`${FIXTURES}records/sft-filters.ndjson`], out, shardRows: 1 });

  for (const engine of ["pyarrow", "duckdb", "datasets"]) {
    it(`${engine} reads every row, typed, with nothing untrusted`, async () => {
      const { manifest } = await ready;
      expect(manifest.shards).toHaveLength(2);
      const { rows } = readBack(engine, out);
      const want = expectedSft();
      expect(rows.map((r) => r.run_id)).toEqual(want.map((r) => r.run_id));
      rows.forEach((row, i) => {
        const w = want[i]!;
        expect(row.seat).toEqual(w.seat);
        expect(row.scores.outcomes).toEqual(w.scores.outcomes);
        expect(row.scores.win_conditions).toEqual(w.scores.win_conditions);
        expect(row.coaching).toEqual(w.coaching);
        // Maps as {key, value} entries; trace steps as JSON text.
        expect(Object.fromEntries(row.scores.per_trait.map((e: any) => [e.key, e.value]))).toEqual(w.scores.per_trait);
        expect(row.trace_steps.map((s: string) => JSON.parse(s))).toEqual(w.trace_steps);
      });
      expect(JSON.stringify(rows)).not.toContain("Ignore all previous");
    });
  }
});
