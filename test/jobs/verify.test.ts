import { execFile } from "node:child_process";
import { copyFileSync, cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { parquetMetadata } from "hyparquet";
import { beforeAll, describe, expect, it } from "vitest";
import type { VerifyReport } from "../../src/jobs/verify-report.js";
import { sealedManifestText } from "../../src/output/manifest-seal.js";
import { tempDir } from "../helpers/temp-dir.js";
import { withoutLogLines } from "../helpers/log-lines.js";

const BIN = new URL("../../dist/cli/main.js", import.meta.url).pathname;
const FIXTURES = new URL("../../fixtures/records/", import.meta.url).pathname;
const root = tempDir("evalshard-verify-");
let counter = 0;

async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH ?? "" } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

async function verifyJson(dir: string): Promise<{ code: number; report: VerifyReport }> {
  const { code, stdout } = await cli("verify", dir, "--json");
  return { code, report: JSON.parse(stdout) as VerifyReport };
}

/** A copy of `template`, to tamper with. */
function copyOf(template: string): string {
  const dir = join(root, `copy-${counter++}`);
  cpSync(template, dir, { recursive: true, verbatimSymlinks: true });
  return dir;
}

const shards = (dir: string) => readdirSync(join(dir, "data")).filter((n) => !n.startsWith(".")).sort().map((n) => `data/${n}`);
const kinds = (report: VerifyReport) => report.findings.map((f) => `${f.kind} ${f.path}`);

let parquet = "";
let jsonl = "";
beforeAll(async () => {
  parquet = join(root, "parquet");
  jsonl = join(root, "jsonl");
  const inputs = ["sft-valid.ndjson", "sft-bad-lines.ndjson", "sft-duplicates.ndjson", "sft-filters.ndjson"].map((f) => join(FIXTURES, f));
  // Small shards: several of them, with different row counts; the bad lines give a quarantine.
  const a = await cli("convert", ...inputs, "--out", parquet, "--shard-bytes", "3000", "--max-quarantined", "1", "--seats", "all", "--no-filter-participation-gated");
  const b = await cli("convert", ...inputs, "--out", jsonl, "--to", "jsonl", "--compression", "gzip", "--shard-bytes", "3000", "--max-quarantined", "1", "--seats", "all", "--no-filter-participation-gated");
  expect([a.code, b.code, withoutLogLines(a.stderr), withoutLogLines(b.stderr)]).toEqual([0, 0, "", ""]);
}, 60_000);

describe("a fresh convert", () => {
  it("verifies: exit 0, every shard, row and quarantine entry of the manifest checked", async () => {
    for (const dir of [parquet, jsonl]) {
      const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8"));
      const { code, report } = await verifyJson(dir);
      expect(report.findings).toEqual([]);
      expect(code).toBe(0);
      expect(report).toMatchObject({ ok: true, layout: "huggingface" });
      expect(report.checked.shards).toBe(manifest.shards.length);
      expect(report.checked.shards).toBeGreaterThan(1);
      expect(report.checked.rows).toBe(manifest.records_out);
      expect(report.checked.quarantine_entries).toBe(manifest.quarantine.entries);
    }
  });

  it("prints a readable summary without --json", async () => {
    const { code, stdout } = await cli("verify", parquet);
    expect(code).toBe(0);
    expect(stdout).toMatch(/: OK \(\d+ shards, \d+ rows, \d+ bytes, \d+ quarantine entries match manifest.json\)/);
  });
});

describe("a shard's rows are the ones its Parquet footer declares", () => {
  it("with each codec, as hyparquet reads them", async () => {
    const input = join(FIXTURES, "sft-valid.ndjson");
    for (const compression of ["zstd", "gzip", "snappy", "none"]) {
      const out = join(root, `codec-${compression}`);
      expect((await cli("convert", input, "--out", out, "--compression", compression, "--shard-bytes", "3000")).code).toBe(0);
      const declared = shards(out).map((shard) => {
        const bytes = readFileSync(join(out, shard));
        return Number(parquetMetadata(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length)).num_rows);
      });
      const { code, report } = await verifyJson(out);
      expect([code, report.findings], compression).toEqual([0, []]);
      expect(report.checked.rows, compression).toBe(declared.reduce((a, b) => a + b, 0));
      expect(Math.min(...declared), compression).toBeGreaterThan(0);
    }
  });

  it("a truncated footer, or a file that is not Parquet, is unreadable, saying what is wrong", async () => {
    const dir = copyOf(parquet);
    const [torn, other] = shards(dir);
    const bytes = readFileSync(join(dir, torn!));
    const length = bytes.readUInt32LE(bytes.length - 8);
    // The footer's first 10 bytes, given as the whole footer.
    const footer = bytes.subarray(bytes.length - 8 - length, bytes.length - 8 - length + 10);
    const size = Buffer.alloc(4);
    size.writeUInt32LE(10);
    writeFileSync(join(dir, torn!), Buffer.concat([Buffer.from("PAR1"), footer, size, Buffer.from("PAR1")]));
    writeFileSync(join(dir, other!), "not parquet at all");
    const { report } = await verifyJson(dir);
    const unreadable = report.findings.filter((f) => f.kind === "shard_unreadable");
    expect(unreadable.map((f) => f.path)).toEqual([torn, other]);
    expect(unreadable[0]!.message).toMatch(/not a readable Parquet file: .+/);
    expect(unreadable[1]!.message).toMatch(/PAR1/);
  });
});

