import fc from "fast-check";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import { FORMAT_NAMES } from "../../src/formats/format.js";
import { FORMATS } from "../../src/formats/index.js";
import { datasetCard } from "../../src/output/dataset-card.js";
import { yamlOf } from "../../src/output/yaml-of.js";
import type { JsonData } from "../../src/output/yaml-of.js";

const frontMatter = (card: string): unknown => parse(card.split("---\n")[1] ?? "");

describe("yamlOf: block YAML for the dataset card, without the yaml package", () => {
  it("reads back as the same data (property), YAML 1.1 words and odd strings quoted", () => {
    const key = fc.oneof(fc.constantFrom("name", "dtype", "on", "yes", "No", "null", "1", "a b", "x:y", "-", "#c", ""), fc.string({ maxLength: 8 }));
    const scalar = fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom("true", "Off", "~", "data/train-*", "*x", "'q'", "a\nb"), fc.integer(), fc.boolean(), fc.constant(null));
    const { value } = fc.letrec<{ value: JsonData }>((tie) => ({
      value: fc.oneof({ depthSize: "small", withCrossShrink: true }, scalar, fc.array(tie("value"), { maxLength: 4 }), fc.dictionary(key, tie("value"), { maxKeys: 4 })),
    }));
    fc.assert(
      fc.property(fc.dictionary(key, value, { maxKeys: 5 }), (data) => {
        // YAML 1.1 as well: PyYAML, which `datasets` reads cards with, takes `on`, `yes`... as booleans.
        expect(parse(yamlOf(data))).toEqual(data);
        expect(parse(yamlOf(data), { version: "1.1" })).toEqual(data);
      }),
      { numRuns: 300 },
    );
  });

  it.each(FORMAT_NAMES)("the %s card's front matter parses to what it describes", (name) => {
    const format = FORMATS[name];
    const card = datasetCard({ format, columns: format.columns, shards: [{ path: "data/train-00000-of-00001.parquet", rows: 3, bytes: 100, sha256: "x" }] });
    const meta = frontMatter(card) as { configs: unknown; dataset_info: { splits: unknown; features: unknown[] } };
    expect(meta.configs).toEqual([{ config_name: "default", data_files: [{ split: "train", path: "data/train-*" }] }]);
    expect(meta.dataset_info.splits).toEqual([{ name: "train", num_examples: 3, num_bytes: 100 }]);
    expect(meta.dataset_info.features.length).toBe(format.columns.length);
  });
});
