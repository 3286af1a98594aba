import { setFlagsFromString } from "node:v8";
import { ConfigError } from "../core/errors.js";

/**
 * How far V8 may grow the heap past what survived the last full collection, for the CLI's nightly jobs: 100 means
 * 2x. On a machine with more than ~8 GB, Node's default lets a pull's heap reach ~4x its live data (a 100,000-run
 * night peaked near 500 MB with ~70 MB live); docs/decisions.md, "Nightly pull memory: the heap's growing percent".
 */
export const NIGHTLY_HEAP_GROWING_PERCENT = 100;

/** The environment variable that changes it: a percent, or `off` for V8's own policy. */
export const HEAP_GROWING_ENV = "EVALSHARD_HEAP_GROWING_PERCENT";

const FLAG = /--heap[-_]growing[-_]percent\b/;

/**
 * Sets V8's heap growing percent for this process before a night starts, unless the user started node with the
 * flag (`node --heap-growing-percent=N .../main.js`; Node refuses it in NODE_OPTIONS) or turned it off. Only the CLI calls this: the flag changes the whole
 * process, and a library caller's process is theirs. Unlike --max-old-space-size, which V8 reads once at start,
 * this flag is read at every collection, so setting it now takes effect. With EVALSHARD_DEBUG set, says on stderr
 * what it did (the one observable: V8 offers no way to read a flag back).
 */
export function applyHeapGrowingPercent(env: NodeJS.ProcessEnv = process.env, execArgv: readonly string[] = process.execArgv): void {
  const done = heapGrowingPercent(env, execArgv);
  if (env.EVALSHARD_DEBUG) process.stderr.write(`evalshard: debug: ${done}\n`);
}

function heapGrowingPercent(env: NodeJS.ProcessEnv, execArgv: readonly string[]): string {
  if (execArgv.some((arg) => FLAG.test(arg))) return "heap growing percent: kept the one node was started with";
  const asked = env[HEAP_GROWING_ENV]?.trim();
  if (asked === "off") return `heap growing percent: V8's default (${HEAP_GROWING_ENV}=off)`;
  const percent = asked === undefined || asked === "" ? NIGHTLY_HEAP_GROWING_PERCENT : Number(asked);
  if (!Number.isInteger(percent) || percent < 1 || percent > 1000) {
    throw new ConfigError(`${HEAP_GROWING_ENV} must be a whole percent from 1 to 1000, or off; got ${JSON.stringify(asked)}`);
  }
  setFlagsFromString(`--heap-growing-percent=${percent}`);
  return `heap growing percent: set to ${percent}`;
}
