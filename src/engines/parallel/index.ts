// The parallel engine's one entry: nothing outside src/engines/parallel/ imports a deeper path
// (test/architecture/import-graph.test.ts holds it), so its fast parser, wasm walk and batching can change freely.
export { runEngine } from "./run-engine.js";
// Started by the CLI before the run is set up: loading a worker's code then overlaps main loading its own.
export { prestartWorkers } from "./run/prestart-workers.js";
// The untrusted-text strip of a record, from the policy's marks on the compiled schema (the units' rule).
export { policyStripper } from "./fast/policy-stripper.js";
export type { RecordStripper } from "./fast/record-stripper.js";
// The library's stream (src/library/stream-pipeline.ts): a plan run on main's thread, a unit at a time.
export { streamUnits } from "./stream-units.js";
export { detectInputFormat } from "./detect-input-format.js";
