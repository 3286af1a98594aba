import type { S3Client } from "@aws-sdk/client-s3";
import { endpointOf, s3Client } from "./s3-client.js";
import type { S3ClientOptions } from "./s3-client.js";
import { parseS3Location } from "./s3-location.js";
import { S3ObjectStore } from "./s3-object-store.js";
import { ObjectStorage } from "./object-storage.js";
import type { ObjectStorageOptions } from "./object-storage.js";

/** Options of {@link S3Storage}. */
export interface S3StorageOptions extends S3ClientOptions, ObjectStorageOptions {
  /** A client to use instead of one built from the options (tests, custom middleware). */
  readonly client?: S3Client;
}

/** A dataset under `s3://BUCKET/PREFIX/`: {@link ObjectStorage} over {@link S3ObjectStore}. */
export class S3Storage extends ObjectStorage {
  constructor(location: string, options: S3StorageOptions = {}) {
    super(new S3ObjectStore(options.client ?? s3Client(options), parseS3Location(location), endpointOf(options)), options);
  }
}
