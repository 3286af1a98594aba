import { ConfigError } from "../core/errors.js";

const UNITS: Record<string, number> = { "": 1, b: 1, k: 1e3, kb: 1e3, kib: 1024, m: 1e6, mb: 1e6, mib: 1024 ** 2, g: 1e9, gb: 1e9, gib: 1024 ** 3 };

/** A whole number from `min` up, to `max` where given, e.g. `--shard-rows 50000`, `--rows 0`. */
export function wholeNumber(flag: string, min = 1, max?: number) {
  return (value: string): number => {
    const n = /^\d+$/.test(value.trim()) ? Number(value) : NaN;
    if (!Number.isSafeInteger(n) || n < min || (max !== undefined && n > max)) {
      throw new ConfigError(`Expected ${flag} to be a whole number from ${min} ${max === undefined ? "and up" : `to ${max}`}, got ${JSON.stringify(value)}`);
    }
    return n;
  };
}

/** A size in bytes with an optional unit, e.g. `512MiB`, `1GB`, `1048576`. */
export function byteSize(flag: string) {
  return (value: string): number => {
    const m = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i.exec(value.trim());
    const unit = UNITS[(m?.[2] ?? "x").toLowerCase()];
    const n = m === null || unit === undefined ? NaN : Math.floor(Number(m[1]) * unit);
    if (!Number.isSafeInteger(n) || n < 1) throw new ConfigError(`Expected ${flag} to be a size such as 512MiB or 1000000, got ${JSON.stringify(value)}`);
    return n;
  };
}

/** Repeatable `PATH=POLICY`, collected into an object. */
export function pathPolicy(value: string, previous: Record<string, string> = {}): Record<string, string> {
  const at = value.lastIndexOf("=");
  if (at <= 0 || at === value.length - 1) throw new ConfigError(`Expected --untrusted PATH=POLICY (e.g. coaching.guidance=redact), got ${JSON.stringify(value)}`);
  return { ...previous, [value.slice(0, at)]: value.slice(at + 1) };
}
