import { badRequest } from "./http-errors.js";

/** Longest `batch_id`, `other`, `run_id_a`, `run_id_b` (spec section 8). */
export const ID_PARAM_MAX = 64;
/** Default `limit` of every bulk export (spec 4.8, 4.9). */
export const BULK_DEFAULT_LIMIT = 50;

/** A string query parameter, or undefined when absent; 400 when longer than `max` (spec section 8). */
export function queryString(url: URL, name: string, options: { max?: number; required?: boolean } = {}): string | undefined {
  const value = url.searchParams.get(name);
  if (value === null || value === "") {
    if (options.required === true) throw badRequest(`Query parameter ${name} is required`);
    return undefined;
  }
  if (options.max !== undefined && value.length > options.max) {
    throw badRequest(`Query parameter ${name} must be at most ${options.max} characters, got ${value.length}`);
  }
  return value;
}

/** A required string query parameter. */
export function requiredString(url: URL, name: string, max: number): string {
  return queryString(url, name, { max, required: true }) ?? "";
}

/** A whole-number query parameter within [min, max]; `fallback` when absent; 400 otherwise. */
export function queryInt(url: URL, name: string, range: { min: number; max?: number }, fallback: number): number {
  const raw = url.searchParams.get(name);
  if (raw === null) return fallback;
  const value = /^-?\d{1,15}$/.test(raw) ? Number(raw) : Number.NaN;
  const { min, max } = range;
  if (!Number.isSafeInteger(value) || value < min || (max !== undefined && value > max)) {
    const bound = max === undefined ? `from ${min} up` : `from ${min} to ${max}`;
    throw badRequest(`Query parameter ${name} must be a whole number ${bound}, got ${JSON.stringify(raw)}`);
  }
  return value;
}

/** A boolean query parameter (`true`/`false`/`1`/`0`); `fallback` when absent; 400 otherwise. */
export function queryBool(url: URL, name: string, fallback: boolean): boolean {
  const raw = url.searchParams.get(name);
  if (raw === null) return fallback;
  const value = { true: true, "1": true, false: false, "0": false }[raw.toLowerCase()];
  if (value === undefined) throw badRequest(`Query parameter ${name} must be true or false, got ${JSON.stringify(raw)}`);
  return value;
}
