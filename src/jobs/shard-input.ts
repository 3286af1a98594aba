import { createReadStream } from "node:fs";
import type { Files } from "../output/storage.js";

/** A shard `inspect` previews: a local file, or an object read through a storage's {@link Files}. */
export interface ShardInput {
  /** For messages: a path, or `s3://BUCKET/PREFIX/data/...`. */
  readonly name: string;
  /** The shard's bytes, streamed. */
  read(): Promise<AsyncIterable<Uint8Array>>;
}

/** A local shard file. */
export function localShard(path: string): ShardInput {
  return { name: path, read: async () => createReadStream(path) };
}

/** A shard stored under `files` (any storage, S3 included); reading a missing one names it. */
export function storedShard(files: Files, path: string): ShardInput {
  return {
    name: `${files.location}/${path}`,
    async read() {
      const stream = await files.read(path);
      if (stream === null) throw new Error(`${path} is listed in manifest.json but missing`);
      return stream;
    },
  };
}
