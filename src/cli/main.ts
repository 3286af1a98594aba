#!/usr/bin/env node
import { availableParallelism } from "node:os";
import { prestartWorkers } from "../engines/parallel/index.js";

// `convert` starts the parallel engine's worker threads before the CLI's own code loads: they load theirs
// meanwhile. Whether they run is for the engine choice to say, once the inputs are open; workers no run
// takes are unreferenced and never keep the process alive.
const HELP = ["-h", "--help"];
if (process.argv[2] === "convert" && !process.argv.some((a) => HELP.includes(a))) prestartWorkers(Math.max(1, availableParallelism()));
const { runCli } = await import("./run-cli.js");
await runCli(process.argv);
