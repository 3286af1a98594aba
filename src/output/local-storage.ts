import { LocalFiles } from "./local-files.js";
import { openStaging } from "./local-staging.js";
import type { LocalStaging } from "./local-staging.js";
import { lockOutput } from "./lock-output.js";
import type { Lock, PublishHook, Storage } from "./storage.js";

/**
 * A dataset in a local directory. The lock is a file created with O_EXCL ({@link lockOutput}); a publish
 * is a journal and renames inside the directory ({@link openStaging}).
 */
export class LocalStorage extends LocalFiles implements Storage {
  async lock(): Promise<Lock> {
    const release = await lockOutput(this.location);
    return { release };
  }

  stage(options: { readonly onStep?: PublishHook } = {}): Promise<LocalStaging> {
    return openStaging(this.location, options);
  }
}
