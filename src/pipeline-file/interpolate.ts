import { ConfigError } from "../core/errors.js";

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}|\$\$/g;

/**
 * Replaces `${VAR}` and `${VAR:-default}` in every string of a parsed pipeline file; `$$` is a literal `$`.
 * An unset variable without a default is a ConfigError naming the variable and where it is used, never a value.
 */
export function interpolate(value: unknown, env: Readonly<Record<string, string | undefined>>, path = ""): unknown {
  if (typeof value === "string") {
    return value.replace(REFERENCE, (whole, name: string | undefined, fallback: string | undefined) => {
      if (whole === "$$" || name === undefined) return "$";
      const found = env[name];
      if (found !== undefined && found !== "") return found;
      if (fallback !== undefined) return fallback;
      throw new ConfigError(`Environment variable ${name} is not set (used at ${path || "the top level"}); set it or write \${${name}:-default}`);
    });
  }
  if (Array.isArray(value)) return value.map((v, i) => interpolate(v, env, `${path}[${i}]`));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, interpolate(v, env, path === "" ? k : `${path}.${k}`)]));
  }
  return value;
}
