/**
 * One line about an error and its causes, e.g. `fetch failed: connect ECONNREFUSED 127.0.0.1:9 (ECONNREFUSED)`.
 * `names`: each error's name before its message, when it is not `Error` and the message does not start
 * with it (an S3 error's `SignatureDoesNotMatch: ...`, which a HEAD's empty body leaves with no other words).
 */
export function describeError(error: unknown, names = false): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current !== undefined && current !== null; depth++) {
    if (!(current instanceof Error)) {
      parts.push(String(current));
      break;
    }
    const code = (current as { code?: unknown }).code;
    const name = names && current.name !== "Error" && !current.message.startsWith(current.name) ? `${current.name}: ` : "";
    parts.push(`${name}${current.message}${typeof code === "string" && !current.message.includes(code) ? ` (${code})` : ""}`);
    current = current.cause;
  }
  return parts.filter((p) => p.trim() !== "").join(": ");
}
