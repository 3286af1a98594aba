import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Readable } from "node:stream";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { convert } from "../../src/jobs/convert.js";
import { ConfigError, LockedError } from "../../src/core/errors.js";
import type { Manifest } from "../../src/output/manifest.js";
import { reconciles } from "../../src/output/manifest.js";
import { lockOutput } from "../../src/output/lock-output.js";
import { FIXTURES } from "../helpers/flow.js";
import { readParquetRows } from "../helpers/read-parquet.js";
import { visibleEntries } from "../helpers/local-layout.js";
import { tempDir } from "../helpers/temp-dir.js";

const fx = (name: string) => `${FIXTURES}records/${name}`;
const EXAMPLE = ["sft-valid.ndjson", "sft-bad-lines.ndjson", "sft-duplicates.ndjson", "sft-filters.ndjson", "sft-stream-errors.ndjson"].map(fx);
const sha256 = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");
const readManifest = (out: string) => JSON.parse(readFileSync(join(out, "manifest.json"), "utf8")) as Manifest;
const root = tempDir();
let n = 0;
const outDir = () => join(root, `out-${n++}`);

describe("convert", () => {
  it("publishes validated, de-duplicated, filtered, stripped shards with a reconciling manifest", async () => {
    const out = outDir();
    const { manifest, decision } = await convert({ inputs: EXAMPLE, out, scorecards: fx("scorecards-gated.ndjson"), maxQuarantined: 1, maxStreamErrors: 2, seats: "all" });
    expect(decision).toMatchObject({ tripped: [], published: true, rejected_to: null });
    expect(manifest.stream_error_runs).toEqual([1, 3]);
    expect(manifest).toMatchObject({
      records_in: 28,
      records_out: 11,
      dropped: { duplicate: 1, superseded: 2, flagged: 1, unscored: 1, no_trace: 2, participation_gated: 1 },
      quarantined: { invalid_json: 2, schema: 4, unsupported_format_version: 2, mixed_format: 1 },
      stream_errors: 2,
      format: { name: "sft", version_field: "format_version", version: "1.1" },
      output: { to: "parquet", compression: "zstd", layout: "huggingface", split: "train" },
      untrusted: { "coaching.guidance": "drop", "scores.win_conditions[].description": "drop", transcript: "drop" },
      options: { scorecards: { path: fx("scorecards-gated.ndjson"), gated_runs: 1 } },
      quarantine: { path: "_quarantine/sft.ndjson", entries: 9 },
    });
    expect(reconciles(manifest)).toBe(true);
    expect(readManifest(out)).toEqual(manifest);
    const { rows } = await readParquetRows(manifest.shards.map((s) => join(out, s.path)));
    expect(rows.map((r) => r.run_id).sort()).toEqual(["run-001", "run-002", "run-003", "run-020", "run-027", "run-040", "run-042", "run-050", "run-050", "run-051", "run-060"]);
    expect(JSON.stringify(rows)).not.toContain("Ignore all previous");
  });

  it("records every input's size and sha256, and every shard's", async () => {
    const out = outDir();
    const { manifest } = await convert({ inputs: [fx("sft-valid.ndjson")], out });
    expect(manifest.inputs).toEqual([{ path: fx("sft-valid.ndjson"), bytes: readFileSync(fx("sft-valid.ndjson")).length, sha256: sha256(fx("sft-valid.ndjson")) }]);
    for (const shard of manifest.shards) {
      expect(shard.sha256).toBe(sha256(join(out, shard.path)));
      expect(shard.bytes).toBe(readFileSync(join(out, shard.path)).length);
    }
    expect(Date.parse(manifest.finished_at)).toBeGreaterThanOrEqual(Date.parse(manifest.started_at));
    expect(manifest.evalshard_version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it("quarantines each bad line with source, line, offset, reason, detail and raw", async () => {
    const out = outDir();
    await convert({ inputs: [fx("sft-bad-lines.ndjson")], out, maxQuarantined: 1 });
    const entries = readFileSync(join(out, "_quarantine/sft.ndjson"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(entries).toHaveLength(9);
    const lines = readFileSync(fx("sft-bad-lines.ndjson"), "utf8").split("\n");
    for (const e of entries) {
      expect(e.source).toBe(fx("sft-bad-lines.ndjson"));
      const line = lines[e.line - 1] as string;
      expect(readFileSync(fx("sft-bad-lines.ndjson")).subarray(e.offset, e.offset + e.raw_length).toString()).toBe(line);
      // As it came, but for untrusted text, which the default policy drops here as from the dataset.
      if (e.raw_policy === undefined) expect(e.raw).toBe(line);
      else {
        expect(e.raw_policy).toBe("stripped");
        const { coaching, scores, ...rest } = JSON.parse(line);
        const kept = JSON.parse(e.raw);
        expect(kept).toMatchObject(rest);
        expect(JSON.stringify(kept)).not.toMatch(/Ignore all previous instructions/);
        expect(kept.coaching?.guidance).toBeUndefined();
        expect(kept.scores?.win_conditions?.every((w: { description?: string }) => w.description === undefined) ?? true).toBe(true);
        void coaching, void scores;
      }
      expect(e.detail).not.toBe("");
    }
    expect(entries.filter((e) => e.raw_policy === "stripped").length).toBeGreaterThan(0);
    expect(entries[1]).toMatchObject({ line: 3, reason: "invalid_json", raw: "not json at all", raw_truncated: false });
  });

  it("quarantines an over-long line without holding it, with its full length", async () => {
    const out = outDir();
    const { manifest } = await convert({ inputs: [fx("sft-long-line.ndjson")], out, maxLineBytes: 4096, maxQuarantined: 1 });
    expect(manifest.quarantined).toEqual({ line_too_long: 1 });
    const [entry] = readFileSync(join(out, "_quarantine/sft.ndjson"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(entry).toMatchObject({ line: 2, reason: "line_too_long", raw_truncated: true });
    // The cut head names untrusted fields and cannot be walked: the default policy keeps its sha256 only.
    expect(entry).toMatchObject({ raw_policy: "redacted", raw: expect.stringMatching(/^\[evalshard:redacted\] sha256=/) });
    expect(entry.raw_length).toBe(Buffer.byteLength(readFileSync(fx("sft-long-line.ndjson"), "utf8").split("\n")[1]!));
  });

  it("reports a quarantined share over the limit, publishing only with publishAnyway", async () => {
    const out = outDir();
    const result = await convert({ inputs: [fx("sft-bad-lines.ndjson")], out, publishAnyway: true });
    expect(result.decision).toMatchObject({ tripped: [{ guard: "max_quarantined", limit: 0.05 }], published: true, publish_anyway: true });
    expect(result.manifest.quarantined_share).toBeCloseTo(9 / 11);
    expect(existsSync(join(out, "manifest.json"))).toBe(true);
  });

  it("rotates shards and names them in the Hugging Face layout", async () => {
    const out = outDir();
    const { manifest } = await convert({ inputs: [fx("sft-valid.ndjson"), fx("sft-duplicates.ndjson")], out, shardRows: 2, seats: "all" });
    expect(manifest.shards.map((s) => s.path)).toEqual(["data/train-00000-of-00003.parquet", "data/train-00001-of-00003.parquet", "data/train-00002-of-00003.parquet"]);
    expect(manifest.shards.map((s) => s.rows)).toEqual([2, 2, 2]);
    expect(readdirSync(join(out, "data")).sort()).toEqual(manifest.shards.map((s) => s.path.slice(5)));
  });

  it("writes JSONL, gzip and zstd JSONL", async () => {
    for (const compression of ["none", "gzip", "zstd"] as const) {
      const out = outDir();
      const { manifest } = await convert({ inputs: [fx("sft-valid.ndjson")], out, to: "jsonl", compression, seats: "all" });
      const ext = { none: ".jsonl", gzip: ".jsonl.gz", zstd: ".jsonl.zst" }[compression];
      expect(manifest.shards[0]?.path).toBe(`data/train-00000-of-00001${ext}`);
      if (compression === "gzip") {
        const rows = gunzipSync(readFileSync(join(out, manifest.shards[0]!.path))).toString().trim().split("\n").map((l) => JSON.parse(l));
        expect(rows.map((r) => r.run_id)).toEqual(["run-001", "run-002", "run-003"]);
        expect(rows[0].coaching).toEqual({ weak_traits: ["patience"] });
      }
    }
  });

  it("reads stdin", async () => {
    const out = outDir();
    const { manifest } = await convert({ inputs: ["-"], out, stdin: Readable.from([readFileSync(fx("sft-valid.ndjson"))]), seats: "all" });
    expect(manifest.records_out).toBe(3);
    expect(manifest.inputs[0]).toMatchObject({ path: "-", sha256: sha256(fx("sft-valid.ndjson")) });
  });

  it("applies untrusted overrides and switched-off filters, and records them", async () => {
    const out = outDir();
    const { manifest } = await convert({
      inputs: [fx("sft-filters.ndjson")],
      out,
      to: "jsonl",
      compression: "none",
      untrusted: { "coaching.guidance": "redact" },
      filters: { flagged: false, no_trace: false },
    });
    expect(manifest.records_out).toBe(5);
    expect(manifest.options.filters).toEqual({ flagged: false, unscored: true, no_trace: false, no_pairs: true, participation_gated: true });
    expect(manifest.untrusted["coaching.guidance"]).toBe("redact");
    expect(manifest.warnings.join(" ")).toMatch(/no scorecards/);
    const text = readFileSync(join(out, manifest.shards[0]!.path), "utf8");
    expect(text).toContain("[evalshard:redacted] sha256=");
  });

  it("leaves the earlier output untouched when a run fails", async () => {
    const out = outDir();
    const first = await convert({ inputs: [fx("sft-valid.ndjson")], out });
    const before = readFileSync(join(out, "manifest.json"), "utf8");
    await expect(convert({ inputs: [fx("sft-valid.ndjson")], out, scorecards: join(root, "missing.ndjson") })).rejects.toThrow(/missing\.ndjson/);
    expect(readFileSync(join(out, "manifest.json"), "utf8")).toBe(before);
    for (const s of first.manifest.shards) expect(sha256(join(out, s.path))).toBe(s.sha256);
    expect(visibleEntries(out)).toEqual(["README.md", "_quarantine", "data", "manifest.json"]);
  });

  it("replaces the earlier output whole, leaving no stale shard", async () => {
    const out = outDir();
    await convert({ inputs: [fx("sft-valid.ndjson")], out, shardRows: 1 });
    const { manifest } = await convert({ inputs: [fx("sft-valid.ndjson")], out });
    expect(readdirSync(join(out, "data"))).toEqual(["train-00000-of-00001.parquet"]);
    expect(manifest.shards).toHaveLength(1);
  });

  it("refuses an output another job holds", async () => {
    const out = outDir();
    const release = await lockOutput(out);
    try {
      await expect(convert({ inputs: [fx("sft-valid.ndjson")], out })).rejects.toThrow(LockedError);
    } finally {
      await release();
    }
  });

  it("rejects bad options naming the value", async () => {
    await expect(convert({ inputs: [fx("sft-valid.ndjson")], out: outDir(), shardRows: 0 })).rejects.toThrow(/shardRows.*got 0/);
    await expect(convert({ inputs: [fx("sft-valid.ndjson")], out: outDir(), to: "jsonl", compression: "snappy" })).rejects.toThrow(ConfigError);
    await expect(convert({ inputs: [fx("sft-valid.ndjson")], out: outDir(), untrusted: { "coaching.guidence": "keep" } })).rejects.toThrow(/coaching\.guidence/);
  });

  it("writes an empty dataset with its schema when nothing survives", async () => {
    const out = outDir();
    const file = join(root, "all-flagged.ndjson");
    writeFileSync(file, readFileSync(fx("sft-filters.ndjson"), "utf8").split("\n").filter((l) => l.includes('"flagged":true')).join("\n"));
    const { manifest } = await convert({ inputs: [file], out });
    expect(manifest.records_out).toBe(0);
    expect(manifest.shards).toHaveLength(1);
    const { columns, rows } = await readParquetRows([join(out, manifest.shards[0]!.path)]);
    expect(rows).toHaveLength(0);
    expect(columns.map((c) => c.name)).toContain("run_id");
  });

  it("asks for --format when no line names one", async () => {
    const file = join(root, "nameless.ndjson");
    writeFileSync(file, '{"run_id": "x"}\n');
    await expect(convert({ inputs: [file], out: outDir() })).rejects.toThrow(/--format/);
    const { manifest } = await convert({ inputs: [file], out: outDir(), format: "sft", maxQuarantined: 1 });
    expect(manifest.quarantined).toEqual({ unsupported_format_version: 1 });
  });

  it("converts RL and DPO records", async () => {
    const rl = await convert({ inputs: [fx("rl-valid.ndjson"), fx("rl-invalid-trajectory.ndjson")], out: outDir(), maxQuarantined: 1 });
    expect(rl.manifest).toMatchObject({ records_out: 3, dropped: { no_trace: 1 }, quarantined: { invalid_trajectory: 3 }, format: { name: "rl" } });
    const dpo = await convert({ inputs: [fx("dpo-valid.ndjson"), fx("dpo-invalid-pair.ndjson")], out: outDir(), maxQuarantined: 1 });
    expect(dpo.manifest).toMatchObject({ records_out: 3, quarantined: { invalid_pair: 1 }, format: { name: "dpo" } });
  });
});
