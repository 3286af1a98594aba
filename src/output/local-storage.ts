import { LocalFiles } from "./local-files.js";
import { localForeignFile } from "./local-foreign-file.js";
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

/**
 * A dataset in a local directory. The lock is a file created with O_EXCL ({@link lockOutput}); a publish
 * is a journal and renames inside the directory ({@link openStaging}).
 */
export class LocalStorage extends LocalFiles implements Storage {
  async lock(): Promise<Lock> {
    const release = await lockOutput(this.location);
    return { release };
  }

  foreignFile(): Promise<string | null> {
    return localForeignFile(this.location);
  }

  stage(options: { readonly onStep?: PublishHook } = {}): Promise<LocalStaging> {
    const killAt = process.env[KILL_AT_STEP];
    if (killAt === undefined || killAt === "") return openStaging(this.location, options);
    return openStaging(this.location, {
      onStep: async (step) => {
        await options.onStep?.(step);
        if (step === killAt) process.kill(process.pid, "SIGKILL");
      },
    });
  }
}
