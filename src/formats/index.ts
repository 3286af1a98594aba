import { ConfigError } from "../errors.js";
import { dpo } from "./dpo.js";
import type { Format, FormatName } from "./format.js";
import { FORMAT_NAMES } from "./format.js";
import { rl } from "./rl.js";
import { sft } from "./sft.js";

export const FORMATS: Readonly<Record<FormatName, Format>> = { sft, rl, dpo } as Record<FormatName, Format>;

export function formatByName(name: string): Format {
  if (!(FORMAT_NAMES as readonly string[]).includes(name)) {
    throw new ConfigError(`Unknown format ${JSON.stringify(name)}: expected one of ${FORMAT_NAMES.join(", ")}`);
  }
  return FORMATS[name as FormatName];
}

/** The format whose version field the object carries, or null when it carries none. */
export function detectFormat(value: Record<string, unknown>): Format | null {
  for (const name of FORMAT_NAMES) {
    if (FORMATS[name].versionField in value) return FORMATS[name];
  }
  return null;
}
