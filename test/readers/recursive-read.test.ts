import { cpSync, existsSync, readdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { PythonBatch } from "../helpers/python-batch.js";
import { sftRecord } from "../helpers/records.js";
import { spawnCli } from "../helpers/spawn-cli.js";
import { tempDir } from "../helpers/temp-dir.js";
import { emulator } from "../jobs/nightly/support.js";

// Issue 39: a recursive read of a dataset's root reads each published row exactly once, with the readers'
// defaults: DuckDB's `read_parquet('OUT/**/*.parquet')`, pyarrow's `dataset(OUT, exclude_invalid_files=True)`,
// and `datasets.load_dataset(OUT)`. Before, a nightly root also held every kept night (`OUT/snapshots/N/`),
// which DuckDB and pyarrow both read (676 rows of a 174-row dataset after three nights).
const READ = new URL("./read_root.py", import.meta.url).pathname;
const root = tempDir("evalshard-recursive-");
// The three reads in one Python process (its imports take seconds), importing while the datasets are written.
const python = new PythonBatch({ HF_DATASETS_OFFLINE: "1", HF_HUB_OFFLINE: "1", HF_HOME: join(root, "hf"), HF_DATASETS_CACHE: join(root, "hf") }, ["duckdb", "pyarrow.dataset", "datasets"]);
afterAll(() => python.close());

interface Seen {
  duckdb_rows: number;
  duckdb_files: string[];
  pyarrow_rows: number;
  pyarrow_files: string[];
  datasets_rows: number;
  manifest_rows: number;
}

/** What the readers saw in each of `dirs`. */
async function readAll(...dirs: string[]): Promise<Seen[]> {
  const stdout = await python.stdout(READ, dirs);
  return JSON.parse(stdout.trim().split("\n").at(-1) ?? "") as Seen[];
}
const read = async (dir: string): Promise<Seen> => (await readAll(dir))[0]!;

/** Every reader saw the manifest's rows, each shard once. */
function once(seen: Seen, rows: number): void {
  expect(seen.manifest_rows).toBe(rows);
  expect({ duckdb: seen.duckdb_rows, pyarrow: seen.pyarrow_rows, datasets: seen.datasets_rows }).toEqual({ duckdb: rows, pyarrow: rows, datasets: rows });
  // DuckDB reads the current snapshot's folder (it does not follow the `data` link), pyarrow the `data` link.
  expect(seen.duckdb_files.every((f) => f.startsWith(".evalshard-snapshots/"))).toBe(true);
  expect(seen.pyarrow_files.every((f) => f.startsWith("data/"))).toBe(true);
}

function input(name: string, n: number): string {
  const path = join(root, name);
  writeFileSync(path, `${Array.from({ length: n }, (_, i) => JSON.stringify(sftRecord({ run_id: `${name}_${i}` }))).join("\n")}\n`);
  return path;
}

describe("a recursive read of a dataset's root reads each published row once", () => {
  it("convert, published over twice with the default options", { timeout: 120_000 }, async () => {
    const out = join(root, "converted");
    for (const [name, n] of [["first", 23], ["second", 17]] as const) {
      const r = await spawnCli(["convert", input(`${name}.ndjson`, n), "--out", out, "--shard-rows", "5"]);
      expect(r.status, r.stderr).toBe(0);
    }
    once(await read(out), 17);
  });

  it("a nightly dataset after three nights with --keep-snapshots 3 (_state, _cache, kept nights beside it)", { timeout: 240_000 }, async () => {
    const emu = await emulator({ seed: 41, runs: 60 });
    const out = join(root, "nightly");
    // No grace: it is over before each pull returns, and the layout after it is the subject here.
    const pull = () => spawnCli(["pull", "sft", "--base-url", emu.url, "--out", out, "--keep-snapshots", "3", "--seats", "all", "--snapshot-grace", "0"], { EVAL_OWNER_TOKEN: emu.ownerToken });
    let rows = 0;
    for (let night = 0; night < 3; night++) {
      const r = await pull();
      expect(r.status, r.stderr).toBe(0);
      await emu.advance();
    }
    const seen = await read(out);
    rows = seen.manifest_rows;
    once(seen, rows);
    expect(readdirSync(join(root, "nightly.snapshots")).sort()).toEqual(["000001", "000002", "000003"]);
    expect(existsSync(join(out, "_state", "state.json")) && existsSync(join(out, "_cache"))).toBe(true);

    // A dataset of the layout before (its kept nights inside it, OUT/snapshots/N): the next night moves them out.
    renameSync(join(root, "nightly.snapshots"), join(out, "snapshots"));
    const before = await read(out);
    expect(before.duckdb_rows).toBeGreaterThan(rows); // what issue 39 saw
    const r = await pull();
    expect(r.status, r.stderr).toBe(0);
    expect(existsSync(join(out, "snapshots"))).toBe(false);
    expect(readdirSync(join(root, "nightly.snapshots")).sort()).toEqual(["000002", "000003", "000004"]);
    const pinned = await spawnCli(["inspect", out, "--snapshot", "2", "--json"]);
    expect(pinned.status, pinned.stderr).toBe(0);
    // The copy a user makes of the root (links kept) reads the same.
    cpSync(out, join(root, "copied"), { recursive: true, verbatimSymlinks: true });
    const [after, copied] = await readAll(out, join(root, "copied"));
    once(after!, after!.manifest_rows);
    once(copied!, after!.manifest_rows);
  });
});
