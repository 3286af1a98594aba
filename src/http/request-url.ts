import { ConfigError } from "../core/errors.js";
import { REDACTED } from "../core/secret-redactor.js";

/** Query parameters; `undefined` and `null` ones are left out. */
export type Query = Readonly<Record<string, string | number | boolean | null | undefined>>;

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** Parameter names whose values are never shown in errors or events, should a caller ever send one. */
const SECRET_PARAM = /(^|_)(token|secret|password|api_key|key|signature|auth|authorization)$/i;

/**
 * Checks the base URL: http(s), no query or fragment, no credentials in it (the token option is the one
 * place for a secret), and plain http only to loopback, since a bearer token over cleartext is exposed.
 */
export function checkBaseUrl(baseUrl: string, allowInsecureHttp: boolean): URL {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new ConfigError(`Expected \`baseUrl\` to be an absolute http(s) URL, got ${JSON.stringify(String(baseUrl).slice(0, 200))}`);
  }
  if (url.username !== "" || url.password !== "") {
    url.username = "";
    url.password = "";
    throw new ConfigError(`Expected \`baseUrl\` without credentials in it, got ${JSON.stringify(url.href)} with user info (removed here): pass the token option instead`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ConfigError(`Expected \`baseUrl\` to be an http(s) URL, got protocol ${JSON.stringify(url.protocol)}`);
  }
  if (url.search !== "" || url.hash !== "") throw new ConfigError(`Expected \`baseUrl\` without a query or fragment, got ${JSON.stringify(url.href)}`);
  if (url.protocol === "http:" && !LOOPBACK.has(url.hostname) && !allowInsecureHttp) {
    throw new ConfigError(`Refusing plain http to ${JSON.stringify(url.host)}: the bearer token would cross the network in cleartext (use https, or set allowInsecureHttp)`);
  }
  return url;
}

/** `base` joined with `path` (which starts with `/`) and `query`. */
export function requestUrl(base: URL, path: string, query: Query = {}): URL {
  if (typeof path !== "string" || !path.startsWith("/") || path.startsWith("//")) {
    throw new ConfigError(`Expected a request path starting with one "/", got ${JSON.stringify(path)}`);
  }
  const url = new URL(base.href.replace(/\/+$/, "") + path);
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) url.searchParams.set(name, String(value));
  }
  return url;
}

/** Whether a query parameter's value is one {@link displayPath} hides: such a request's target is never recorded. */
export function hasSecretParam(url: URL): boolean {
  return [...url.searchParams.keys()].some((name) => SECRET_PARAM.test(name));
}

/** Path and query as errors and events show them: values of secret-looking parameters replaced. */
export function displayPath(url: URL): string {
  const parts = [...url.searchParams].map(([name, value]) => `${encodeURIComponent(name)}=${SECRET_PARAM.test(name) ? REDACTED : encodeURIComponent(value)}`);
  return url.pathname + (parts.length === 0 ? "" : `?${parts.join("&")}`);
}
