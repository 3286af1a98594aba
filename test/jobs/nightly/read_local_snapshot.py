"""Loads snapshot N of a local nightly dataset as the README documents, with `datasets` and with DuckDB.

Usage: python read_local_snapshot.py DIR N

Prints {"snapshot", "datasets_rows", "duckdb_rows"}: both read the shards that
DIR.snapshots/<N, 6 digits>/manifest.json names (next to DIR, out of a recursive read's reach).
"""

import json
import os
import sys

import duckdb
from datasets import load_dataset


def main():
    out, number = sys.argv[1], int(sys.argv[2])
    folder = os.path.join(out.rstrip("/") + ".snapshots", f"{number:06d}")
    with open(os.path.join(folder, "manifest.json"), encoding="utf-8") as f:
        manifest = json.load(f)
    files = [os.path.join(folder, shard["path"]) for shard in manifest["shards"]]
    ds = load_dataset("parquet", data_files=files, split="train")
    (rows,) = duckdb.sql(f"SELECT count(*) FROM read_parquet({files!r})").fetchone()
    print(json.dumps({"snapshot": manifest["snapshot"], "datasets_rows": ds.num_rows, "duckdb_rows": rows}))


if __name__ == "__main__":
    main()
