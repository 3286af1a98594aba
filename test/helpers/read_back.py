"""Reads an evalshard output directory back with one Python engine and prints what it saw as JSON.

Usage: python3 read_back.py (pyarrow|duckdb|datasets) OUT_DIR

Prints {"engine", "rows": [...], "types": {column: type text}}. Rows come shard by shard in
file-name order, values as the engine returns them (json columns stay text, maps stay entry lists).
"""

import glob
import json
import os
import sys


def shard_files(out_dir):
    files = sorted(glob.glob(os.path.join(out_dir, "data", "train-*.parquet")))
    if not files:
        raise SystemExit(f"no data/train-*.parquet shards in {out_dir}")
    return files


def read_pyarrow(out_dir):
    import pyarrow as pa
    import pyarrow.parquet as pq

    tables = [pq.read_table(f) for f in shard_files(out_dir)]
    table = pa.concat_tables(tables)
    return table.to_pylist(), {f.name: str(f.type) for f in table.schema}


def read_duckdb(out_dir):
    import duckdb

    con = duckdb.connect()
    rows, types = [], {}
    for f in shard_files(out_dir):
        rel = con.execute("SELECT * FROM read_parquet(?)", [f])
        names = [d[0] for d in rel.description]
        types = {d[0]: str(d[1]) for d in rel.description}
        rows.extend(dict(zip(names, r)) for r in rel.fetchall())
    return rows, types


def read_datasets(out_dir):
    import datasets

    datasets.disable_progress_bars()
    ds = datasets.load_dataset(out_dir, split="train")
    return ds.to_list(), {name: repr(feature) for name, feature in ds.features.items()}


READERS = {"pyarrow": read_pyarrow, "duckdb": read_duckdb, "datasets": read_datasets}


def main():
    engine, out_dir = sys.argv[1], sys.argv[2]
    rows, types = READERS[engine](out_dir)
    json.dump({"engine": engine, "rows": rows, "types": types}, sys.stdout, ensure_ascii=False, allow_nan=False)


if __name__ == "__main__":
    main()
