import { createHash } from "node:crypto";
import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { convert } from "../../src/index.js";
import type { ConvertOptions } from "../../src/index.js";
import { gzipOneRowShards } from "../helpers/convert-cases.js";
import { FIXTURES } from "../helpers/flow.js";
import { largeSftCorpus } from "../helpers/large-sft-corpus.js";
import { tempDir } from "../helpers/temp-dir.js";

// The parallel engine's shards, byte for byte, as they were before the plan/engine/output redesign
// (issue 17). A change that alters one byte of a shard fails here; regenerate with GOLDEN_WRITE=1
// only when a change to the output is intended, and say why in the commit.
const GOLDEN = new URL("./parallel-shards.json", import.meta.url);
const root = tempDir("evalshard-golden-");
const records = (name: string) => `${FIXTURES}records/${name}.ndjson`;
// sft-valid (and the corpus made of it) holds an `aic` seat, which the default `--seats agent` drops since
// issue 19: the recorded shards are of every seat, so the SFT cases ask for `seats: "all"`.

const CASES: Record<string, () => Omit<ConvertOptions, "out">> = {
  "sft-all-fixtures": () => ({
    inputs: ["sft-valid", "sft-bad-lines", "sft-duplicates", "sft-filters", "sft-stream-errors", "sft-unknown-fields", "sft-lone-surrogate", "sft-long-line"].map(records),
    scorecards: records("scorecards-gated"),
    maxLineBytes: 2000,
    seats: "all",
  }),
  rl: () => ({ inputs: [records("rl-valid"), records("rl-invalid-trajectory")] }),
  dpo: () => ({ inputs: [records("dpo-valid"), records("dpo-invalid-pair")] }),
  "sft-gzip-one-row-shards": () => ({ ...gzipOneRowShards(), seats: "all" }),
  "sft-40MiB": () => ({ inputs: [largeSftCorpus(root)], shardRows: 9_000, seats: "all" }),
};

async function shardHashes(name: string, options: Omit<ConvertOptions, "out">, workers: number): Promise<Record<string, string>> {
  const out = join(root, `${name}-${workers}`);
  // Fixtures full of bad lines: published over the publish guards (issue 20), which the shard bytes do not depend on.
  await convert({ ...options, out, workers, publishAnyway: true });
  const data = join(out, "data");
  const hashes: Record<string, string> = {};
  for (const file of readdirSync(data).sort()) hashes[file] = createHash("sha256").update(readFileSync(join(data, file))).digest("hex");
  return hashes;
}

// Both executors: worker threads, and main's own thread (--workers 0); the recorded hashes are written from the first.
describe.each([2, 0])("the parallel engine's shards are byte-identical to the recorded ones (--workers %i)", (workers) => {
  const golden = existsSync(GOLDEN) ? (JSON.parse(readFileSync(GOLDEN, "utf8")) as Record<string, Record<string, string>>) : {};
  const written: Record<string, Record<string, string>> = {};
  for (const [name, options] of Object.entries(CASES)) {
    it(name, { timeout: 180_000 }, async () => {
      const hashes = await shardHashes(name, options(), workers);
      if (process.env.GOLDEN_WRITE === "1" && workers !== 0) {
        written[name] = hashes;
        writeFileSync(GOLDEN, `${JSON.stringify({ ...golden, ...written }, null, 2)}\n`);
      } else {
        expect(hashes).toEqual(process.env.GOLDEN_WRITE === "1" ? written[name] : golden[name]);
      }
    });
  }
});
