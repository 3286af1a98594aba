import { z } from "zod";
import { FORMAT_NAMES } from "../formats/format.js";
import { FILTER_RULES } from "../reasons.js";
import { UNTRUSTED_ACTIONS } from "../stages/untrusted-policy.js";

const format = z.enum(FORMAT_NAMES as ["sft", "rl", "dpo"]);
const partition = z
  .string()
  .regex(/^\d+\/\d+$/, 'expected "k/N", e.g. "0/4"')
  .refine((s) => {
    const [k, n] = s.split("/").map(Number);
    return n !== undefined && k !== undefined && n >= 1 && k < n;
  }, "k must be below N")
  .optional();

/** The service as the source: records fetched over HTTP; credentials come from the environment only. */
const httpSourceSpec = z.strictObject({
  kind: z.literal("http"),
  base_url: z.url(),
  auth: z.enum(["agent", "owner"]).default("owner"),
  format,
  concurrency: z.number().int().min(1).max(64).default(4),
  partition: partition.or(z.literal("").transform(() => undefined)),
  dpo: z
    .strictObject({
      strategy: z.enum(["best-worst", "adjacent", "all"]).default("best-worst"),
      max_pairs_per_scenario: z.number().int().min(1).default(10),
    })
    .optional(),
});

/** Export files already on disk. */
const filesSourceSpec = z.strictObject({
  kind: z.literal("files"),
  inputs: z.array(z.string().min(1)).min(1),
  format: format.optional(),
  scorecards: z.string().min(1).optional(),
});

/** A pipeline file (`pipelines/*.yaml`): where records come from, what is kept, and where the dataset goes. */
export const pipelineSpec = z.strictObject({
  version: z.literal(1),
  name: z.string().regex(/^[a-z0-9][a-z0-9_-]*$/, "lowercase letters, digits, - and _"),
  source: z.discriminatedUnion("kind", [httpSourceSpec, filesSourceSpec]),
  filters: z.partialRecord(z.enum(FILTER_RULES), z.boolean()).default({}),
  untrusted: z.record(z.string(), z.enum(UNTRUSTED_ACTIONS)).default({}),
  output: z.strictObject({
    dir: z.string().min(1),
    to: z.enum(["parquet", "jsonl"]).default("parquet"),
    compression: z.enum(["zstd", "gzip", "snappy", "none"]).default("zstd"),
    /** Fixed number of shards; a record's shard is a hash of its key, so a night rewrites only changed shards. */
    buckets: z.number().int().min(1).max(4096).default(16),
  }),
  max_quarantined: z.number().min(0).max(1).default(0.05),
  max_line_bytes: z.number().int().min(1).default(64 * 1024 * 1024),
  accept_later_minor: z.boolean().default(false),
});

export type PipelineSpec = z.output<typeof pipelineSpec>;
export type HttpSourceSpec = z.output<typeof httpSourceSpec>;
export type FilesSourceSpec = z.output<typeof filesSourceSpec>;
