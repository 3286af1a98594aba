#!/usr/bin/env node
// The bare DuckDB baseline for bench/convert-vs-duckdb.mjs: one COPY from the NDJSON export to one zstd
// Parquet file, with explicit column types, 2 threads, flagged records dropped and untrusted text removed
// (SFT: coaching.guidance; RL: tuples[].state.transcript_window[].content). No per-record validation,
// no dedup, no quarantine, no other filters: a record of the wrong type aborts the whole COPY.
//
//   node bench/duckdb-convert.mjs --format sft --in bench/data/sft-200.ndjson --out bench/out/sft-200-duckdb.parquet
//
// convert-vs-duckdb.mjs hands the column types over with --columns, so that the timed process does nothing a
// bare COPY would not: loading evalshard's formats to derive them costs ~0.1-0.15 s of start-up (more under
// load), which would be charged to DuckDB's side. Run alone, the script derives them from --dist.
//
// Prints one JSON line to stdout: rows written (SELECT count(*) of the output), COPY seconds, where the types came from.
import { DuckDBInstance } from "@duckdb/node-api";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";

const { values: args } = parseArgs({
  options: {
    format: { type: "string" },
    in: { type: "string" },
    out: { type: "string" },
    dist: { type: "string", default: "dist" }, // where the built evalshard modules are
    columns: { type: "string" }, // the read_ndjson columns, as columnTypes() would derive them
    "row-group-rows": { type: "string", default: "2048" }, // DuckDB's default 122,880 grows memory
  },
});
if (!["sft", "rl"].includes(args.format) || !args.in || !args.out) {
  console.error("usage: duckdb-convert.mjs --format sft|rl --in FILE --out FILE.parquet [--dist DIR]");
  process.exit(2);
}

// Used only when the built modules cannot be loaded; copied from duckdbColumns(FORMATS[fmt].columns).
const HAND_WRITTEN = {
  sft: `{'format_version': 'VARCHAR', 'run_id': 'VARCHAR', 'scenario': 'STRUCT("campaign_id" VARCHAR, "seed" BIGINT)', 'seat': 'STRUCT("seat_index" BIGINT, "role" VARCHAR, "agent_key_id" VARCHAR)', 'scored': 'BOOLEAN', 'flagged': 'BOOLEAN', 'scorecard_version': 'BIGINT', 'reconstruction': 'VARCHAR', 'scores': 'STRUCT("per_trait" MAP(VARCHAR, STRUCT("mean" DOUBLE, "variance" DOUBLE, "evidence" VARCHAR[])), "win_conditions" STRUCT("id" VARCHAR, "description" VARCHAR, "met" BOOLEAN)[], "outcomes" STRUCT("met_count" BIGINT, "total_checks" BIGINT, "total_actions" BIGINT))', 'coaching': 'STRUCT("weak_traits" VARCHAR[], "guidance" VARCHAR)', 'trace_steps': 'JSON[]', 'manifest': 'STRUCT("judge" STRUCT("prompt_hash" VARCHAR, "model" VARCHAR), "scenario_version_hash" VARCHAR)', 'transcript': 'JSON'}`,
  rl: `{'rl_format_version': 'VARCHAR', 'run_id': 'VARCHAR', 'scenario': 'STRUCT("campaign_id" VARCHAR, "seed" BIGINT, "win_conditions" STRUCT("id" VARCHAR, "description" VARCHAR)[])', 'seat': 'STRUCT("seat_index" BIGINT, "role" VARCHAR, "agent_key_id" VARCHAR)', 'scored': 'BOOLEAN', 'flagged': 'BOOLEAN', 'scorecard_version': 'BIGINT', 'reconstruction': 'VARCHAR', 'tuples': 'STRUCT("index" BIGINT, "kind" VARCHAR, "state" STRUCT("observation" JSON, "transcript_window" STRUCT("role" VARCHAR, "content" VARCHAR)[]), "action" STRUCT("action_type" VARCHAR, "content" VARCHAR), "reward" STRUCT("checks_passed" BIGINT, "checks_failed" BIGINT, "conditions_met" VARCHAR[], "scalar_reward" DOUBLE, "progress_delta" DOUBLE, "terminal_reward" DOUBLE))[]', 'outcome': 'STRUCT("dm_messages" JSON)'}`,
};

/** The read_ndjson columns of a format, from the build's schema (or the copy above when it cannot load). */
async function columnTypes(format) {
  try {
    const dist = pathToFileURL(`${resolve(args.dist)}/`);
    const { FORMATS } = await import(new URL("formats/index.js", dist));
    const { duckdbColumns } = await import(new URL("schema/duckdb-type.js", dist));
    return { columns: duckdbColumns(FORMATS[format].columns), typesFrom: "dist/schema/duckdb-type.js" };
  } catch (error) {
    console.error(`duckdb-convert: using hand-written column types (${error.message.split("\n")[0]})`);
    return { columns: HAND_WRITTEN[format], typesFrom: "hand-written" };
  }
}

const sql = (s) => `'${s.replaceAll("'", "''")}'`;
// What each format strips; both keep everything else, including the flagged column.
const STRIP = {
  sft: `CASE WHEN coaching IS NULL THEN NULL ELSE struct_pack(weak_traits := coaching.weak_traits) END AS coaching`,
  rl:
    `list_transform(tuples, lambda t: struct_update(t, state := struct_pack(observation := t.state.observation, ` +
    `transcript_window := list_transform(t.state.transcript_window, lambda m: struct_pack(role := m.role))))) AS tuples`,
};

const { columns, typesFrom } = args.columns !== undefined ? { columns: args.columns, typesFrom: "--columns (the harness derives them from dist/schema/duckdb-type.js)" } : await columnTypes(args.format);
const instance = await DuckDBInstance.create(":memory:");
const db = await instance.connect();
await db.run("SET threads=2");
const started = process.hrtime.bigint();
await db.run(
  `COPY (SELECT * REPLACE (${STRIP[args.format]}) FROM read_ndjson(${sql(args.in)}, columns=${columns}, format='newline_delimited') WHERE NOT flagged) ` +
    `TO ${sql(args.out)} (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE ${Number(args["row-group-rows"])})`,
);
const copySeconds = Number(process.hrtime.bigint() - started) / 1e9;
const rows = Number((await db.runAndReadAll(`SELECT count(*) FROM read_parquet(${sql(args.out)})`)).getRows()[0][0]);
db.closeSync();
console.log(JSON.stringify({ rows, copy_s: Math.round(copySeconds * 1000) / 1000, types_from: typesFrom }));
