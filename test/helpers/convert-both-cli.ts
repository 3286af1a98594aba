import { execFile } from "node:child_process";
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { expect } from "vitest";
import { readParquetRows } from "./read-parquet.js";
import { tempDir } from "./temp-dir.js";

// The CLI as users run it (the built bin), in both executors: main's thread alone and worker threads.
const BIN = new URL("../../dist/cli/main.js", import.meta.url).pathname;
const root = tempDir("evalshard-both-");
const run = promisify(execFile);
let n = 0;

export interface CliOutcome {
  readonly manifest: Record<string, unknown> & { quarantined: Record<string, number>; dropped: Record<string, number>; records_out: number; dropped_pairs?: Record<string, number> };
  /** Quarantine entries: reason, detail and input line, in input order. */
  readonly quarantine: { reason: string; detail: string; line: number }[];
  readonly rows: Record<string, unknown>[];
}

async function convert(workers: number, file: string, extra: readonly string[]): Promise<CliOutcome> {
  const out = join(root, `out-${n++}-${workers}`);
  // --max-quarantined 1: a run of only bad lines still publishes, so the quarantine can be read back.
  await run(process.execPath, [BIN, "convert", file, "--out", out, "--workers", String(workers), "--max-quarantined", "1", ...extra]);
  const manifest = JSON.parse(readFileSync(join(out, "manifest.json"), "utf8")) as CliOutcome["manifest"];
  const q = manifest.quarantine as { path: string } | null;
  const quarantine = q === null ? [] : readFileSync(join(out, q.path), "utf8").trim().split("\n").map((l) => JSON.parse(l) as { reason: string; detail: string; line: number });
  const data = join(out, "data");
  const shards = readdirSync(data).filter((f) => f.endsWith(".parquet")).map((f) => join(data, f)).sort();
  return { manifest, quarantine: quarantine.map(({ reason, detail, line }) => ({ reason, detail, line })), rows: shards.length === 0 ? [] : (await readParquetRows(shards)).rows };
}

const big = (_: string, v: unknown) => (typeof v === "bigint" ? v.toString() : v);

/**
 * Converts `lines` (strings, or raw bytes) with `evalshard convert` in both executors (`--workers 0` and
 * `--workers 2`); they must agree on the counts, the quarantine and the rows written. Returns the threads' outcome.
 */
export async function convertBothCli(lines: readonly (string | Buffer)[], extra: readonly string[] = []): Promise<CliOutcome> {
  const file = join(root, `in-${n++}.ndjson`);
  writeFileSync(file, Buffer.concat(lines.flatMap((l) => [typeof l === "string" ? Buffer.from(l) : l, Buffer.from("\n")])));
  const [threads, inProcess] = await Promise.all([convert(2, file, extra), convert(0, file, extra)]);
  const counts = (o: CliOutcome) => ({ records_out: o.manifest.records_out, quarantined: o.manifest.quarantined, dropped: o.manifest.dropped, dropped_pairs: o.manifest.dropped_pairs });
  expect(counts(inProcess)).toEqual(counts(threads));
  expect(inProcess.quarantine).toEqual(threads.quarantine);
  expect(JSON.stringify(inProcess.rows, big)).toEqual(JSON.stringify(threads.rows, big));
  return threads;
}
