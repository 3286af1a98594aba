import { ConfigError } from "../core/errors.js";

/**
 * Fault kinds: `429` (with Retry-After), `502`, `503`, `504` (after a delay), `reset` (connection
 * destroyed mid-body), `cut` (NDJSON stream ended mid-line), `partial` (`partial_stream` error lines
 * in owner bulk streams, rate per run), `slow` (body trickled out), `end` (NDJSON stream ended cleanly
 * at a line boundary: nothing on the wire tells it from the whole stream), `echo` (a 401 whose message
 * quotes the caller's token in many encodings, token-echo.ts), `echo_line` (an NDJSON stream with an
 * `{"error": …}` line quoting it after `at` lines), `seats` (a per-run `{records}` answer without its last
 * seat, well formed: rate per per-run answer).
 */
export const FAULT_KINDS = ["429", "502", "503", "504", "reset", "cut", "partial", "slow", "end", "echo", "echo_line", "seats"] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/** Rates from 0 to 1 per fault kind. `partial` is per run of an owner bulk stream, `seats` per per-run answer; the rest per request. */
export type FaultRates = Readonly<Partial<Record<FaultKind, number>>>;

/** Kinds drawn once per request, exclusively: their rates may add up to at most 1. */
// New kinds last: a rate of 0 leaves the draws of the kinds before them, so old seeds fault as before.
export const REQUEST_FAULTS = ["429", "502", "503", "504", "reset", "cut", "slow", "end", "echo", "echo_line"] as const satisfies readonly FaultKind[];

/**
 * Parses `429=0.08,502=0.05,reset=0.03,...` into rates. Throws ConfigError naming the bad part:
 * an unknown kind, a rate outside 0..1, a repeated kind, or per-request rates adding up to over 1.
 */
export function parseFaultSpec(spec: string): FaultRates {
  const rates: Partial<Record<FaultKind, number>> = {};
  const text = spec.trim();
  if (text === "" || text === "none") return rates;
  for (const part of text.split(",")) {
    const m = /^\s*([^=\s]+)\s*=\s*(\S+)\s*$/.exec(part);
    if (m === null) throw new ConfigError(`Bad fault ${JSON.stringify(part)} in --faults: expected KIND=RATE, e.g. 429=0.05`);
    const [, kind = "", rate = ""] = m;
    if (!isFaultKind(kind)) throw new ConfigError(`Unknown fault kind ${JSON.stringify(kind)} in --faults: expected one of ${FAULT_KINDS.join(", ")}`);
    if (kind in rates) throw new ConfigError(`Fault kind ${kind} is given twice in --faults`);
    rates[kind] = parseRate(kind, rate);
  }
  return checkFaultRates(rates);
}

/** Validates rates given as an object (the library form); returns them unchanged. */
export function checkFaultRates(rates: FaultRates): FaultRates {
  for (const [kind, rate] of Object.entries(rates)) {
    if (!isFaultKind(kind)) throw new ConfigError(`Unknown fault kind ${JSON.stringify(kind)}: expected one of ${FAULT_KINDS.join(", ")}`);
    if (typeof rate !== "number" || !(rate >= 0 && rate <= 1)) throw new ConfigError(`Fault rate of ${kind} must be a number from 0 to 1, got ${JSON.stringify(rate)}`);
  }
  const total = REQUEST_FAULTS.reduce((sum, kind) => sum + (rates[kind] ?? 0), 0);
  if (total > 1 + 1e-9) {
    throw new ConfigError(`Per-request fault rates (${REQUEST_FAULTS.join(", ")}) add up to ${Number(total.toFixed(6))}; at most 1 is possible`);
  }
  return rates;
}

function isFaultKind(kind: string): kind is FaultKind {
  return (FAULT_KINDS as readonly string[]).includes(kind);
}

function parseRate(kind: string, text: string): number {
  const rate = /^(?:\d+(?:\.\d*)?|\.\d+)$/.test(text) ? Number(text) : Number.NaN;
  if (!(rate >= 0 && rate <= 1)) throw new ConfigError(`Bad rate ${JSON.stringify(text)} for fault ${kind} in --faults: expected a number from 0 to 1`);
  return rate;
}
