import { describeError } from "./describe-error.js";
import { SecretRedactor } from "./secret-redactor.js";

/** The environment variable each service credential is read from, by auth mode. Secrets never travel on argv. */
export const TOKEN_ENV = { agent: "EVAL_API_KEY", owner: "EVAL_OWNER_TOKEN" } as const;

/**
 * The environment variables whose values are secrets: the service credentials and the S3 ones. Their
 * values are removed from everything evalshard writes (stderr, errors, manifests, quarantine, shards).
 * AWS_ACCESS_KEY_ID is an identifier that error messages name to be useful, not a secret.
 */
export const SECRET_ENV = [TOKEN_ENV.agent, TOKEN_ENV.owner, "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN"] as const;

const known = new Set<string>();
let redactor = new SecretRedactor([]);

/**
 * Adds secrets to the process's set: every text written afterwards goes through {@link redactSecrets}.
 * One set per process, because what must never be written is whatever this process holds, whichever
 * client, job or storage took it in (a service token, a `character_token`, S3 keys).
 */
export function addSecrets(...secrets: readonly (string | undefined)[]): void {
  let grew = false;
  for (const secret of secrets) {
    const trimmed = secret?.trim() ?? "";
    if (trimmed === "" || known.has(trimmed)) continue;
    known.add(trimmed);
    grew = true;
  }
  if (grew) redactor = new SecretRedactor(known);
}

/** Adds the values of {@link SECRET_ENV} that are set. */
export function addSecretsFromEnv(env: NodeJS.ProcessEnv = process.env): void {
  addSecrets(...SECRET_ENV.map((name) => env[name]));
}

/** `text` with every secret of the process removed, in any encoding the redactor knows. */
export function redactSecrets(text: string): string {
  return redactor.empty ? text : redactor.redact(text);
}

/** A copy of a JSON value with secrets removed from every string in it, keys included. */
export function redactJson<T>(value: T): T {
  if (redactor.empty) return value;
  return walk(value) as T;
}

function walk(value: unknown): unknown {
  if (typeof value === "string") return redactor.redact(value);
  if (Array.isArray(value)) return value.map(walk);
  if (value === null || typeof value !== "object") return value;
  // fromEntries defines properties, so a `__proto__` key stays a key.
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [redactor.redact(key), walk(item)]));
}

/**
 * An error fit to be the `cause` of a thrown error: the original when neither it nor its causes mention
 * a secret of the process, else a plain Error with the secrets removed from its message. (`util.inspect`
 * prints causes with their stacks, so a cause is as visible as the error itself.)
 */
export function safeCause(error: unknown): unknown {
  if (redactor.empty || !mentionsIn(error, 0)) return error;
  return new Error(redactor.redact(describeError(error)));
}

function mentionsIn(value: unknown, depth: number): boolean {
  if (depth > 4 || value === undefined || value === null) return false;
  if (!(value instanceof Error)) return redactor.mentions(String(value));
  if (redactor.mentions(`${value.message}\n${value.stack ?? ""}`)) return true;
  try {
    if (redactor.mentions(JSON.stringify(value))) return true;
  } catch {
    return true;
  }
  return mentionsIn(value.cause, depth + 1);
}
