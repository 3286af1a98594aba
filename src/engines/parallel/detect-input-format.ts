import type { FormatName } from "../../formats/format.js";
import { FORMAT_NAMES, VERSION_FIELDS, formatNameOf } from "../../formats/format.js";
import type { LineSource, ReadOptions } from "../../sources/line-source.js";
import { noFormatError } from "../../sources/no-format-error.js";
import { tryParseJson } from "../../core/try-parse-json.js";

/**
 * The format of the first line that names one (by its version field, as the validate stage settles it):
 * lines that do not parse, or name no format, are passed over. Reads only as far as that line.
 */
export async function detectInputFormat(sources: readonly LineSource[], read: ReadOptions = {}): Promise<FormatName> {
  for (const source of sources) {
    for await (const line of source.lines(read)) {
      if (line.kind !== "line") continue;
      const value = tryParseJson(line.text);
      if (typeof value !== "object" || value === null || Array.isArray(value)) continue;
      const name = formatNameOf(value);
      if (name !== null) return name;
    }
  }
  const fields = FORMAT_NAMES.map((n) => VERSION_FIELDS[n]);
  throw await noFormatError(sources, fields, FORMAT_NAMES, read);
}
