/** JSON data, as the dataset card's front matter holds it. */
export type JsonData = string | number | boolean | null | readonly JsonData[] | { readonly [key: string]: JsonData };

/**
 * Strings written bare: identifier-like, and not a word YAML 1.1 (PyYAML, which `datasets` uses) reads as
 * something else; `e0`-like words are quoted too, which some YAML 1.1 readers take for numbers.
 */
const PLAIN = /^[A-Za-z_][A-Za-z0-9_./*-]*$/;
const RESERVED = /^(?:true|false|yes|no|on|off|y|n|null|nan|inf|[eE][0-9].*)$/i;

/**
 * Block-style YAML for JSON data, for the dataset card: what the `yaml` package wrote, without loading it
 * (~20 ms of the parallel engine's start-up, when its workers wait for their first batch). Strings that
 * are not plainly safe are written as JSON strings, which are valid YAML double-quoted scalars.
 */
export function yamlOf(value: JsonData): string {
  return lines(value, "").join("\n") + "\n";
}

function lines(value: JsonData, indent: string): string[] {
  if (Array.isArray(value)) {
    if (value.length === 0) return [`${indent}[]`];
    return (value as readonly JsonData[]).flatMap((item) => {
      const [first = "", ...rest] = lines(item, `${indent}  `);
      return [`${indent}- ${first.slice(indent.length + 2)}`, ...rest];
    });
  }
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as { readonly [key: string]: JsonData });
    if (entries.length === 0) return [`${indent}{}`];
    return entries.flatMap(([key, item]) => {
      const k = scalar(key);
      if (item !== null && typeof item === "object" && (Array.isArray(item) ? item.length > 0 : Object.keys(item).length > 0)) {
        return [`${indent}${k}:`, ...lines(item, `${indent}  `)];
      }
      return [`${indent}${k}: ${lines(item, "")[0] ?? ""}`];
    });
  }
  return [`${indent}${scalar(value)}`];
}

function scalar(value: string | number | boolean | null): string {
  if (typeof value !== "string") return value === null ? "null" : String(value);
  return PLAIN.test(value) && !RESERVED.test(value) ? value : JSON.stringify(value);
}
