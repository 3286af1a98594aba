import type { ConvertOptions } from "../../src/plan/options.js";
import { FIXTURES } from "./flow.js";

const records = (name: string) => `${FIXTURES}records/${name}.ndjson`;

/**
 * Later minors accepted, untrusted text kept or redacted, a filter off, one row per shard, gzip: a convert both
 * executors must publish alike (test/engines/executors-agree.test.ts) and whose shards are recorded
 * (test/golden/parallel-shards.test.ts).
 */
export const gzipOneRowShards = (): Omit<ConvertOptions, "out"> => ({
  inputs: [records("sft-valid"), records("sft-later-minor"), records("sft-filters")],
  acceptLaterMinor: true,
  untrusted: { "coaching.guidance": "redact", transcript: "keep" },
  filters: { flagged: false },
  shardRows: 1,
  compression: "gzip",
});
