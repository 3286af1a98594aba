import { ConfigError } from "../core/errors.js";
import { keptSnapshots } from "./kept-snapshots.js";
import { LocalStorage } from "./local-storage.js";
import { outputLocation } from "./output-location.js";
import type { LocalStorageOptions } from "./local-storage.js";
import type { S3StorageOptions } from "./s3-storage.js";
import type { Storage } from "./storage.js";

/**
 * The storage of an output location ({@link outputLocation}): {@link LocalStorage} for a path, `S3Storage`
 * for `s3://BUCKET/PREFIX`. `snapshots`: a local dataset keeps numbered snapshots too ({@link LocalSnapshotStorage}),
 * as every dataset on S3 does; `keepSnapshots` says how many. `-` is {@link StdoutStorage}, its manifest to
 * `manifestFile` or stderr. `leaseMs`: the lock's lease, locally and on S3. The AWS SDK is loaded only then (it adds ~0.5 s to a start), so local runs
 * never pay for it.
 */
export async function storageFor(location: string, options: S3StorageOptions & LocalStorageOptions & { readonly snapshots?: boolean; readonly manifestFile?: string } = {}): Promise<Storage> {
  const where = outputLocation(location);
  if (where.kind === "stdout") {
    const { StdoutStorage } = await import("./stdout-storage.js");
    return new StdoutStorage(options.manifestFile === undefined ? {} : { manifestFile: options.manifestFile });
  }
  if (where.kind === "local" && options.snapshots === true) {
    const { LocalSnapshotStorage } = await import("./local-snapshot-storage.js");
    return new LocalSnapshotStorage(where.path, keptSnapshots(options.keepSnapshots), options);
  }
  if (where.kind === "local") return new LocalStorage(where.path, options);
  const { S3Storage } = await import("./s3-storage.js").catch((error: unknown) => {
    // The AWS SDK is an optional peer dependency (22 MB of the install; docs/decisions.md).
    if ((error as { code?: string }).code !== "ERR_MODULE_NOT_FOUND" || !String((error as Error).message).includes("@aws-sdk/")) throw error;
    throw new ConfigError(`Writing to ${location} needs the AWS SDK, an optional peer dependency: npm install @aws-sdk/client-s3 @aws-sdk/lib-storage`, { cause: error });
  });
  return new S3Storage(where.url, options);
}
