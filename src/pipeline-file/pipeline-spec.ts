import { z } from "zod";
import { OPTIONS } from "../plan/options.js";
import type { OptionSpec } from "../plan/option-spec.js";
import type { Options } from "../plan/options.js";
import { yamlDefaulted, yamlKeysBeyond, yamlOptional, yamlValue } from "../plan/yaml-field.js";

// Every run option's key here is the one the option table (src/plan/options.ts) names in its `yaml`; its
// type, constraint and default come from that table. An option whose key is not written here yet gets it
// from `yamlKeysBeyond`; test/plan/stated-once.test.ts holds the two together.

/** The pipeline file of an option table (a test can add an option to the table and read the file it allows). */
export function pipelineSpecOf(o: Options) {
  const value = <T>(spec: OptionSpec<T>) => yamlValue(z, spec);

  /** The service as the source: records fetched over HTTP; credentials come from the environment only. */
  const httpSourceSpec = z.strictObject({
    kind: z.literal("http"),
    base_url: value(o.baseUrl),
    auth: yamlDefaulted(z, o.auth),
    format: value(o.format),
    concurrency: yamlDefaulted(z, o.concurrency),
    retry_budget: yamlDefaulted(z, o.retryBudget),
    hedge: yamlDefaulted(z, o.hedge),
    partition: yamlOptional(z, o.partition),
    suites: yamlDefaulted(z, o.suites),
    require_suites: yamlDefaulted(z, o.requireSuites),
    partition_by: yamlDefaulted(z, o.partitionBy),
    dpo: z
      .strictObject({
        strategy: yamlDefaulted(z, o.dpoStrategy),
        max_pairs_per_scenario: yamlDefaulted(z, o.maxPairsPerScenario),
      })
      .optional(),
  });

  /** Export files already on disk. */
  const filesSourceSpec = z.strictObject({
    kind: z.literal("files"),
    inputs: value(o.inputs) as z.ZodType<string[]>,
    format: yamlOptional(z, o.format),
    scorecards: yamlOptional(z, o.scorecards),
  });

  const output = {
    dir: value(o.out),
    to: yamlDefaulted(z, o.to),
    compression: yamlDefaulted(z, o.compression),
    /** Fixed number of shards; a record's shard is a hash of its key, so a night rewrites only changed shards. */
    buckets: yamlDefaulted(z, o.buckets),
  };
  const top = {
    version: z.literal(1),
    name: z.string().regex(/^[a-z0-9][a-z0-9_-]*$/, "lowercase letters, digits, - and _"),
    source: z.discriminatedUnion("kind", [httpSourceSpec, filesSourceSpec]),
    filters: yamlDefaulted(z, o.filters),
    gate_by: yamlDefaulted(z, o.gateBy),
    untrusted: yamlDefaulted(z, o.untrusted),
    max_quarantined: yamlDefaulted(z, o.maxQuarantined),
    max_line_bytes: yamlDefaulted(z, o.maxLineBytes),
    accept_later_minor: yamlDefaulted(z, o.acceptLaterMinor),
  };
  return {
    pipelineSpec: z.strictObject({
      ...(yamlKeysBeyond(z, o, "", [...Object.keys(top), "output"]) as object),
      ...top,
      output: z.strictObject({ ...(yamlKeysBeyond(z, o, "output", Object.keys(output)) as object), ...output }),
    }),
  };
}

/** A pipeline file (`pipelines/*.yaml`): where records come from, what is kept, and where the dataset goes. */
export const pipelineSpec = pipelineSpecOf(OPTIONS).pipelineSpec;

export type PipelineSpec = z.output<typeof pipelineSpec>;
