import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { FORMATS } from "../../src/formats/index.js";
import { hfFeatures } from "../../src/schema/hf-features.js";
import { datasetCard } from "../../src/output/dataset-card.js";
import type { ShardInfo } from "../../src/output/shard-format.js";

const shards: ShardInfo[] = [
  { path: "data/train-00000-of-00002.parquet", rows: 10, bytes: 1000, sha256: "a".repeat(64) },
  { path: "data/train-00001-of-00002.parquet", rows: 3, bytes: 250, sha256: "b".repeat(64) },
];

function frontMatter(card: string): Record<string, unknown> {
  const m = /^---\n([\s\S]*?)\n---\n/.exec(card);
  expect(m).not.toBeNull();
  return parse(m![1]!) as Record<string, unknown>;
}

describe("datasetCard", () => {
  const card = datasetCard({ format: FORMATS.sft, columns: FORMATS.sft.columns, shards });

  it("points datasets at data/train-* as the train split of the default config", () => {
    expect(frontMatter(card).configs).toEqual([{ config_name: "default", data_files: [{ split: "train", path: "data/train-*" }] }]);
  });

  it("declares the features and the split size datasets verifies", () => {
    const info = frontMatter(card).dataset_info as Record<string, unknown>;
    expect(info.features).toEqual(hfFeatures(FORMATS.sft.columns));
    expect(info.splits).toEqual([{ name: "train", num_examples: 13, num_bytes: 1250 }]);
  });

  it("tells people what the dataset is and where the manifest and quarantine are", () => {
    const text = card.slice(card.indexOf("\n---\n") + 5);
    expect(text).toContain("`format_version` 1.1");
    expect(text).toContain("13 rows in 2 Parquet shards");
    expect(text).toContain("manifest.json");
    expect(text).toContain("_quarantine/");
    expect(text).toContain("`trace_steps[]`");
    expect(text).toContain("`scores.per_trait`");
  });

  it("uses the given split name", () => {
    const meta = frontMatter(datasetCard({ format: FORMATS.dpo, columns: FORMATS.dpo.columns, shards, splitName: "validation" }));
    expect(meta.configs).toEqual([{ config_name: "default", data_files: [{ split: "validation", path: "data/validation-*" }] }]);
  });

  it("gives JSONL shards the Parquet shards' features: their rows share the shape (src/sinks/tabular-row.ts)", () => {
    const jsonl = shards.map((s) => ({ ...s, path: s.path.replace(".parquet", ".jsonl.zst") }));
    const info = frontMatter(datasetCard({ format: FORMATS.rl, columns: FORMATS.rl.columns, shards: jsonl })).dataset_info as Record<string, unknown>;
    const parquet = frontMatter(datasetCard({ format: FORMATS.rl, columns: FORMATS.rl.columns, shards })).dataset_info as Record<string, unknown>;
    expect(info.features).toEqual(parquet.features);
    expect(info.features).toBeDefined();
    expect(info.splits).toEqual([{ name: "train", num_examples: 13, num_bytes: 1250 }]);
  });

  it("quotes awkward names in YAML", () => {
    const columns = [{ name: "key: value # not a comment", type: { kind: "string" as const }, nullable: false }];
    const info = frontMatter(datasetCard({ format: FORMATS.sft, columns, shards })).dataset_info as Record<string, unknown>;
    expect(info.features).toEqual([{ name: "key: value # not a comment", dtype: "string" }]);
  });
});
