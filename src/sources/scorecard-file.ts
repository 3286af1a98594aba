import { readFile } from "node:fs/promises";
import { ConfigError, IoError } from "../core/errors.js";

/**
 * Reads scorecards for participation gating: NDJSON or JSON holding scorecard responses
 * `{scorecards, versions}`, bare scorecards, or arrays of either. Returns the runs any of whose
 * scorecards carries a truthy `participation_gated` stamp.
 */
export async function readGatedRuns(path: string): Promise<Set<string>> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new IoError(`Cannot read scorecards file ${JSON.stringify(path)}: ${(error as Error).message}`, path, { cause: error });
  }
  const gated = new Set<string>();
  for (const [value, where] of parseJsonOrNdjson(text, path)) collect(value, gated, path, where);
  return gated;
}

function* parseJsonOrNdjson(text: string, path: string): Iterable<[unknown, string]> {
  const body = text.replace(/^\uFEFF/, "");
  try {
    yield [JSON.parse(body), "the file"];
    return;
  } catch {
    // Not one JSON document: read it as NDJSON.
  }
  const lines = body.split(/\r?\n/);
  for (const [i, line] of lines.entries()) {
    if (line.trim() === "") continue;
    try {
      yield [JSON.parse(line), `line ${i + 1}`];
    } catch (error) {
      throw new ConfigError(`Scorecards file ${JSON.stringify(path)} line ${i + 1} is not JSON: ${(error as Error).message}`);
    }
  }
}

function collect(value: unknown, gated: Set<string>, path: string, where: string): void {
  if (Array.isArray(value)) {
    for (const v of value) collect(v, gated, path, where);
    return;
  }
  if (typeof value !== "object" || value === null) {
    throw new ConfigError(`Scorecards file ${JSON.stringify(path)} ${where}: expected a scorecard or {scorecards, versions}, got ${JSON.stringify(value)?.slice(0, 80)}`);
  }
  const object = value as Record<string, unknown>;
  if (Array.isArray(object.scorecards)) {
    collect(object.scorecards, gated, path, where);
    return;
  }
  if (typeof object.run_id !== "string") {
    throw new ConfigError(`Scorecards file ${JSON.stringify(path)} ${where}: a scorecard without a string run_id`);
  }
  if (object.participation_gated) gated.add(object.run_id);
}
