import { parentPort, workerData } from "node:worker_threads";
import type { EncodedMessage, FailedMessage, ToWorker, WorkerConfig } from "./protocol.js";
import { UnitConverter } from "./unit-converter.js";

// The thread entry of the parallel engine: messages in, UnitConverter, messages out, one at a time.
const port = parentPort;
if (port === null) throw new Error("convert-worker.js runs only as a worker thread");
let converter: UnitConverter;
try {
  converter = new UnitConverter(workerData as WorkerConfig);
} catch (error) {
  fail(error);
}

let queue: Promise<void> = Promise.resolve();
port.on("message", (message: ToWorker) => {
  queue = queue.then(() => handle(message)).catch(fail);
});

async function handle(message: ToWorker): Promise<void> {
  if (message.type === "batch") {
    const bytes = Buffer.from(message.bytes.buffer, message.bytes.byteOffset, message.bytes.byteLength);
    port?.postMessage(await converter.batch(message.unit, message.batch, bytes));
  } else {
    const { groups, buffers } = await converter.decide(message.unit, message.keep, message.segments);
    const reply: EncodedMessage = { type: "encoded", unit: message.unit, groups, buffers };
    port?.postMessage(reply, [...groups.map((g) => g.bytes.buffer as ArrayBuffer), ...buffers]);
  }
}

function fail(error: unknown): never {
  const reply: FailedMessage = { type: "failed", message: error instanceof Error ? error.message : String(error), stack: error instanceof Error ? error.stack : undefined };
  port?.postMessage(reply);
  throw error;
}
