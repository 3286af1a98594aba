import { redactSecrets } from "../core/secrets.js";
import { tryParseJson } from "../core/try-parse-json.js";

/** What an error body says, in whichever of the service's two shapes it came. */
export interface ErrorBody {
  readonly code: string | undefined;
  /** The envelope's message, else the plain `detail`, else the start of a non-JSON body. */
  readonly message: string;
  readonly detail: string | undefined;
}

const MAX_TEXT = 300;

/**
 * Reads an error body: the envelope `{error: {code, message}}` (spec section 7), a plain `{detail}`
 * (rule 6: 429 on submission, 422, 403 coaching; `detail` may also be a validation list), both at once
 * (the emulator's `Run not launched`), or anything else, kept as a short text. The process's secrets
 * are removed from every text taken from it, in case a server echoes a token back.
 */
export function parseErrorBody(text: string): ErrorBody {
  // Secrets go before anything is cut short: a token cut in half would no longer be recognised.
  const cleanText = (value: string) => cleanServerText(redactSecrets(value));
  const body = tryParseJson(text);
  if (typeof body !== "object" || body === null) return { code: undefined, message: cleanText(text), detail: undefined };
  const { error, detail } = body as { error?: unknown; detail?: unknown };
  const detailText = typeof detail === "string" ? cleanText(detail) : detail === undefined ? undefined : cleanText(JSON.stringify(detail));
  if (typeof error === "object" && error !== null) {
    const { code, message } = error as { code?: unknown; message?: unknown };
    return {
      code: typeof code === "string" && code !== "" ? cleanText(code) : undefined,
      message: typeof message === "string" ? cleanText(message) : (detailText ?? ""),
      detail: detailText,
    };
  }
  if (typeof error === "string") return { code: undefined, message: cleanText(error), detail: detailText };
  return { code: undefined, message: detailText ?? cleanText(text), detail: detailText };
}

/**
 * Server text goes into error messages and from there into logs: control characters (which could forge
 * log lines or hide text) become spaces, and it is cut short.
 */
export function cleanServerText(text: string): string {
  // eslint-disable-next-line no-control-regex
  const flat = text.replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]+/g, " ").trim();
  return flat.length > MAX_TEXT ? `${flat.slice(0, MAX_TEXT)}...` : flat;
}
