import { parentPort, workerData } from "node:worker_threads";
import type { EncodedMessage, FailedMessage, ToWorker, WorkerStart } from "./protocol.js";
import { JobQueue } from "./job-queue.js";
import { UnitConverter } from "./unit-converter.js";

// The thread entry of the parallel engine: messages in, UnitConverter, messages out, one at a time.
const port = parentPort;
if (port === null) throw new Error("convert-worker.js runs only as a worker thread");
const start = workerData as WorkerStart;
const slots = start.slots.map((s) => Buffer.from(s));
let converter: UnitConverter;
try {
  converter = new UnitConverter(start.config);
} catch (error) {
  fail(error);
}

const jobs = new JobQueue(handle, fail);
port.on("message", (message: ToWorker) => jobs.push(message));

async function handle(message: ToWorker): Promise<void> {
  if (message.type === "batch") {
    const bytes = message.bytes === null ? (slots[message.slot] as Buffer).subarray(0, message.length) : Buffer.from(message.bytes.buffer, message.bytes.byteOffset, message.bytes.byteLength);
    port?.postMessage(await converter.batch(message.unit, message.batch, bytes, message.bytes === null ? message.slot : -1));
  } else {
    const { groups, slots: free } = await converter.decide(message.unit, message.keep, message.segments);
    const reply: EncodedMessage = { type: "encoded", unit: message.unit, groups, slots: free };
    port?.postMessage(reply, groups.map((g) => g.bytes.buffer as ArrayBuffer));
  }
}

function fail(error: unknown): never {
  const reply: FailedMessage = { type: "failed", message: error instanceof Error ? error.message : String(error), stack: error instanceof Error ? error.stack : undefined };
  port?.postMessage(reply);
  throw error;
}
