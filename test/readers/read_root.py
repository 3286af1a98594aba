"""Reads a dataset's root the ways a user would without knowing its layout, and prints what each reader saw.

Usage: python read_root.py DIR...

Prints one JSON list, in the order given, holding for each DIR {"duckdb_rows", "duckdb_files", "pyarrow_rows",
"pyarrow_files", "datasets_rows", "manifest_rows"}:
DuckDB's recursive glob `DIR/**/*.parquet` (it enters hidden folders, not symbolic links to folders),
pyarrow's dataset discovery of DIR with its defaults (it skips names starting with "." or "_" and follows
links) and exclude_invalid_files (README.md, manifest.json), `datasets.load_dataset(DIR)` (the card's
configs), and the rows the manifest counts.
"""

import json
import os
import sys

import duckdb
import pyarrow.dataset as pads
from datasets import load_dataset


def seen(root):
    rel = lambda path: os.path.relpath(path, root)
    glob = f"{root}/**/*.parquet"
    (duckdb_rows,) = duckdb.sql(f"SELECT count(*) FROM read_parquet('{glob}')").fetchone()
    duckdb_files = sorted(rel(f) for (f,) in duckdb.sql(f"SELECT file FROM glob('{glob}')").fetchall())
    dataset = pads.dataset(root, format="parquet", exclude_invalid_files=True)
    with open(os.path.join(root, "manifest.json"), encoding="utf-8") as f:
        manifest = json.load(f)
    ds = load_dataset(root, split="train")
    return {
        "duckdb_rows": duckdb_rows,
        "duckdb_files": duckdb_files,
        "pyarrow_rows": dataset.count_rows(),
        "pyarrow_files": sorted(rel(f) for f in dataset.files),
        "datasets_rows": ds.num_rows,
        "manifest_rows": sum(shard["rows"] for shard in manifest["shards"]),
    }


def main():
    print(json.dumps([seen(root) for root in sys.argv[1:]]))


if __name__ == "__main__":
    main()
