"""Reads two evalshard outputs of the same input (one snappy, one zstd) with pyarrow, DuckDB and polars.

Usage: python compare_codecs.py SNAPPY_DIR ZSTD_DIR

Prints {"codecs": [codecs of SNAPPY_DIR's column chunks], "<reader>": {"rows": n, "equal": bool}}: whether each
reader sees the same rows, in the same order, in both outputs.
"""

import glob
import json
import os
import sys


def shards(out_dir):
    files = sorted(glob.glob(os.path.join(out_dir, "data", "*.parquet")))
    if not files:
        raise SystemExit(f"no parquet shards in {out_dir}")
    return files


def with_pyarrow(out_dir):
    import pyarrow as pa
    import pyarrow.parquet as pq

    return pa.concat_tables([pq.read_table(f) for f in shards(out_dir)]).to_pylist()


def with_duckdb(out_dir):
    import duckdb

    con = duckdb.connect()
    rows = []
    for f in shards(out_dir):
        rel = con.execute("SELECT * FROM read_parquet(?)", [f])
        names = [d[0] for d in rel.description]
        rows.extend(dict(zip(names, r)) for r in rel.fetchall())
    return rows


def with_polars(out_dir):
    import polars as pl

    return [row for f in shards(out_dir) for row in pl.read_parquet(f).to_dicts()]


def codecs(out_dir):
    import pyarrow.parquet as pq

    seen = set()
    for f in shards(out_dir):
        meta = pq.ParquetFile(f).metadata
        for g in range(meta.num_row_groups):
            for c in range(meta.num_columns):
                seen.add(meta.row_group(g).column(c).compression)
    return sorted(seen)


def main():
    snappy_dir, zstd_dir = sys.argv[1], sys.argv[2]
    out = {"codecs": codecs(snappy_dir)}
    for name, read in (("pyarrow", with_pyarrow), ("duckdb", with_duckdb), ("polars", with_polars)):
        a, b = read(snappy_dir), read(zstd_dir)
        out[name] = {"rows": len(a), "equal": a == b}
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
