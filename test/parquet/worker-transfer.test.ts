import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { columnPlan } from "../../src/parquet/column-plan.js";
import type { EncodedRowGroup } from "../../src/parquet/encode-row-group.js";
import { PARQUET_MAGIC } from "../../src/parquet/parquet-footer.js";
import { parquetFooter } from "./helpers/parquet-footer.js";
import { linkBuiltModules } from "../helpers/built-modules.js";
import { tempDir } from "../helpers/temp-dir.js";
import { EVERY_KIND } from "./helpers/column-arbitraries.js";
import { readHyparquet } from "./helpers/read-back.js";
import { expectedRow, rowFromEngine } from "./helpers/record-space.js";

const WORKER = fileURLToPath(new URL("./helpers/encode-worker.mjs", import.meta.url));
const root = tempDir("evalshard-native-worker-");

function encodeInWorker(lib: string, records: readonly Record<string, unknown>[]): Promise<EncodedRowGroup> {
  const worker = new Worker(WORKER, { workerData: { lib, columns: EVERY_KIND, records, codec: "zstd" } });
  return new Promise<EncodedRowGroup>((resolve, reject) => {
    worker.once("message", resolve);
    worker.once("error", reject);
  }).finally(() => worker.terminate());
}

describe("row groups encoded in worker threads", () => {
  it("arrive whole in the main thread, which appends them and writes the footer", async () => {
    const lib = linkBuiltModules(join(root, "lib"));
    const batches = [
      [{ s: "a", i: 1, m: { k: ["v", null] } }, { rows: [{ x: { n: -5, j: [1] } }] }],
      [{ st: { a: "🚀", flags: [true], inner: null } }, {}, { js: [{ deep: [null] }, "t"] }],
    ];
    const groups = await Promise.all(batches.map((b) => encodeInWorker(lib, b)));
    const parts: Uint8Array[] = [PARQUET_MAGIC];
    let offset = PARQUET_MAGIC.length;
    const placed = groups.map(({ bytes, ...encoded }) => {
      expect(bytes.buffer.byteLength).toBe(bytes.length);
      parts.push(bytes);
      offset += bytes.length;
      return { encoded, offset: offset - bytes.length };
    });
    parts.push(parquetFooter(columnPlan(EVERY_KIND), placed, { createdBy: "test" }));
    const file = join(root, "from-workers.parquet");
    writeFileSync(file, Buffer.concat(parts));
    const rows = (await readHyparquet(file)).map((r) => rowFromEngine(EVERY_KIND, r));
    expect(rows).toEqual(batches.flat().map((r) => expectedRow(EVERY_KIND, r)));
  });
});
