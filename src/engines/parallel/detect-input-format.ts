import { ConfigError } from "../../core/errors.js";
import type { FormatName } from "../../formats/format.js";
import { FORMAT_NAMES, VERSION_FIELDS, formatNameOf } from "../../formats/format.js";
import type { LineSource, ReadOptions } from "../../sources/line-source.js";

/**
 * The format of the first line that names one (by its version field, as the validate stage settles it):
 * lines that do not parse, or name no format, are passed over. Reads only as far as that line.
 */
export async function detectInputFormat(sources: readonly LineSource[], read: ReadOptions = {}): Promise<FormatName> {
  for (const source of sources) {
    for await (const line of source.lines(read)) {
      if (line.kind !== "line") continue;
      let value: unknown;
      try {
        value = JSON.parse(line.text);
      } catch {
        continue;
      }
      if (typeof value !== "object" || value === null || Array.isArray(value)) continue;
      const name = formatNameOf(value);
      if (name !== null) return name;
    }
  }
  const fields = FORMAT_NAMES.map((n) => VERSION_FIELDS[n]);
  throw new ConfigError(
    `No line of ${sources.map((s) => JSON.stringify(s.name)).join(", ") || "the inputs"} names its format (${fields.slice(0, -1).join(", ")} or ${fields.at(-1)}): pass --format ${FORMAT_NAMES.join("|")}`,
  );
}
