import { parentPort } from "node:worker_threads";
import { UnitHost } from "./unit-host.js";
import type { ToUnits } from "./unit-host.js";

// The thread entry of the engine's worker threads: the units' side (UnitHost) on this thread's port.
const port = parentPort;
if (port === null) throw new Error("convert-worker.js runs only as a worker thread");
const host = new UnitHost((message) => port.postMessage(message));
port.on("message", (message: ToUnits) => host.receive(message));
