import { parentPort } from "node:worker_threads";
import type { EncodedMessage, FailedMessage, ToWorker, WorkerStart } from "./protocol.js";
import { JobQueue } from "./job-queue.js";
import { UnitConverter } from "./unit-converter.js";
import { UnitRanker } from "./unit-ranker.js";
import { writeOutcomeColumns } from "./outcome-columns.js";

// The thread entry of the parallel engine: a start message, then batches and decisions, one at a time.
// The thread may be started before its run is known (see prestartWorkers), so its set-up comes by message.
const port = parentPort;
if (port === null) throw new Error("convert-worker.js runs only as a worker thread");
let converter: UnitConverter;
/** `--top-k-per-scenario`'s first read: started without the top keys, the thread ranks until started again with them. */
let ranker: UnitRanker | null = null;
let slots: Buffer[] = [];
let outSlots: Uint8Array[] = [];
let outcomeSlots: Uint8Array[] = [];
const jobs = new JobQueue(handle, fail);

port.on("message", (message: ToWorker | { readonly type: "start"; readonly start: WorkerStart }) => {
  if (message.type !== "start") {
    jobs.push(message);
    return;
  }
  try {
    slots = message.start.slots.map((s) => Buffer.from(s));
    outSlots = message.start.outSlots.map((s) => new Uint8Array(s));
    outcomeSlots = message.start.outcomeSlots.map((s) => new Uint8Array(s));
    const { config } = message.start;
    if (config.selection.topKPerScenario !== null && config.topKeys === null) ranker = new UnitRanker(config);
    else {
      // After a ranking read, its batch copy serves the conversion: a second one would only add to the peak.
      converter = new UnitConverter(config, ranker?.copy);
      ranker = null;
    }
  } catch (error) {
    fail(error);
  }
});

async function handle(message: ToWorker): Promise<void> {
  if (message.type === "rank") {
    if (ranker === null) throw new Error("Internal error: a rank batch for a thread started to convert");
    const bytes = message.bytes === null ? (slots[message.slot] as Buffer).subarray(0, message.length) : Buffer.from(message.bytes.buffer, message.bytes.byteOffset, message.bytes.byteLength);
    port?.postMessage(await ranker.rank(message.batch, bytes));
  } else if (message.type === "batch") {
    const bytes = message.bytes === null ? (slots[message.slot] as Buffer).subarray(0, message.length) : Buffer.from(message.bytes.buffer, message.bytes.byteOffset, message.bytes.byteLength);
    const outcomes = await converter.batch(message.unit, message.batch, converter.local(bytes));
    const slot = outcomeSlots[message.outcomes];
    const layout = slot === undefined || outcomes.columns === null ? null : writeOutcomeColumns(outcomes.columns, slot);
    port?.postMessage(layout === null ? outcomes : { ...outcomes, columns: null, layout });
  } else {
    const { groups, bytes, view, audit } = converter.decide(message.unit, message.keep, message.segments, outSlots[message.out] ?? null, message.records, message.segmentSplits);
    const reply: EncodedMessage = { type: "encoded", unit: message.unit, groups, bytes, view, audit };
    // Copied, not transferred: see protocol.ts.
    port?.postMessage(reply);
  }
}

function fail(error: unknown): never {
  const reply: FailedMessage = { type: "failed", message: error instanceof Error ? error.message : String(error), stack: error instanceof Error ? error.stack : undefined };
  port?.postMessage(reply);
  throw error;
}
