#!/usr/bin/env node
import { availableParallelism } from "node:os";
import { prestartWorkers } from "../engines/parallel/run/prestart-workers.js";

// `convert` starts its worker threads before the CLI's own code loads (~40 ms): the workers load theirs
// meanwhile. A guess from the raw arguments (any word that may ask for the stages engine, another worker
// count or help rules it out), checked properly later by `convert` itself: workers it does not take are
// unreferenced and never keep the process alive.
const NOT_PARALLEL = /^(?:stages|jsonl|snappy|-h|--help|--(?:engine|to|compression)=(?:stages|jsonl|snappy)|--workers.*)$/;
if (process.argv[2] === "convert" && !process.argv.some((a) => NOT_PARALLEL.test(a))) prestartWorkers(Math.max(1, availableParallelism()));
const { runCli } = await import("./run-cli.js");
await runCli(process.argv);
