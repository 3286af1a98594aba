import { readFile } from "node:fs/promises";
import { ConfigError } from "../core/errors.js";
import { ioStep } from "../core/io-step.js";
import { tryParseJson } from "../core/try-parse-json.js";

/**
 * The JSON values of a scorecards file, each with where it was: one JSON document, or NDJSON (blank lines
 * skipped). Their meaning is `readScorecards`' business (src/stages/read-scorecards.ts); a line that is not JSON is a
 * ConfigError naming it: the file is not a scorecards file.
 */
export async function readJsonValues(path: string): Promise<[unknown, string][]> {
  const text = await ioStep(path, "read scorecards file", () => readFile(path, "utf8"));
  const body = text.replace(/^\uFEFF/, "");
  const whole = tryParseJson(body);
  if (whole !== undefined) return [[whole, "the file"]];
  // Not one JSON document: read it as NDJSON.
  const values: [unknown, string][] = [];
  for (const [i, line] of body.split(/\r?\n/).entries()) {
    if (line.trim() === "") continue;
    try {
      values.push([JSON.parse(line), `line ${i + 1}`]);
    } catch (error) {
      throw new ConfigError(`Scorecards file ${JSON.stringify(path)} line ${i + 1} is not JSON: ${(error as Error).message}`);
    }
  }
  return values;
}