describe("a one-byte tamper in any shard fails", () => {
  it("at the first, a middle and the last byte of every shard, Parquet and gzipped JSONL", async () => {
    for (const template of [parquet, jsonl]) {
      for (const shard of shards(template)) {
        const size = readFileSync(join(template, shard)).length;
        for (const at of [0, Math.floor(size / 2), size - 1]) {
          const dir = copyOf(template);
          const bytes = readFileSync(join(dir, shard));
          bytes[at] = bytes[at]! ^ 0x01;
          writeFileSync(join(dir, shard), bytes);
          const { code, report } = await verifyJson(dir);
          expect(code, `${shard} byte ${at}`).toBe(5);
          expect(kinds(report)).toContain(`sha256_mismatch ${shard}`);
          rmSync(dir, { recursive: true });
        }
      }
    }
  }, 120_000);

  it("exit 5 and one line per finding in the readable summary", async () => {
    const dir = copyOf(parquet);
    const shard = shards(dir)[0]!;
    const bytes = readFileSync(join(dir, shard));
    bytes[10] = bytes[10]! ^ 0xff;
    writeFileSync(join(dir, shard), bytes);
    const { code, stdout } = await cli("verify", dir);
    expect(code).toBe(5);
    expect(stdout).toContain(`sha256_mismatch: ${shard} has sha256`);
  });
});

describe("a shard replaced by another valid Parquet file with a different row count fails", () => {
  it("reports the rows the footer declares beside the manifest's", async () => {
    const dir = copyOf(parquet);
    const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")) as { shards: { path: string; rows: number }[] };
    const [a, b] = [...manifest.shards].sort((x, y) => x.rows - y.rows).filter((s, i, all) => i === 0 || s.rows !== all[0]!.rows);
    expect(a !== undefined && b !== undefined && a.rows !== b.rows).toBe(true);
    copyFileSync(join(dir, b!.path), join(dir, a!.path));
    const { code, report } = await verifyJson(dir);
    expect(code).toBe(5);
    expect(report.findings).toContainEqual(expect.objectContaining({ kind: "rows_mismatch", path: a!.path, expected: a!.rows, actual: b!.rows }));
  });
});

describe("each damage has its own finding", () => {
  it("an extra shard under data/", async () => {
    const dir = copyOf(parquet);
    copyFileSync(join(dir, shards(dir)[0]!), join(dir, "data/train-00099-of-00100.parquet"));
    const { code, report } = await verifyJson(dir);
    expect([code, kinds(report)]).toEqual([5, ["shard_unlisted data/train-00099-of-00100.parquet"]]);
  });

  it("a listed shard that is missing", async () => {
    const dir = copyOf(jsonl);
    const gone = shards(dir)[1]!;
    rmSync(join(dir, gone));
    const { code, report } = await verifyJson(dir);
    expect([code, kinds(report)]).toEqual([5, [`shard_missing ${gone}`]]);
  });

  it("a truncated quarantine", async () => {
    const dir = copyOf(parquet);
    const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8"));
    const path = join(dir, manifest.quarantine.path);
    const lines = readFileSync(path, "utf8").split("\n").filter(Boolean);
    writeFileSync(path, `${lines.slice(0, -1).join("\n")}\n`);
    const { code, report } = await verifyJson(dir);
    expect(code).toBe(5);
    expect(kinds(report)).toEqual([`bytes_mismatch ${manifest.quarantine.path}`, `sha256_mismatch ${manifest.quarantine.path}`, `quarantine_entries_mismatch ${manifest.quarantine.path}`]);
    expect(report.findings).toContainEqual(
      expect.objectContaining({ kind: "quarantine_entries_mismatch", path: manifest.quarantine.path, expected: lines.length, actual: lines.length - 1 }),
    );
  });

  it("a missing quarantine, and a stray file in _quarantine/", async () => {
    const dir = copyOf(parquet);
    const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8"));
    rmSync(join(dir, manifest.quarantine.path));
    writeFileSync(join(dir, "_quarantine/other.ndjson"), "{}\n");
    const { report } = await verifyJson(dir);
    expect(kinds(report).sort()).toEqual([`quarantine_missing ${manifest.quarantine.path}`, "quarantine_unlisted _quarantine/other.ndjson"]);
  });

  it("no manifest, or a manifest that is not one", async () => {
    const dir = copyOf(parquet);
    writeFileSync(join(dir, "manifest.json"), "{ torn");
    expect(kinds((await verifyJson(dir)).report)).toEqual(["manifest_unreadable manifest.json"]);
    rmSync(join(dir, "manifest.json"));
    const { code, report } = await verifyJson(dir);
    expect([code, kinds(report)]).toEqual([5, ["manifest_missing manifest.json"]]);
  });

  it("a torn Parquet shard is unreadable, not just a different hash", async () => {
    const dir = copyOf(parquet);
    const shard = shards(dir)[0]!;
    const bytes = readFileSync(join(dir, shard));
    writeFileSync(join(dir, shard), bytes.subarray(0, bytes.length - 100));
    const { report } = await verifyJson(dir);
    expect(kinds(report)).toEqual([`bytes_mismatch ${shard}`, `sha256_mismatch ${shard}`, `shard_unreadable ${shard}`]);
  });
});

