import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

/**
 * The set-up phases `npm test` (scripts/test.mjs) runs in the background while it builds and vitest starts: each
 * ends by writing `<phase>.ok` or `<phase>.failed` (its output in `<phase>.log`) into the directory it names in
 * EVALSHARD_TEST_SETUP. Without that variable (vitest run by hand) there is nothing to wait for.
 */
export type SetupPhase = "python-venv" | "chromium";

const dir = (): string | undefined => process.env.EVALSHARD_TEST_SETUP || undefined;

/** A phase `npm test` started and has not finished yet. */
export function setupPhasePending(phase: SetupPhase): boolean {
  const at = dir();
  return at !== undefined && !existsSync(join(at, `${phase}.ok`)) && !existsSync(join(at, `${phase}.failed`));
}

/** Resolves once `phase` succeeded; throws with the end of its log if it failed or did not end within `timeoutMs`. */
export async function waitForSetupPhase(phase: SetupPhase, timeoutMs = 20 * 60_000, pollMs = 200): Promise<void> {
  const at = dir();
  if (at === undefined) return;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (existsSync(join(at, `${phase}.ok`))) return;
    const log = join(at, `${phase}.log`);
    const tail = () => (existsSync(log) ? readFileSync(log, "utf8").trim().split("\n").slice(-30).join("\n") : "(no log)");
    if (existsSync(join(at, `${phase}.failed`))) throw new Error(`npm test's ${phase} phase failed (${log}):\n${tail()}`);
    if (Date.now() > deadline) throw new Error(`npm test's ${phase} phase did not finish within ${timeoutMs / 1000} s (${log}):\n${tail()}`);
    await sleep(pollMs);
  }
}
