import { execFile } from "node:child_process";
import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import type { Manifest } from "../../src/output/manifest.js";
import { PYTHON, RUN_AND_EXIT } from "../helpers/python.js";
import { sftRecord } from "../helpers/records.js";
import { runCli } from "../helpers/run-cli.js";
import { readerFiles } from "../helpers/local-layout.js";
import { tempDir } from "../helpers/temp-dir.js";

// Issue 20's publish guards through the built CLI: judged before publishing, the previous dataset untouched,
// the refused attempt kept under _rejected/, the exit code naming the guard.
const root = tempDir("evalshard-guards-");

const cli = (...args: string[]) => runCli(args);

/** `n` distinct valid SFT records, as NDJSON lines. */
const sftLines = (n: number, from = 0) => Array.from({ length: n }, (_, i) => JSON.stringify(sftRecord({ run_id: `run_${String(from + i).padStart(4, "0")}` })));
function file(name: string, lines: readonly string[]): string {
  const path = join(root, name);
  writeFileSync(path, `${lines.join("\n")}\n`);
  return path;
}
const GOOD = file("good-65.ndjson", sftLines(65));

/** The rows pyarrow reads in each of `dirs`, in one Python process. */
const pyarrowRows = async (...dirs: string[]) =>
  (await promisify(execFile)(PYTHON, [RUN_AND_EXIT, "-c", "import sys, pyarrow.dataset as ds\nfor d in sys.argv[1:]: print(ds.dataset(d + '/data', format='parquet').count_rows())", ...dirs])).stdout.trim().split("\n").map(Number);
/** A copy of the local dataset `dir` as it is now, for a reader to open later. */
let copies = 0;
const asItIs = (dir: string) => {
  const copy = join(root, `as-it-was-${copies++}`);
  cpSync(dir, copy, { recursive: true, verbatimSymlinks: true });
  return copy;
};

