import { mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parquetMetadata } from "hyparquet";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FORMATS } from "../../src/formats/index.js";
import type { FormatName } from "../../src/formats/format.js";
import { columnPlan } from "../../src/parquet/column-plan.js";
import type { Field } from "../../src/schema/column-type.js";
import { datasetCard } from "../../src/output/dataset-card.js";
import { nativeParquetFormat } from "../../src/sinks/native-parquet-format.js";
import { duckdbParquetFormat } from "../helpers/duckdb-parquet-format.js";
import type { ShardFormat } from "../../src/output/shard-format.js";
import { ShardedWriter } from "../../src/output/sharded-writer.js";
import { policyStripper } from "../../src/engines/parallel/index.js";
import { outputColumns, resolveUntrustedPolicy } from "../../src/stages/untrusted-policy.js";
import { dpoRecord, rlRecord, rlTuple, sftRecord } from "../helpers/records.js";
import { PythonBatch } from "../helpers/python-batch.js";
import { tempDir } from "../helpers/temp-dir.js";
import { readPages } from "./helpers/read-pages.js";
import { compareSchemas, datasetsEnv, readDatasets, readHyparquet, readNodeDuckdb, readPython, runPython } from "./helpers/read-back.js";
import { expectedRow, rowFromEngine } from "./helpers/record-space.js";

