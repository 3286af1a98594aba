import { ConfigError } from "../core/errors.js";
import { REDACTED } from "../core/secret-redactor.js";
import { addSecrets, TOKEN_ENV } from "../core/secrets.js";

/** Agent routes take an API key; owner routes a portal session token (spec section 5). */
export type AuthMode = "agent" | "owner";

/** A credential and where it came from. Spreads into `createServiceClient` options. */
export interface Credentials {
  readonly auth: AuthMode;
  readonly token: string;
  /** The variable that supplied the token, for error messages. */
  readonly tokenSource: string;
}

/**
 * Reads the credential for `auth` from the environment (`EVAL_API_KEY` or `EVAL_OWNER_TOKEN`).
 * Throws ConfigError naming the variable, never its value, when it is unset or not a bare token.
 * Surrounding whitespace is dropped: a token read with `$(cat file)` often ends in a newline.
 */
export function credentialsFromEnv(auth: AuthMode, env: NodeJS.ProcessEnv = process.env): Credentials {
  checkAuthMode(auth);
  const tokenSource = TOKEN_ENV[auth];
  const raw = env[tokenSource];
  if (raw === undefined) {
    throw new ConfigError(`${tokenSource} is not set: put the ${auth === "agent" ? "agent API key" : "owner portal session token"} in it`);
  }
  const token = raw.trim();
  checkToken(token, tokenSource);
  addSecrets(token);
  const credentials = { auth, token, tokenSource };
  // Non-enumerable, so a spread into client options copies only the three fields above.
  Object.defineProperties(credentials, {
    toJSON: { value: () => ({ auth, tokenSource, token: REDACTED }) },
    [Symbol.for("nodejs.util.inspect.custom")]: { value: () => `Credentials(${auth} from ${tokenSource})` },
  });
  return credentials;
}

export function checkAuthMode(auth: unknown): asserts auth is AuthMode {
  if (auth !== "agent" && auth !== "owner") throw new ConfigError(`Expected \`auth\` to be "agent" or "owner", got ${JSON.stringify(auth)}`);
}

/**
 * A token must be visible ASCII. Checked up front because fetch rejects a bad header value with a
 * TypeError that quotes the whole header, token included.
 */
export function checkToken(token: unknown, tokenSource: string): asserts token is string {
  if (typeof token !== "string" || token === "") throw new ConfigError(`The token from ${tokenSource} is empty`);
  if (!/^[\x21-\x7e]+$/.test(token)) {
    throw new ConfigError(`The token from ${tokenSource} holds whitespace, control or non-ASCII characters: expected the bare token`);
  }
}
