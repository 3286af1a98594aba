"""Reads a split dataset with Hugging Face datasets, pyarrow and DuckDB; prints rows per split as JSON.

Also recomputes each row's split from the documented rule (HMAC-SHA256 keyed by the seed over the group id,
six bytes big-endian / 2**48 against the cumulative fractions), independently of evalshard.
"""
import glob
import hashlib
import hmac
import json
import os
import sys

import datasets
import duckdb
import pyarrow.parquet as pq

out, seed, fractions_json = sys.argv[1], sys.argv[2], sys.argv[3]
fractions = json.loads(fractions_json)


def split_of(group: str) -> str:
    point = int.from_bytes(hmac.new(seed.encode(), group.encode(), hashlib.sha256).digest()[:6], "big") / 2**48
    end = 0.0
    for name, fraction in fractions.items():
        end += fraction
        if point < end:
            return name
    return list(fractions)[-1]


ds = datasets.load_dataset(out)
result = {"datasets": {name: ds[name].num_rows for name in ds}, "pyarrow": {}, "duckdb": {}, "misplaced": 0}
for name in ds:
    for campaign in ds[name]["scenario"]:
        if split_of(campaign["campaign_id"]) != name:
            result["misplaced"] += 1
con = duckdb.connect()
for name in fractions:
    files = sorted(glob.glob(os.path.join(out, "data", f"{name}-*.parquet")))
    result["pyarrow"][name] = sum(pq.read_table(f).num_rows for f in files)
    result["duckdb"][name] = con.execute(f"select count(*) from read_parquet({files!r})").fetchone()[0]
print(json.dumps(result))
