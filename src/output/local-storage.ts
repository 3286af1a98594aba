import { LocalFiles } from "./local-files.js";
import { localForeignFile } from "./local-foreign-file.js";
import { openStaging } from "./local-staging.js";
import type { LocalStaging } from "./local-staging.js";
import type { LeaseLock } from "./lease-lock.js";
import { takeOutputLock } from "./lock-output.js";
import type { Fence, Lock, PublishHook, Storage } from "./storage.js";
import { withStepSignals } from "./with-step-signals.js";

/** Options of {@link LocalStorage}. */
export interface LocalStorageOptions {
  /** The lock's lease (`lockOutput`); default `EVALSHARD_LOCK_LEASE_MS`, else 30 s. */
  readonly leaseMs?: number;
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
  #held: LeaseLock | null = null;

  constructor(
    location: string,
    readonly options: LocalStorageOptions = {},
  ) {
    super(location);
  }

  async lock(): Promise<Lock> {
    const held = await takeOutputLock(this.location, this.options);
    this.#held = held;
    return held;
  }

  /** The check of the lock this storage holds, if any: a staging opened under it fences its switch and deletes. */
  protected readonly fence: Fence = async () => this.#held?.check();

  foreignFile(): Promise<string | null> {
    return localForeignFile(this.location);
  }

  stage(options: { readonly onStep?: PublishHook } = {}): Promise<LocalStaging> {
    const onStep = withStepSignals(options.onStep);
    const grace = { graceMs: this.options.snapshotGraceMs ?? 0, ...(this.options.sleep === undefined ? {} : { sleep: this.options.sleep }) };
    return openStaging(this.location, { fence: this.fence, ...grace, ...(onStep === undefined ? {} : { onStep }) });
  }
}