type Row = Record<string, unknown>;
const itPython = runPython ? it : it.skip;
const root = tempDir("evalshard-native-formats-");
// Every Python read of the six cases in one process: it imports the readers while the shards are written.
const python = new PythonBatch(datasetsEnv(join(root, "hf-cache")), runPython ? ["pyarrow.parquet", "duckdb", "datasets"] : []);
afterAll(() => python.close());
const fixture = (name: string): Row[] =>
  readFileSync(new URL(`../../fixtures/records/${name}-valid.ndjson`, import.meta.url), "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as Row);

const UNICODE = "Zoë 🚀 日本語 עִבְרִית e\u0301 \u2028 tab\t quote\" backslash\\ nul\u0000";
const BLOB = (c: string) => c.repeat(600 << 10);

/** The valid fixtures, plus records with nulls, empty lists and maps, odd text and ~1 MiB values (several pages). */
const RECORDS: Record<FormatName, () => Row[]> = {
  sft: () => [
    ...fixture("sft"),
    sftRecord(),
    sftRecord({ run_id: "nulls", scores: null, coaching: null, manifest: undefined, transcript: undefined, seat: { seat_index: 0, role: "aic", agent_key_id: null } }),
    sftRecord({ run_id: "empty", trace_steps: [], scores: { per_trait: {}, win_conditions: [], outcomes: { met_count: 0, total_checks: 0, total_actions: 0 } } }),
    sftRecord({ run_id: UNICODE, scenario: { campaign_id: UNICODE, seed: Number.MAX_SAFE_INTEGER }, coaching: { weak_traits: [UNICODE, ""], guidance: UNICODE } }),
    sftRecord({ run_id: "json", trace_steps: [1, "two", { three: [3] }, true, -1.5, [], {}, "{\"looks\":\"like json\"}"], transcript: "plain text" }),
    sftRecord({ run_id: "neg", scenario: { campaign_id: "neg", seed: -(2 ** 53 - 1) } }),
    ...["a", "b", "c"].map((c) => sftRecord({ run_id: `big-${c}`, trace_steps: [{ blob: BLOB(c) }], coaching: { weak_traits: [], guidance: BLOB(c) } })),
  ],
  rl: () => [
    // First, so the three land in one row group.
    ...["a", "b", "c"].map((c) => rlRecord({ run_id: `big-${c}`, tuples: [rlTuple(0, { state: { observation: { blob: BLOB(c) }, transcript_window: [] } })] })),
    ...fixture("rl"),
    rlRecord(),
    rlRecord({ run_id: "no-tuples", tuples: [], outcome: undefined, scenario: { campaign_id: "c", seed: 2 ** 31 + 1 } }),
    rlRecord({ run_id: "outcome-empty", outcome: {}, scenario: { campaign_id: "c", seed: 0, win_conditions: [] } }),
    rlRecord({
      run_id: "odd",
      tuples: [
        rlTuple(0, { state: { observation: null, transcript_window: [] } }),
        rlTuple(1, { state: { observation: "text", transcript_window: [{ role: "dm", content: UNICODE }] } }),
        rlTuple(2, { state: { observation: [1, [2, [3]]], transcript_window: [] }, reward: { ...rlTuple(2).reward, terminal_reward: -1 } }),
      ],
    }),
  ],
  dpo: () => [
    ...fixture("dpo"),
    dpoRecord(),
    dpoRecord({ run_chosen: "a", run_rejected: "b", pairs: [], outcome: undefined, scenario: { campaign_id: "c", seed: 1 } }),
    dpoRecord({ run_chosen: UNICODE, run_rejected: "r", outcome: { dm_messages: { nested: [1, "2", null] } }, scoring_basis: { composite_delta: -0, objective_delta: 1e-300 } }),
  ],
};

interface Case {
  readonly title: string;
  readonly name: FormatName;
  readonly columns: readonly Field[];
  readonly records: Row[];
}

/** Each format with its default stripping (as convert writes it), and with every untrusted path kept. */
const CASES: Case[] = (
  await Promise.all(
    (["sft", "rl", "dpo"] as const).flatMap((name) => {
      const format = FORMATS[name];
      return [
        { policy: resolveUntrustedPolicy(format), title: `${name}, untrusted paths stripped` },
        { policy: resolveUntrustedPolicy(format, Object.fromEntries(format.untrustedPaths.map((p) => [p, "keep"]))), title: `${name}, everything kept` },
      ].map(async ({ policy, title }) => {
        const strip = await policyStripper(format, policy);
        const records = RECORDS[name]().map((r) => {
          const record = format.schema.parse(r) as Row;
          strip(record);
          return record;
        });
        return { title, name, columns: outputColumns(format, policy), records };
      });
    }),
  )
);

/** A dataset as convert writes it: two shards under data/ and the dataset card (which types JSON as strings). */
async function writeDataset(dir: string, format: ShardFormat, c: Case): Promise<string[]> {
  const writer = new ShardedWriter({ dir, format, columns: c.columns, maxRows: Math.ceil(c.records.length / 2), maxBytes: Number.POSITIVE_INFINITY });
  try {
    for (const r of c.records) await writer.write(r);
    const shards = await writer.finish();
    writeFileSync(join(dir, "README.md"), datasetCard({ format: FORMATS[c.name], columns: c.columns, shards }));
  } finally {
    await format.dispose();
  }
  return readdirSync(join(dir, "data"))
    .sort()
    .map((f) => join(dir, "data", f));
}

describe.each(CASES)("$title", (c) => {
  const dir = join(root, c.title.replaceAll(/\W+/g, "-"));
  const duckdbDir = `${dir}-duckdb`;
  let files: string[] = [];
  let duckdbFiles: string[] = [];
  const expected = () => c.records.map((r) => expectedRow(c.columns, r));
  const check = (rows: readonly Row[]) => {
    expect(rows.map((r) => rowFromEngine(c.columns, r))).toEqual(expected());
  };

  beforeAll(async () => {
    mkdirSync(dir, { recursive: true });
    mkdirSync(duckdbDir, { recursive: true });
    files = await writeDataset(dir, nativeParquetFormat({ compression: "zstd", rowGroupRows: c.name === "dpo" ? 2 : 3 }), c);
    duckdbFiles = await writeDataset(duckdbDir, duckdbParquetFormat({ compression: "zstd" }), c);
  });

  it("writes two shards of several row groups, a chunk of over 1 MiB in several pages", () => {
    expect(files).toHaveLength(2);
    const leaves = columnPlan(c.columns).leaves;
    let groups = 0;
    let chunks = 0;
    let pages = 0;
    for (const file of files) {
      const bytes = readFileSync(file);
      const metadata = parquetMetadata(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));
      groups += metadata.row_groups.length;
      for (const group of metadata.row_groups) {
        group.columns.forEach((chunk, i) => {
          const meta = chunk.meta_data!;
          const at = { offset: Number(meta.data_page_offset), compressedSize: Number(meta.total_compressed_size), codec: "zstd" as const };
          pages += readPages(bytes, at, leaves[i]!.maxDef, leaves[i]!.maxRep).length;
          chunks++;
        });
      }
    }
    expect(groups).toBeGreaterThan(files.length);
    if (c.name !== "dpo") expect(pages).toBeGreaterThan(chunks);
  });

  it("reads back with hyparquet", async () => {
    check((await Promise.all(files.map(readHyparquet))).flat());
  });

  it("reads back with @duckdb/node-api", async () => {
    check((await readNodeDuckdb(files)).flat());
  });

  itPython("reads back with pyarrow and python duckdb", async () => {
    for (const engine of ["pyarrow", "duckdb"] as const) {
      const read = await readPython(engine, files, python);
      check(files.flatMap((f) => read[f]?.rows ?? []));
    }
  });

  itPython("has exactly the Arrow schema, and the rows, pyarrow reads from DuckDB's shards of the same records", async () => {
    const schemas = await compareSchemas(files.map((f, i) => [f, duckdbFiles[i] as string] as const), python);
    for (const s of schemas) expect(s.a).toBe(s.b);
    for (const s of schemas) expect(s.equal).toBe(true);
    const ours = await readPython("pyarrow", files, python);
    const theirs = await readPython("pyarrow", duckdbFiles, python);
    // DuckDB's shards lose -0 (staged as JSON text, where it is "0"); ours keep it.
    const noNegativeZero = (rows: unknown) => JSON.parse(JSON.stringify(rows)) as unknown;
    expect(noNegativeZero(files.flatMap((f) => ours[f]?.rows))).toEqual(noNegativeZero(duckdbFiles.flatMap((f) => theirs[f]?.rows)));
  });

  itPython("loads with datasets.load_dataset(dir)", async () => {
    const { rows, types } = await readDatasets(dir, join(root, "hf-cache"), python);
    check(rows);
    if (c.name === "sft") {
      expect(types.trace_steps).toBe("List(Value('string'))");
      expect(types.scores).toContain("'per_trait': List({'key': Value('string'), 'value': {");
    }
  });
});
