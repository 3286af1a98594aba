import { mentionsSecret, redactSecrets } from "../core/secrets.js";
import { REDACTED, SecretRedactor } from "../core/secret-redactor.js";

export { REDACTED };

/**
 * A function that removes `secret` from a text, verbatim, encoded, escaped or as a long enough fragment
 * (core/secret-redactor.ts), and every other secret the process holds (core/secrets.ts).
 */
export function redactor(secret: string): (text: string) => string {
  const one = new SecretRedactor([secret]);
  return (text) => redactSecrets(one.redact(text));
}

/**
 * An error fit to be the `cause` of a thrown error: the original when neither it nor its causes mention
 * the secret, else a plain Error with the secret removed from its message. (`util.inspect` prints
 * causes with their stacks, so a cause is as visible as the error itself.)
 */
export function safeCause(error: unknown, secret: string): unknown {
  if (!mentions(error, secret, 0)) return error;
  const redact = redactor(secret);
  return new Error(redact(describeError(error)));
}

/** One line about an error and its causes, e.g. `fetch failed: connect ECONNREFUSED 127.0.0.1:9 (ECONNREFUSED)`. */
export function describeError(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current !== undefined && current !== null; depth++) {
    if (current instanceof Error) {
      const code = (current as { code?: unknown }).code;
      parts.push(typeof code === "string" && !current.message.includes(code) ? `${current.message} (${code})` : current.message);
      current = current.cause;
    } else {
      parts.push(String(current));
      break;
    }
  }
  return parts.filter((p) => p !== "").join(": ");
}

function mentions(value: unknown, secret: string, depth: number): boolean {
  if (secret === "" || depth > 4 || value === undefined || value === null) return false;
  const one = new SecretRedactor([secret]);
  const has = (text: string) => one.mentions(text) || mentionsSecret(text);
  if (!(value instanceof Error)) return has(String(value));
  if (has(`${value.message}\n${value.stack ?? ""}`)) return true;
  try {
    if (has(JSON.stringify(value))) return true;
  } catch {
    return true;
  }
  return mentions(value.cause, secret, depth + 1);
}
