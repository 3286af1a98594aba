import { createHash } from "node:crypto";
import type { Files, Storage, StoredFile } from "../output/storage.js";
import type { BucketState, DatasetState } from "./ledger.js";

/**
 * Whether a published shard still holds the bytes the dataset's state gives it, so the next snapshot may
 * keep it: the size first (free, from the listing), then the sha256 of its content. A size check alone
 * carried corrupt shards forward (one byte flipped keeps the size) under a manifest whose sha256 they do
 * not have; reading each kept shard once a night is the price of never publishing that.
 */
export async function shardIntact(files: Pick<Files, "read">, file: StoredFile | undefined, shard: BucketState): Promise<boolean> {
  if (file === undefined || file.bytes !== shard.bytes) return false;
  const body = await files.read(file.path);
  if (body === null) return false;
  const hash = createHash("sha256");
  for await (const chunk of body) hash.update(chunk);
  return hash.digest("hex") === shard.sha256;
}

/** Whether every shard the state names is published and intact (see {@link shardIntact}). */
export async function shardsIntact(storage: Pick<Storage, "list" | "read">, state: DatasetState): Promise<boolean> {
  const published = new Map((await storage.list("data/")).map((f) => [f.path, f]));
  for (const shard of state.shards) if (!(await shardIntact(storage, published.get(shard.path), shard))) return false;
  return true;
}
