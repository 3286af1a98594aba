/** What stands in for a secret wherever one would have been shown. */
export const REDACTED = "[REDACTED]";

/** A function that removes every occurrence of `secret`, verbatim or encoded (`encodedForms`), from a text. */
export function redactor(secret: string): (text: string) => string {
  const forms = encodedForms(secret);
  return (text) => forms.reduce((t, form) => (t.includes(form) ? t.split(form).join(REDACTED) : t), text);
}

/** Shortest encoded piece worth removing: shorter ones would redact innocent text. */
const MIN_FORM = 8;

/**
 * The secret as a server may echo it back: verbatim, percent-encoded (either hex case), hex (either
 * case), and base64 (standard and URL-safe). Base64 of a text that holds the secret encodes it
 * differently by its offset modulo 3, so each of the three alignments is given by the stretch of
 * characters that depends on the secret's bytes only. Longest first, so a form inside another goes with it.
 */
export function encodedForms(secret: string): string[] {
  if (secret === "") return [];
  const bytes = Buffer.from(secret, "utf8");
  const forms = new Set<string>([secret]);
  const percent = encodeURIComponent(secret);
  forms.add(percent);
  forms.add(percent.replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase()));
  forms.add(bytes.toString("hex"));
  forms.add(bytes.toString("hex").toUpperCase());
  for (let shift = 0; shift < 3; shift++) {
    const b64 = Buffer.concat([Buffer.alloc(shift), bytes]).toString("base64");
    // The first 4 characters mix in the filler bytes when shifted; the last 4 mix in whatever follows
    // when the secret does not end on a 3-byte boundary.
    const core = b64.slice(shift === 0 ? 0 : 4, (shift + bytes.length) % 3 === 0 ? b64.length : b64.length - 4);
    forms.add(core);
    forms.add(core.replace(/\+/g, "-").replace(/\//g, "_"));
  }
  return [...forms].filter((f) => f === secret || f.length >= MIN_FORM).sort((a, b) => b.length - a.length);
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
  const forms = encodedForms(secret);
  const has = (text: string) => forms.some((f) => text.includes(f));
  if (!(value instanceof Error)) return has(String(value));
  if (has(`${value.message}\n${value.stack ?? ""}`)) return true;
  try {
    if (has(JSON.stringify(value))) return true;
  } catch {
    return true;
  }
  return mentions(value.cause, secret, depth + 1);
}
