import { ConfigError } from "./errors.js";
import { detectFormat } from "./formats/index.js";
import type { Format } from "./formats/format.js";
import type { LineSource, ReadOptions } from "./sources/line-source.js";

/**
 * The format of the first line that names one, as the validate stage settles it: lines that do not
 * parse, or name no format, are passed over. Reads only as far as that line.
 */
export async function detectInputFormat(sources: readonly LineSource[], read: ReadOptions = {}): Promise<Format> {
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
      const format = detectFormat(value as Record<string, unknown>);
      if (format !== null) return format;
    }
  }
  throw new ConfigError(
    `No line of ${sources.map((s) => JSON.stringify(s.name)).join(", ") || "the inputs"} names its format (format_version, rl_format_version or dpo_format_version): pass --format sft|rl|dpo`,
  );
}
