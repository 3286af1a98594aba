import { ConfigError } from "./errors.js";

/** `value`, when it is a whole number from `min` up; else a ConfigError naming the option and the value. */
export function wholeOption(name: string, value: number, min: number): number {
  if (!Number.isSafeInteger(value) || value < min) throw new ConfigError(`Expected \`${name}\` to be a whole number from ${min} up, got ${JSON.stringify(value)}`);
  return value;
}
