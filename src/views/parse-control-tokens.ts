import { ConfigError } from "../core/errors.js";
import { addedSpecialTokens } from "../tokens/token-setup.js";

/**
 * The control tokens of a `--control-tokens` file: a JSON list of strings, a tokenizer's `tokenizer.json`
 * (its special `added_tokens`), or plain text with one token a line (blank lines ignored). `sanitizer`
 * checks each token in turn.
 */
export function parseControlTokens(text: string, name: string): string[] {
  const trimmed = text.trim();
  if (trimmed.startsWith("[") || trimmed.startsWith("{")) {
    let value: unknown;
    try {
      value = JSON.parse(trimmed);
    } catch (error) {
      throw new ConfigError(`${name} is not valid JSON: ${(error as Error).message}`);
    }
    if (Array.isArray(value) && value.every((t) => typeof t === "string")) return value;
    const added = (value as { added_tokens?: unknown }).added_tokens;
    if (Array.isArray(added)) return addedSpecialTokens(added);
    throw new ConfigError(`${name}: expected a JSON list of strings or a tokenizer.json with added_tokens`);
  }
  return text.split(/\r?\n/).filter((line) => line.trim() !== "");
}
