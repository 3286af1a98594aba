import { dpo } from "./dpo.js";
import type { Format, FormatName } from "./format.js";
import { formatName, formatNameOf } from "./format.js";
import { rl } from "./rl.js";
import { sft } from "./sft.js";

export const FORMATS: Readonly<Record<FormatName, Format>> = { sft, rl, dpo } as Record<FormatName, Format>;

export function formatByName(name: string): Format {
  return FORMATS[formatName(name)];
}

/** The format whose version field the object carries, or null when it carries none. */
export function detectFormat(value: Record<string, unknown>): Format | null {
  const name = formatNameOf(value);
  return name === null ? null : FORMATS[name];
}
