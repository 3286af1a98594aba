"""Reads two evalshard outputs of the same input (one snappy, one zstd) with pyarrow, DuckDB and polars.

Usage: python compare_codecs.py SNAPPY_DIR ZSTD_DIR

Prints {"codecs": [codecs of SNAPPY_DIR's column chunks], "<reader>": {"rows": n, "equal": bool}}: whether each
reader sees the same rows, in the same order, in both outputs.
"""

import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "helpers"))
from read_back import read_duckdb, read_pyarrow, shard_files  # noqa: E402


def read_polars(out_dir):
    import polars as pl

    return [row for f in shard_files(out_dir) for row in pl.read_parquet(f).to_dicts()], {}


def codecs(out_dir):
    import pyarrow.parquet as pq

    seen = set()
    for f in shard_files(out_dir):
        meta = pq.ParquetFile(f).metadata
        for g in range(meta.num_row_groups):
            for c in range(meta.num_columns):
                seen.add(meta.row_group(g).column(c).compression)
    return sorted(seen)


def main():
    snappy_dir, zstd_dir = sys.argv[1], sys.argv[2]
    out = {"codecs": codecs(snappy_dir)}
    for name, read in (("pyarrow", read_pyarrow), ("duckdb", read_duckdb), ("polars", read_polars)):
        a, b = read(snappy_dir)[0], read(zstd_dir)[0]
        out[name] = {"rows": len(a), "equal": a == b}
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
