import { ConfigError } from "../core/errors.js";
import { LocalStorage } from "./local-storage.js";
import { S3Storage } from "./s3-storage.js";
import type { S3StorageOptions } from "./s3-storage.js";
import type { Storage } from "./storage.js";

/**
 * The storage of an output location: {@link S3Storage} for `s3://BUCKET/PREFIX`, {@link LocalStorage}
 * for a path. Anything that looks like a URL with another scheme (`gs://`, `hf://`, `file:`, a typo such
 * as `s3:/bucket` or `S3://`) is a {@link ConfigError} naming the scheme, never a local folder named `s3:`.
 * A Windows drive path (`C:\data`) is a path.
 */
export function storageFor(location: string, options: S3StorageOptions = {}): Storage {
  if (location.startsWith("s3://")) return new S3Storage(location, options);
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(location)?.[1];
  if (scheme !== undefined && !/^[A-Za-z]:[\\/]/.test(location)) {
    const hint = scheme.toLowerCase() === "s3" ? ` (expected s3://BUCKET/PREFIX)` : "";
    throw new ConfigError(
      `Unsupported output location ${JSON.stringify(location)}: scheme "${scheme}:" is not supported${hint}; use s3://BUCKET/PREFIX or a local path (write ./${location} for a folder of that name)`,
    );
  }
  if (location === "") throw new ConfigError("Expected an output location: a local path or s3://BUCKET/PREFIX, got an empty string");
  return new LocalStorage(location);
}
