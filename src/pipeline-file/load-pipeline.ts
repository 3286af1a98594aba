import { readFile } from "node:fs/promises";
import { parse } from "yaml";
import { ConfigError } from "../core/errors.js";
import { ioStep } from "../core/io-step.js";
import { describeIssues } from "../stages/describe-issues.js";
import { interpolate } from "./interpolate.js";
import { pipelineSpec } from "./pipeline-spec.js";
import { planOfSpec } from "./plan-of-spec.js";
import { withViewDefaults } from "../plan/view-plan-of.js";
import type { PipelineSpec } from "./pipeline-spec.js";
import { isRecord } from "../core/is-record.js";

/**
 * Reads, interpolates (`${ENV}`) and validates a pipeline file; every fault names the file and the path.
 * `overrides` (keys as the file has them, e.g. `run --min-records`'s `min_records`) replace the file's values.
 */
export async function loadPipeline(path: string, env: Readonly<Record<string, string | undefined>> = process.env, overrides: Readonly<Record<string, unknown>> = {}): Promise<PipelineSpec> {
  const text = await ioStep(path, "read pipeline file", () => readFile(path, "utf8"));
  return parsePipeline(text, path, env, overrides);
}

/** An OpenAI view's output is plain `.jsonl` unless `output.to` or `output.compression` says otherwise, as with flags. */
function withOutputViewDefaults(doc: unknown): unknown {
  if (!isRecord(doc) || !isRecord(doc.output)) return doc;
  return { ...doc, output: withViewDefaults(doc.output) };
}

export function parsePipeline(text: string, path: string, env: Readonly<Record<string, string | undefined>> = process.env, overrides: Readonly<Record<string, unknown>> = {}): PipelineSpec {
  let raw: unknown;
  try {
    raw = parse(text);
  } catch (error) {
    throw new ConfigError(`Pipeline file ${JSON.stringify(path)} is not valid YAML: ${(error as Error).message}`);
  }
  // Every fault past the YAML (an unset variable, a bad value, options that do not fit together) names the file.
  try {
    const parsed = pipelineSpec.safeParse(withOutputViewDefaults(withOverrides(interpolate(raw, env), overrides)));
    if (!parsed.success) throw new ConfigError(describeIssues(parsed.error.issues, 10));
    planOfSpec(parsed.data); // the rules between options, as for a library call
    return parsed.data;
  } catch (error) {
    throw new ConfigError(`Pipeline file ${JSON.stringify(path)}: ${(error as Error).message}`);
  }
}

/** `doc` with `overrides` merged in, object by object; a value that is not an object replaces the file's. */
function withOverrides(doc: unknown, overrides: Readonly<Record<string, unknown>>): unknown {
  if (!isRecord(doc)) return doc;
  const out: Record<string, unknown> = { ...doc };
  for (const [key, value] of Object.entries(overrides)) {
    out[key] = isRecord(value) ? withOverrides(out[key] ?? {}, value) : value;
  }
  return out;
}
