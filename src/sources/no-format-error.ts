import { ConfigError } from "../core/errors.js";
import type { LineSource, ReadOptions } from "./line-source.js";

/**
 * The error for inputs where no line names its format. A JSON array (one document, pretty-printed or on one
 * line) is the usual cause, so an input whose first line opens one is named as such: evalshard reads NDJSON,
 * one record per line, and says how to turn the array into that.
 */
export async function noFormatError(sources: readonly LineSource[], fields: readonly string[], formats: readonly string[], read: ReadOptions = {}): Promise<ConfigError> {
  for (const source of sources) {
    for await (const line of source.lines(read)) {
      const text = line.kind === "line" ? line.text : line.head;
      if (text.trimStart().startsWith("[")) {
        return new ConfigError(
          `${JSON.stringify(source.name)} is a JSON array, but evalshard reads NDJSON: one JSON record per line (convert it with \`jq -c '.[]' ${source.name} > records.ndjson\`)`,
        );
      }
      break; // only an input's first line tells
    }
  }
  const named = sources.map((s) => JSON.stringify(s.name)).join(", ") || "the inputs";
  return new ConfigError(`No line of ${named} names its format (${fields.slice(0, -1).join(", ")} or ${fields.at(-1)}): pass --format ${formats.join("|")}`);
}