describe("a nightly dataset from the emulator", () => {
  let demo = "";
  beforeAll(async () => {
    demo = join(root, "demo");
    const { code, stdout } = await cli("demo", "--out", demo, "--runs", "120", "--seed", "3");
    expect(code).toBe(0);
    expect(stdout).toMatch(/night 2 \(emulator epoch 1\)/);
  }, 120_000);

  it("verifies after two nights, ledger included", async () => {
    for (const name of ["nightly-sft", "nightly-rl", "nightly-dpo"]) {
      const { code, report } = await verifyJson(join(demo, name));
      expect(report.findings).toEqual([]);
      expect(code).toBe(0);
      expect(report.layout).toBe("huggingface-buckets");
      expect(report.checked.ledger_keys).toBe(report.checked.rows);
      expect(report.checked.rows).toBeGreaterThan(0);
    }
  });

  it("a tampered ledger fails: a byte changed", async () => {
    const dir = copyOf(join(demo, "nightly-sft"));
    const path = join(dir, "_state/ledger.ndjson");
    const lines = readFileSync(path, "utf8").split("\n");
    const entry = JSON.parse(lines[0]!);
    lines[0] = JSON.stringify({ ...entry, sha256: `0${entry.sha256.slice(1)}` === entry.sha256 ? `1${entry.sha256.slice(1)}` : `0${entry.sha256.slice(1)}` });
    writeFileSync(path, lines.join("\n"));
    const { code, report } = await verifyJson(dir);
    expect([code, kinds(report)]).toEqual([5, ["ledger_sha256_mismatch _state/ledger.ndjson"]]);
  });

  it("a tampered ledger fails even with a state made to match: a key moved to another bucket, a key removed", async () => {
    const dir = copyOf(join(demo, "nightly-sft"));
    const path = join(dir, "_state/ledger.ndjson");
    const lines = readFileSync(path, "utf8").split("\n").filter(Boolean);
    const moved = JSON.parse(lines[0]!);
    const state = JSON.parse(readFileSync(join(dir, "_state/state.json"), "utf8"));
    lines[0] = JSON.stringify({ ...moved, bucket: (moved.bucket + 1) % state.buckets });
    const removed = JSON.parse(lines.pop()!);
    const text = `${lines.join("\n")}\n`;
    writeFileSync(path, text);
    const { createHash } = await import("node:crypto");
    writeFileSync(join(dir, "_state/state.json"), JSON.stringify({ ...state, rows: lines.length, ledger_sha256: createHash("sha256").update(text).digest("hex") }));
    const { code, report } = await verifyJson(dir);
    expect(code).toBe(5);
    const found = kinds(report);
    expect(found).toContain("ledger_wrong_bucket _state/ledger.ndjson");
    const shardOf = (bucket: number) => state.shards.find((s: { bucket: number }) => s.bucket === bucket)?.path;
    for (const bucket of new Set([moved.bucket, removed.bucket])) expect(found).toContain(`ledger_bucket_rows_mismatch ${shardOf(bucket)}`);
  });

  it("a shard deleted from the dataset and from a manifest forged to agree (counts, night, seal) still fails through the ledger", async () => {
    const dir = copyOf(join(demo, "nightly-sft"));
    const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8"));
    const [gone, ...rest] = manifest.shards;
    rmSync(join(dir, gone.path));
    const night = { ...manifest.night };
    let left = gone.rows;
    for (const part of ["unchanged", "added", "replaced"]) {
      const take = Math.min(left, night[part]);
      night[part] -= take;
      left -= take;
    }
    const dropped = { ...manifest.dropped, flagged: (manifest.dropped.flagged ?? 0) + gone.rows };
    // The stats too (issue 36): verify checks their rows against the shards listed.
    const stats = { ...manifest.stats, rows: manifest.stats.rows - gone.rows, splits: { train: manifest.stats.splits.train - gone.rows } };
    writeFileSync(join(dir, "manifest.json"), sealedManifestText({ ...manifest, shards: rest, records_out: manifest.records_out - gone.rows, dropped, night, stats }));
    const { code, report } = await verifyJson(dir);
    expect(code).toBe(5);
    expect(kinds(report)).toEqual([`state_shard_mismatch ${gone.path}`, `ledger_bucket_missing ${gone.path}`]);
  });
});
