import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { convert } from "../../src/index.js";
import type { ConvertOptions } from "../../src/index.js";
import type { Manifest } from "../../src/output/manifest.js";
import { FIXTURES } from "../helpers/flow.js";
import { tempDir } from "../helpers/temp-dir.js";

// `--to jsonl` (the units encode the lines) writes the same bytes in both executors: every shard file, the
// quarantine and the manifest's counts, on the golden fixtures' cases and on generated exports.
const root = tempDir("evalshard-jsonl-");
const records = (name: string) => `${FIXTURES}records/${name}.ndjson`;
const GENERATOR = new URL("../../bench/generate-exports.mjs", import.meta.url).pathname;
let runs = 0;

/** `format`'s export of about `mib` MiB, as the benchmarks generate them; written once (same seed, same bytes). */
function generated(format: string, mib: number): string {
  const file = join(root, `${format}-${mib}.ndjson`);
  if (!existsSync(file)) execFileSync(process.execPath, [GENERATOR, "--format", format, "--mib", String(mib), "--seed", "5", "--out", file]);
  return file;
}

const filesOf = (dir: string): Record<string, string> => {
  const data = join(dir, "data");
  return Object.fromEntries(readdirSync(data).sort().map((f) => [f, readFileSync(join(data, f)).toString("base64")]));
};

const counted = (m: Manifest) => ({ records_in: m.records_in, records_out: m.records_out, dropped: m.dropped, dropped_pairs: m.dropped_pairs, quarantined: m.quarantined, stream_errors: m.stream_errors, shards: m.shards, split: m.split, text_audit: m.text_audit, quarantine: m.quarantine, view: m.view });

async function sameLines(options: Omit<ConvertOptions, "out">): Promise<Manifest> {
  const n = runs++;
  const run = async (name: string, extra: Partial<ConvertOptions>) => {
    const out = join(root, `${n}-${name}`);
    const { manifest } = await convert({ ...options, to: "jsonl", out, publishAnyway: true, ...extra });
    return { out, manifest };
  };
  const main = await run("main", { workers: 0 });
  const threads = await run("threads", { workers: 2 });
  expect(counted(threads.manifest)).toEqual(counted(main.manifest));
  expect(filesOf(threads.out)).toEqual(filesOf(main.out));
  const quarantine = (r: typeof main) => (r.manifest.quarantine === null ? "" : readFileSync(join(r.out, r.manifest.quarantine.path), "utf8"));
  expect(quarantine(threads)).toBe(quarantine(main));
  return main.manifest;
}

describe("JSON Lines: main's thread and worker threads write the same bytes", () => {
  it("on every SFT fixture together: bad lines, duplicates, filters, gating, stream errors, long lines", async () => {
    const m = await sameLines({
      inputs: ["sft-valid", "sft-bad-lines", "sft-duplicates", "sft-filters", "sft-stream-errors", "sft-unknown-fields", "sft-lone-surrogate", "sft-long-line"].map(records),
      scorecards: records("scorecards-gated"),
      maxLineBytes: 2000,
      seats: "all",
    });
    expect(m.records_out).toBeGreaterThan(0);
    expect(Object.keys(m.quarantined).length).toBeGreaterThan(2);
  });

  it("on RL and DPO fixtures, with their semantic checks and pruned pairs", async () => {
    await sameLines({ inputs: [records("rl-valid"), records("rl-invalid-trajectory")] });
    await sameLines({ inputs: [records("dpo-valid"), records("dpo-invalid-pair")] });
  });

  it("gzip and zstd, one row per shard, later minors, untrusted text kept or redacted, split", async () => {
    const inputs = [records("sft-valid"), records("sft-later-minor"), records("sft-filters")];
    const options = { inputs, acceptLaterMinor: true, untrusted: { "coaching.guidance": "redact", transcript: "keep" }, filters: { flagged: false }, seats: "all" } as const;
    await sameLines({ ...options, shardRows: 1, compression: "gzip" });
    const m = await sameLines({ ...options, compression: "zstd", split: { train: 0.5, test: 0.5 } });
    expect(m.shards.map((s) => s.split)).toContain("test");
  });

  it("on generated SFT and RL exports, rotated by size across many units", { timeout: 240_000 }, async () => {
    for (const format of ["sft", "rl"]) {
      const m = await sameLines({ inputs: [generated(format, 10)], shardBytes: 3 << 20, compression: "none" });
      expect(m.shards.length).toBeGreaterThan(2);
    }
  });
});

describe("JSON Lines: a training view's rows are the same bytes on main's thread and worker threads", () => {
  const RL_VIEWS = records("views-rl");

  it("openai-sft, and every RL view written --to jsonl, with their view sections", { timeout: 240_000 }, async () => {
    for (const view of ["openai-sft", "trl-prompt-completion", "trl-kto", "rl-steps"] as const) {
      const m = await sameLines({ inputs: [RL_VIEWS, records("rl-selection")], view, shardRows: 3, compression: "none" });
      expect(m.view?.rows_out).toBeGreaterThan(2);
    }
    const m = await sameLines({ inputs: [RL_VIEWS], view: "openai-sft", onInjection: "drop", systemPrompt: "Play fair.", compression: "gzip" });
    expect(m.view?.steps_dropped?.injection).toBeGreaterThan(0);
  });

  it("openai-dpo and trl-preference, their prompts from --context RL records", { timeout: 240_000 }, async () => {
    for (const view of ["openai-dpo", "trl-preference"] as const) {
      const m = await sameLines({ inputs: [records("views-dpo"), records("dpo-valid")], view, context: [RL_VIEWS], shardRows: 2, compression: "none" });
      expect(m.view?.rows_out).toBeGreaterThan(2);
    }
  });

  it("on a generated RL export, rotated by size across many units", { timeout: 240_000 }, async () => {
    const m = await sameLines({ inputs: [generated("rl", 10)], view: "openai-sft", shardBytes: 2 << 20, compression: "none" });
    expect(m.shards.length).toBeGreaterThan(2);
  });
});
