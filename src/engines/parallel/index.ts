// The parallel engine's one entry: nothing outside src/engines/parallel/ imports a deeper path
// (test/architecture/import-graph.test.ts holds it), so its fast parser, wasm walk and batching can change freely.
export { parallelEngine } from "./parallel-engine.js";
