#!/usr/bin/env node
import { restartForNight } from "./nightly-young-generation.js";
import { ERROR_PREFIX, exitCodeOf } from "./run-action.js";

// Before the CLI's modules load: a nightly command restarts with its own V8 flags and would load them twice.
let refused: unknown;
try {
  restartForNight(process.argv);
} catch (error) {
  refused = error;
}
if (refused === undefined) {
  const { runCli } = await import("./run-cli.js");
  await runCli(process.argv);
} else {
  process.stderr.write(`${ERROR_PREFIX}${refused instanceof Error ? refused.message : String(refused)}\n`);
  process.exitCode = exitCodeOf(refused);
}
