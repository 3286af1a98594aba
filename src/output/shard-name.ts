/** A shard's published name in the Hugging Face layout, e.g. `train-00000-of-00003.parquet`. */
export function shardName(split: string, index: number, total: number, extension: string): string {
  return `${split}-${pad(index)}-of-${pad(total)}${extension}`;
}

/** A {@link shardName} with `label` before its numbers (`train-part1of4-00003-of-00016.parquet`); null for another name. */
export function labelledShardName(name: string, label: string): string | null {
  const m = /^([^/]*?-)(\d+-of-\d+\.[^/]+)$/.exec(name);
  return m === null ? null : `${m[1]}${label}-${m[2]}`;
}

/** The hidden name a shard is written under until the total is known (see {@link partialPath}). */
export function partialShardName(split: string, index: number, extension: string): string {
  return partialPath(`${split}-${pad(index)}${extension}`);
}

/** The hidden name a shard at `path` is written under until complete (`data/.x.parquet.partial`); no reader's `train-*` pattern matches it. */
export function partialPath(path: string): string {
  const slash = path.lastIndexOf("/") + 1;
  return `${path.slice(0, slash)}.${path.slice(slash)}.partial`;
}

function pad(n: number): string {
  return String(n).padStart(5, "0");
}
