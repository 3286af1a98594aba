import { parentPort, workerData } from "node:worker_threads";
import type { EncodedMessage, FailedMessage, ToWorker, WorkerConfig } from "./protocol.js";
import { UnitConverter } from "./unit-converter.js";

// The thread entry of the parallel engine: messages in, UnitConverter, messages out.
const port = parentPort;
if (port === null) throw new Error("convert-worker.js runs only as a worker thread");
let converter: UnitConverter;
try {
  converter = new UnitConverter(workerData as WorkerConfig);
} catch (error) {
  fail(error);
}

port.on("message", (message: ToWorker) => {
  try {
    if (message.type === "batch") {
      const bytes = Buffer.from(message.bytes.buffer, message.bytes.byteOffset, message.bytes.byteLength);
      port.postMessage(converter.batch(message.unit, message.batch, bytes));
    } else {
      const groups = converter.decide(message.unit, message.keep, message.segments);
      const reply: EncodedMessage = { type: "encoded", unit: message.unit, groups };
      port.postMessage(reply, groups.map((g) => g.bytes.buffer as ArrayBuffer));
    }
  } catch (error) {
    fail(error);
  }
});

function fail(error: unknown): never {
  const reply: FailedMessage = { type: "failed", message: error instanceof Error ? error.message : String(error), stack: error instanceof Error ? error.stack : undefined };
  port?.postMessage(reply);
  throw error;
}
