#!/usr/bin/env node
import { availableParallelism } from "node:os";
import { prestartWorkers } from "../parallel/prestart-workers.js";

// `convert` starts its worker threads before the CLI's own code loads (~40 ms): the workers load theirs
// meanwhile. A guess from the raw arguments, checked properly later by `convert` itself: workers it does
// not take are unreferenced and never keep the process alive.
if (process.argv[2] === "convert" && !process.argv.some((a) => a === "--engine=stages" || a === "stages" || a.startsWith("--workers") || a === "-h" || a === "--help")) {
  prestartWorkers(Math.max(1, availableParallelism()));
}
const { runCli } = await import("./run-cli.js");
await runCli(process.argv);
