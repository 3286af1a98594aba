import { writeSync } from "node:fs";
import { ConfigError } from "../core/errors.js";

/**
 * MB per semi-space (V8's young generation is two of them) for the CLI's nightly jobs. Node 24's V8 lets a
 * semi-space reach 64 MB on a machine with more than a few GB (Node 20 and 22: 16), which put ~110 MB more into
 * a night's peak; docs/decisions.md, "Nightly pull memory on Node 24: the young generation".
 */
export const NIGHTLY_SEMI_SPACE_MB = 8;

/** The environment variable that changes it: whole MB, or `off` for V8's own sizing. */
export const SEMI_SPACE_ENV = "EVALSHARD_SEMI_SPACE_MB";

const NIGHTLY_COMMANDS = new Set(["pull", "run"]);
const FLAG = /--max[-_]semi[-_]space[-_]size\b/;

/**
 * Restarts this process in place (`process.execve`: same pid, stdio and signals; no parent left holding memory)
 * with `--max-semi-space-size` when `argv` is a nightly command and node was not started with the flag (on its
 * command line or in NODE_OPTIONS). V8 sizes the young generation once, when the isolate starts, so the flag
 * cannot be set from inside as the heap growing percent is. Call it before anything is written or loaded: a
 * restart does not return. Only the CLI calls it (a library caller's process is theirs); `convert` is not
 * restarted (its speed is measured against the larger young generation). With EVALSHARD_DEBUG set, says on
 * stderr what it did, synchronously, since a restart drops pending writes.
 */
export function restartForNight(argv: readonly string[], env: NodeJS.ProcessEnv = process.env, execArgv: readonly string[] = process.execArgv): void {
  if (!NIGHTLY_COMMANDS.has(argv[2] ?? "") || argv.includes("--help") || argv.includes("-h")) return;
  const decided = decide(env, execArgv);
  if (env.EVALSHARD_DEBUG) writeSync(2, `evalshard: debug: young generation: ${decided.said}\n`);
  if (decided.flag !== undefined && process.execve !== undefined) {
    process.execve(process.execPath, [process.execPath, decided.flag, ...execArgv, ...argv.slice(1)], env);
  }
}

function decide(env: NodeJS.ProcessEnv, execArgv: readonly string[]): { said: string; flag?: string } {
  const given = [...execArgv, ...(env.NODE_OPTIONS ?? "").split(/\s+/)].find((arg) => FLAG.test(arg));
  if (given !== undefined) return { said: `node runs with ${given}` };
  const asked = env[SEMI_SPACE_ENV]?.trim();
  if (asked === "off") return { said: `V8's default (${SEMI_SPACE_ENV}=off)` };
  const mb = asked === undefined || asked === "" ? NIGHTLY_SEMI_SPACE_MB : Number(asked);
  if (!Number.isInteger(mb) || mb < 1 || mb > 1024) {
    throw new ConfigError(`${SEMI_SPACE_ENV} must be a whole number of MB from 1 to 1024, or off; got ${JSON.stringify(asked)}`);
  }
  // Windows has no execve: the night runs with V8's sizing there.
  if (process.platform === "win32" || process.execve === undefined) return { said: `V8's default (no execve on ${process.platform})` };
  const flag = `--max-semi-space-size=${mb}`;
  return { said: `restarting node with ${flag}`, flag };
}