describe("publish guards (convert)", () => {
  it("a wrong --format run whose records are all quarantined does not publish 0 rows over a good 65-row dataset", { timeout: 120_000 }, async () => {
    // What pyarrow reads after each step, from a copy taken then: one Python process reads them all at the end.
    const read: { dir: string; rows: number }[] = [];
    for (const workers of ["2", "0"]) {
      const out = join(root, `wrong-format-${workers}`);
      const good = await cli("convert", GOOD, "--out", out, "--workers", workers);
      expect(good.code, good.stderr).toBe(0);
      const before = readerFiles(out);
      const wrong = await cli("convert", GOOD, "--out", out, "--format", "rl", "--workers", workers, "--json");
      expect(wrong.code, wrong.stderr).toBe(3);
      expect(wrong.stderr).toMatch(/not published: 100\.00% of records were quarantined .*previous dataset is untouched; this attempt is kept in .*_rejected\/\d{8}T\d{6}Z-[0-9a-f]{6}\//);
      const attempt = JSON.parse(wrong.stdout) as Manifest;
      expect(attempt.records_out).toBe(0);
      // Emptying the dataset trips max_shrink too (issue 40); the quarantine comes first and names the code.
      expect(attempt.publish).toMatchObject({ published: false, tripped: [{ guard: "max_quarantined", limit: 0.05, actual: 1 }, { guard: "max_shrink", rows_before: 65, rows_after: 0 }] });
      // The dataset is byte for byte the good one; readers still get 65 rows.
      expect(readerFiles(out)).toEqual(before);
      read.push({ dir: asItIs(out), rows: 65 });
      expect((await cli("verify", out)).code).toBe(0);
      // The attempt is kept whole for inspection, where the manifest says.
      const kept = join(out, attempt.publish.rejected_to ?? "-");
      expect(JSON.parse(readFileSync(join(kept, "manifest.json"), "utf8"))).toMatchObject({ records_out: 0, publish: { published: false } });
      expect(readFileSync(join(kept, "_quarantine", "rl.ndjson"), "utf8").split("\n").filter(Boolean)).toHaveLength(65);
      // --publish-anyway overrides, and the exit code still says which guard tripped.
      // No grace: the guards decide before any switch, and readers during one are snapshot-grace.test.ts's.
      const anyway = await cli("convert", GOOD, "--out", out, "--format", "rl", "--workers", workers, "--publish-anyway", "--snapshot-grace", "0");
      expect(anyway.code).toBe(3);
      expect(anyway.stderr).toMatch(/published anyway/);
      read.push({ dir: asItIs(out), rows: 0 });
    }
    expect(await pyarrowRows(...read.map((r) => r.dir))).toEqual(read.map((r) => r.rows));
  });

  it("partial_stream lines: their run_index values in the manifest, refused by default (exit 6), published within --max-stream-errors", { timeout: 120_000 }, async () => {
    const input = file("cut.ndjson", [...sftLines(3), '{"error":"partial_stream","run_index":7}', ...sftLines(2, 10), '{"error":"partial_stream","run_index":2}', '{"error":"partial_stream"}']);
    const manifests: Manifest[] = [];
    for (const workers of ["2", "0"]) {
      const out = join(root, `stream-${workers}`);
      const refused = await cli("convert", input, "--out", out, "--workers", workers, "--json");
      expect(refused.code, refused.stderr).toBe(6);
      expect(refused.stderr).toMatch(/3 partial_stream line\(s\) \(over --max-stream-errors 0\)/);
      expect(existsSync(join(out, "manifest.json"))).toBe(false);
      const attempt = JSON.parse(refused.stdout) as Manifest;
      expect(attempt).toMatchObject({ stream_errors: 3, stream_error_runs: [2, 7], records_out: 5 });
      expect(existsSync(join(out, attempt.publish.rejected_to ?? "-", "manifest.json"))).toBe(true);
      const allowed = await cli("convert", input, "--out", out, "--workers", workers, "--max-stream-errors", "3", "--json");
      expect(allowed.code, allowed.stderr).toBe(0);
      const manifest = JSON.parse(readFileSync(join(out, "manifest.json"), "utf8")) as Manifest;
      expect(manifest).toMatchObject({ stream_errors: 3, stream_error_runs: [2, 7], publish: { published: true, tripped: [], limits: { max_stream_errors: 3 } } });
      manifests.push(manifest);
    }
    expect(manifests[0]).toMatchObject({ stream_error_runs: manifests[1]?.stream_error_runs, records_out: manifests[1]?.records_out });
  });

  it("other {error: ...} lines are quarantined as service_error_line, on both executors", { timeout: 60_000 }, async () => {
    const input = file("service-error.ndjson", [...sftLines(20), '{"error":"internal","message":"db timeout"}', '{"error":{"code":503}}']);
    for (const workers of ["2", "0"]) {
      const r = await cli("convert", input, "--out", join(root, `service-error-${workers}`), "--workers", workers, "--max-quarantined", "0.5", "--json");
      expect(r.code, r.stderr).toBe(0);
      const manifest = JSON.parse(r.stdout) as Manifest;
      expect(manifest.quarantined).toEqual({ service_error_line: 2 });
      expect(manifest.stream_errors).toBe(0);
    }
  });

  it("--min-records refuses a run writing fewer records (exit 7); the first guard tripped names the code", { timeout: 60_000 }, async () => {
    const out = join(root, "min-records");
    expect((await cli("convert", GOOD, "--out", out)).code).toBe(0);
    const before = readerFiles(out);
    const few = file("few.ndjson", sftLines(3));
    // 3 of 65 rows is a shrink too (issue 40); allowed here, so that --min-records is what refuses it.
    const r = await cli("convert", few, "--out", out, "--min-records", "10", "--max-shrink", "1");
    expect(r.code).toBe(7);
    expect(r.stderr).toMatch(/3 record\(s\) to write \(under --min-records 10\)/);
    expect(readerFiles(out)).toEqual(before);
    // Quarantine over its limit and too few records: exit 3, both listed in the kept manifest.
    const both = await cli("convert", GOOD, "--out", out, "--format", "dpo", "--min-records", "1", "--json");
    expect(both.code).toBe(3);
    expect((JSON.parse(both.stdout) as Manifest).publish.tripped.map((t) => t.guard)).toEqual(["max_quarantined", "max_shrink", "min_records"]);
    expect(readerFiles(out)).toEqual(before);
  });

  it("keeps the newest five refused attempts", { timeout: 120_000 }, async () => {
    const out = join(root, "prune");
    for (let i = 0; i < 7; i++) expect((await cli("convert", GOOD, "--out", out, "--format", "rl")).code).toBe(3);
    expect(readdirSync(join(out, "_rejected"))).toHaveLength(5);
  });
});

describe("publish guards (nightly run)", () => {
  const pipeline = (name: string, out: string, inputs: readonly string[], extra = "") =>
    file(`${name}.yaml`, [`version: 1`, `name: ${name}`, `source:`, `  kind: files`, `  inputs: [${inputs.map((i) => JSON.stringify(i)).join(", ")}]`, `output:`, `  dir: ${JSON.stringify(out)}`, `  snapshot_grace: 0`, extra]);

  it("a night over a guard leaves the last published night untouched and keeps its attempt under _rejected/", { timeout: 120_000 }, async () => {
    const out = join(root, "nightly");
    const first = await cli("run", pipeline("good", out, [GOOD]), "--json");
    expect(first.code, first.stderr).toBe(0);
    const before = readerFiles(out);
    const cut = file("night-cut.ndjson", [...sftLines(60), '{"error":"partial_stream","run_index":61}']);
    const refused = await cli("run", pipeline("cut", out, [cut]), "--json");
    expect(refused.code, refused.stderr).toBe(6);
    expect(JSON.parse(refused.stdout)).toMatchObject({ changed: false, stream_errors: 1 });
    expect(refused.stderr).toMatch(/not published: 1 partial_stream line\(s\).*_rejected\//);
    expect(readerFiles(out)).toEqual(before);
    const [name] = readdirSync(join(out, "_rejected"));
    const kept = JSON.parse(readFileSync(join(out, "_rejected", name ?? "-", "manifest.json"), "utf8")) as Manifest;
    expect(kept).toMatchObject({ records_out: 60, stream_error_runs: [61], publish: { published: false, rejected_to: `_rejected/${name}/` } });
    // publish_anyway in the pipeline file overrides; the exit code still names the guard.
    const anyway = await cli("run", pipeline("cut-anyway", out, [cut], "publish_anyway: true"), "--json");
    expect(anyway.code).toBe(6);
    expect(JSON.parse(anyway.stdout)).toMatchObject({ changed: true, removed: 5 });
    expect(await pyarrowRows(out)).toEqual([60]);
  });
});
