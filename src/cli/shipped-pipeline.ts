import { existsSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { ConfigError } from "../core/errors.js";

/** The pipelines the package ships, beside dist/ (also in an installed package: node_modules/evalshard/pipelines/). */
export const SHIPPED_PIPELINES = fileURLToPath(new URL("../../pipelines/", import.meta.url));

/** The names of the shipped pipelines, e.g. `nightly-sft`. */
export function shippedPipelineNames(): string[] {
  return readdirSync(SHIPPED_PIPELINES)
    .filter((file) => file.endsWith(".yaml"))
    .map((file) => file.slice(0, -".yaml".length))
    .sort();
}

/**
 * The pipeline file `run` reads for its argument: a file that exists is always the one meant; a bare name
 * (no folder, no extension) names a shipped pipeline, so an installed package runs `evalshard run nightly-sft`
 * without copying anything; an unknown bare name is a usage error listing the shipped ones. Any other path is
 * returned as given, for the pipeline loader to read or fail on.
 */
export function pipelineFileOf(argument: string): string {
  if (existsSync(argument)) return argument;
  if (/^[A-Za-z0-9_-]+$/.test(argument)) {
    const names = shippedPipelineNames();
    if (names.includes(argument)) return join(SHIPPED_PIPELINES, `${argument}.yaml`);
    throw new ConfigError(`No pipeline file ${JSON.stringify(argument)}, and no shipped pipeline of that name: expected a file or one of ${names.join(", ")}`);
  }
  return argument;
}
