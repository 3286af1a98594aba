"""Reads json-typed columns of an evalshard Parquet output with five Python readers, as a user would.

Usage: python read_json_columns.py OUT_DIR PATH [PATH ...]

A PATH names a json value from a top-level column: `transcript`, `trace_steps[]` (each item),
`trajectory[].state.observation`. Prints {reader: {PATH: {"type": the top-level column's type text, "values":
[Python type names of the values found], "first": the first value}}}. Every reader loads the whole dataset
(`data/*.parquet`) its usual way; nothing is cast.
"""

import glob
import json
import os
import sys


def as_list(value):
    if isinstance(value, (list, tuple)):
        return list(value)
    if hasattr(value, "tolist"):  # numpy arrays: pandas' lists
        return value.tolist()
    raise SystemExit(f"expected a list, got {type(value).__name__}")


def walk(value, steps):
    """The non-null values at the end of `steps` (each a field name, or a name ending in [] for a list)."""
    if value is None:
        return []
    if not steps:
        return [value]
    step, rest = steps[0], steps[1:]
    if step == "[]":
        return [v for item in as_list(value) for v in walk(item, rest)]
    return walk(value[step], rest)


def parse(path):
    steps = []
    for part in path.split("."):
        if part.endswith("[]"):
            steps += [part[:-2], "[]"]
        else:
            steps.append(part)
    return steps


def summary(type_text, column_values, steps):
    found = [v for value in column_values for v in walk(value, steps)]
    if not found:
        raise SystemExit(f"no value at {'.'.join(steps)}")
    return {"type": type_text, "values": sorted({type(v).__name__ for v in found}), "first": found[0] if isinstance(found[0], str) else repr(found[0])}


def main():
    out_dir, paths = sys.argv[1], sys.argv[2:]
    columns = {path: parse(path) for path in paths}
    files = sorted(glob.glob(os.path.join(out_dir, "data", "*.parquet")))
    if not files:
        raise SystemExit(f"no data/*.parquet shards in {out_dir}")
    seen = {}

    import pyarrow.parquet as pq
    table = pq.read_table(files)
    seen["pyarrow"] = {p: summary(str(table.schema.field(s[0]).type), table.column(s[0]).to_pylist(), s[1:]) for p, s in columns.items()}

    import duckdb
    rel = duckdb.connect().execute("SELECT * FROM read_parquet(?)", [files])
    names = [d[0] for d in rel.description]
    types = {d[0]: str(d[1]) for d in rel.description}
    rows = [dict(zip(names, r)) for r in rel.fetchall()]
    seen["duckdb"] = {p: summary(types[s[0]], [r[s[0]] for r in rows], s[1:]) for p, s in columns.items()}

    import polars as pl
    frame = pl.read_parquet(files)
    seen["polars"] = {p: summary(str(frame.schema[s[0]]), frame[s[0]].to_list(), s[1:]) for p, s in columns.items()}

    import pandas as pd
    df = pd.concat([pd.read_parquet(f) for f in files])
    seen["pandas"] = {p: summary(str(df[s[0]].dtype), list(df[s[0]]), s[1:]) for p, s in columns.items()}

    from datasets import load_dataset
    ds = load_dataset(out_dir, split="train")
    seen["datasets"] = {p: summary(repr(ds.features[s[0]]), ds[s[0]], s[1:]) for p, s in columns.items()}

    json.dump(seen, sys.stdout)


if __name__ == "__main__":
    main()
