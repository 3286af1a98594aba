import { ConfigError } from "../core/errors.js";

/**
 * The top-level entries a publish or a reject names, each once ("data/" is the folder "data"): plain names,
 * never one of evalshard's own (`.evalshard…`, or the storage's `reserved` folder).
 */
export function topLevelEntries(entries: readonly string[], of: string, reserved?: string): string[] {
  const names = entries.map((name) => name.replace(/\/$/, ""));
  for (const name of names) {
    if (name === "" || name === "." || name === ".." || /[/\\]/.test(name) || name.startsWith(".evalshard") || name === reserved) {
      throw new ConfigError(`Cannot publish ${JSON.stringify(name)}: expected the name of a top-level entry of ${of}`);
    }
  }
  return [...new Set(names)];
}
