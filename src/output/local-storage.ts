import { LocalFiles } from "./local-files.js";
import { openStaging } from "./local-staging.js";
import type { LocalStaging } from "./local-staging.js";
import { lockOutput } from "./lock-output.js";
import type { Lock, PublishHook, Storage } from "./storage.js";

/**
 * A fault-injection hook for tests through the CLI: the process kills itself (SIGKILL) right after the
 * publish step this variable names ("switched", "in:data", …), so a test sees what a reader would after a
 * crash there, before any recovery.
 */
export const KILL_AT_STEP = "EVALSHARD_TEST_KILL_AT_PUBLISH_STEP";

/** Options of {@link LocalStorage}. */
export interface LocalStorageOptions {
  /**
   * How long a replaced snapshot stays readable after a publish switched away from it, for readers that
   * resolved `.evalshard-current` before (issue 40); the publish waits it out, holding the lock. Default 0.
   */
  readonly snapshotGraceMs?: number;
  /** How the publish waits: real timers by default, a test's clock otherwise. */
  readonly sleep?: (ms: number) => Promise<void>;
}

/**
 * A dataset in a local directory. The lock is a file created with O_EXCL ({@link lockOutput}); a publish
 * is a journal and renames inside the directory ({@link openStaging}).
 */
export class LocalStorage extends LocalFiles implements Storage {
  constructor(
    location: string,
    readonly options: LocalStorageOptions = {},
  ) {
    super(location);
  }

  async lock(): Promise<Lock> {
    const release = await lockOutput(this.location);
    return { release };
  }

  stage(options: { readonly onStep?: PublishHook } = {}): Promise<LocalStaging> {
    const killAt = process.env[KILL_AT_STEP];
    const grace = { graceMs: this.options.snapshotGraceMs ?? 0, ...(this.options.sleep === undefined ? {} : { sleep: this.options.sleep }) };
    if (killAt === undefined || killAt === "") return openStaging(this.location, { ...options, ...grace });
    return openStaging(this.location, {
      ...grace,
      onStep: async (step) => {
        await options.onStep?.(step);
        if (step === killAt) process.kill(process.pid, "SIGKILL");
      },
    });
  }
}
