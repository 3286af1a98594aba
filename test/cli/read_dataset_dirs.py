"""Reads each local dataset directory as users do and prints what every reader saw, one JSON line per dir.

manifest.json (its shards' names and sha256 against data/), pyarrow over DIR/data, DuckDB over
DIR/data/*.parquet, and datasets.load_dataset(DIR) through the card's configs."""
import hashlib, json, os, sys

import datasets, duckdb, pyarrow.dataset as pads

datasets.disable_progress_bars()
for d in sys.argv[1:]:
    seen = {"dir": d}
    try:
        with open(os.path.join(d, "manifest.json")) as f:
            m = json.load(f)
        seen["manifest_rows"] = m["records_out"]
        listed = {s["path"]: s["sha256"] for s in m["shards"]}
        present = {}
        for name in sorted(os.listdir(os.path.join(d, "data"))):
            with open(os.path.join(d, "data", name), "rb") as f:
                present["data/" + name] = hashlib.sha256(f.read()).hexdigest()
        seen["manifest_matches_data"] = listed == present
    except Exception as e:  # a reader that finds no manifest or no data/ says so
        seen["manifest_error"] = type(e).__name__
    try:
        seen["pyarrow_rows"] = pads.dataset(os.path.join(d, "data"), format="parquet").count_rows()
    except Exception as e:
        seen["pyarrow_error"] = type(e).__name__
    try:
        seen["duckdb_rows"] = duckdb.sql(f"SELECT count(*) FROM '{d}/data/*.parquet'").fetchone()[0]
    except Exception as e:
        seen["duckdb_error"] = type(e).__name__
    try:
        seen["datasets_rows"] = datasets.load_dataset(d, split="train").num_rows
    except Exception as e:
        seen["datasets_error"] = type(e).__name__
    print(json.dumps(seen), flush=True)
