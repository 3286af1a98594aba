/** A shard's published name in the Hugging Face layout, e.g. `train-00000-of-00003.parquet`. */
export function shardName(split: string, index: number, total: number, extension: string): string {
  return `${split}-${pad(index)}-of-${pad(total)}${extension}`;
}

/** The hidden name a shard is written under until the total is known; no reader's `train-*` pattern matches it. */
export function partialShardName(split: string, index: number, extension: string): string {
  return `.${split}-${pad(index)}${extension}.partial`;
}

function pad(n: number): string {
  return String(n).padStart(5, "0");
}
