import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { FORMATS } from "../../../src/formats/index.js";
import { datasetCard } from "../../../src/output/dataset-card.js";
import { jsonlFormat } from "../../../src/sinks/jsonl-format.js";
import { nativeParquetFormat } from "../../../src/sinks/native-parquet-format.js";
import { ShardedWriter } from "../../../src/output/sharded-writer.js";
import type { AnyView } from "../../../src/views/view.js";
import type { ViewEnv } from "../../../src/views/view-env.js";
import { ViewTally } from "../../../src/views/view-tally.js";

/**
 * Writes a view's rows of `records` as a dataset directory with the project's own writers (Parquet for the
 * TRL views and rl-steps, JSON Lines for the OpenAI ones) and its dataset card: all the wiring will do, but
 * the CLI.
 */
export async function writeViewDataset(dir: string, view: AnyView, records: readonly unknown[], env: ViewEnv, maxRows = Number.POSITIVE_INFINITY) {
  const to = view.outputs.includes("parquet") ? "parquet" : "jsonl";
  const format = to === "parquet" ? nativeParquetFormat({ compression: "zstd" }) : jsonlFormat({ compression: "none" });
  const writer = new ShardedWriter({ dir, format, columns: view.columns, maxRows, maxBytes: Number.POSITIVE_INFINITY });
  const tally = new ViewTally();
  const rows = view.rows as (record: unknown, env: ViewEnv) => ReturnType<AnyView["rows"]>;
  for (const record of records) {
    const result = rows(record, env);
    tally.add(result);
    for (const row of result.rows) await writer.write(row);
  }
  const shards = await writer.finish();
  await writeFile(join(dir, "README.md"), datasetCard({ format: FORMATS[view.from], columns: view.columns, shards }));
  return { shards, tally: tally.counts(), to };
}
