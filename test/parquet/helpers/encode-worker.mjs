// A worker thread that shreds and encodes one row group with the built modules (workerData.lib, a folder
// linked to dist/) and transfers the bytes back, as the parallel engine's workers do.
import { parentPort, workerData } from "node:worker_threads";

const { lib, columns, records, codec } = workerData;
const load = (path) => import(new URL(path, `file://${lib}/`).href);
const { columnPlan } = await load("parquet/column-plan.js");
const { RowGroupBuilder } = await load("parquet/row-group-builder.js");
const { shredRecord } = await load("parquet/shred-record.js");
const { encodeRowGroup } = await load("parquet/encode-row-group.js");

const plan = columnPlan(columns);
const builder = new RowGroupBuilder(plan);
for (const record of records) {
  builder.beginRow();
  shredRecord(plan, record, builder.leaves);
}
const encoded = encodeRowGroup(builder, { codec });
parentPort.postMessage(encoded, [encoded.bytes.buffer]);
