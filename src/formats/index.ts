import { dpo } from "./dpo.js";
import type { Format, FormatName } from "./format.js";
import { FORMAT_NAMES, formatName } from "./format.js";
import { FormatRegistry } from "./format-registry.js";
import { rl } from "./rl.js";
import { sft } from "./sft.js";

/** Every format version evalshard reads. A new version: one `defineFormat` file, registered here. */
export const FORMAT_REGISTRY = new FormatRegistry([sft, rl, dpo]);

/** Each format's current version (see {@link FormatRegistry.current}). */
export const FORMATS: Readonly<Record<FormatName, Format>> = Object.fromEntries(FORMAT_NAMES.map((name) => [name, FORMAT_REGISTRY.current(name)])) as Record<FormatName, Format>;

/** The current version of the format `name`; a ConfigError names it when there is no such format. */
export function formatByName(name: string): Format {
  return FORMATS[formatName(name)];
}

/** The format whose version field the object carries, or null when it carries none (see {@link FormatRegistry.detect}). */
export function detectFormat(value: Record<string, unknown>): Format | null {
  return FORMAT_REGISTRY.detect(value);
}
