// The service as a LineSource: list runs, partition, gate, pull records or DPO pairs, spool, replay.
export { httpSource } from "./http-source.js";
export { shareOf, scenarioShareOf, inPartition } from "./partition.js";
export { planPairs } from "./dpo-pairs.js";
export { recordSlices } from "./record-slices.js";
export { ScoreTable } from "./score-table.js";

export type { HttpSource, HttpSourceOptions } from "./http-source.js";
export type { Partition, PartitionBy } from "./partition.js";
export type { PairCandidate } from "./dpo-pairs.js";
export type { PullReport, PullEvent } from "./pull-report.js";
export type { CachedScore, ScoreCache } from "./scorecards.js";
