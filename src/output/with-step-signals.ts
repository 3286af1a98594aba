import type { PublishHook } from "./storage.js";

/**
 * A fault-injection hook for tests through the CLI: the process kills itself (SIGKILL) right after the
 * publish step this variable names ("switched", "in:data", "pointer", …), so a test sees what a reader would
 * after a crash there, before any recovery.
 */
export const KILL_AT_STEP = "EVALSHARD_TEST_KILL_AT_PUBLISH_STEP";
/**
 * The same for a stall: the process stops itself (SIGSTOP) right after the named step, as a frozen VM or a
 * long pause would stop it (no timer runs, so its lease is not renewed), until a test sends SIGCONT.
 */
export const STOP_AT_STEP = "EVALSHARD_TEST_STOP_AT_PUBLISH_STEP";

/** `onStep`, followed by the signal the environment asks for at a step ({@link KILL_AT_STEP}, {@link STOP_AT_STEP}). */
export function withStepSignals(onStep: PublishHook | undefined): PublishHook | undefined {
  const killAt = process.env[KILL_AT_STEP] ?? "";
  const stopAt = process.env[STOP_AT_STEP] ?? "";
  if (killAt === "" && stopAt === "") return onStep;
  return async (step) => {
    await onStep?.(step);
    if (step === killAt) process.kill(process.pid, "SIGKILL");
    if (step === stopAt) process.kill(process.pid, "SIGSTOP");
  };
}
