// Preloaded (--import) into a CLI run: starting a worker thread fails the run.
import threads from "node:worker_threads";
import { syncBuiltinESMExports } from "node:module";

threads.Worker = class {
  constructor() {
    throw new Error("a worker thread was started");
  }
};
syncBuiltinESMExports();
