"""Reads Parquet files with one Python engine and prints what it saw as JSON, for the native encoder's tests.

Usage:
  python3 read_files.py pyarrow FILE...        {file: {"rows": [...], "schema": str}}
  python3 read_files.py duckdb FILE...         {file: {"rows": [...]}}
  python3 read_files.py schemas A B [A B]...   [{"a": str, "b": str, "equal": bool}] per pair (pq.read_schema)

Values come as the engine returns them: json columns as text, maps as lists of {key, value} structs.
"""

import json
import sys


def read_pyarrow(files):
    import pyarrow.parquet as pq

    out = {}
    for f in files:
        table = pq.read_table(f)
        out[f] = {"rows": table.to_pylist(), "schema": str(table.schema)}
    return out


def read_duckdb(files):
    import duckdb

    con = duckdb.connect()
    out = {}
    for f in files:
        rel = con.execute("SELECT * FROM read_parquet(?)", [f])
        names = [d[0] for d in rel.description]
        out[f] = {"rows": [dict(zip(names, r)) for r in rel.fetchall()]}
    return out


def compare_schemas(files):
    import pyarrow.parquet as pq

    pairs = zip(files[0::2], files[1::2])
    out = []
    for a, b in pairs:
        sa, sb = pq.read_schema(a), pq.read_schema(b)
        out.append({"a": str(sa), "b": str(sb), "equal": sa.equals(sb, check_metadata=True)})
    return out


READERS = {"pyarrow": read_pyarrow, "duckdb": read_duckdb, "schemas": compare_schemas}


def main():
    result = READERS[sys.argv[1]](sys.argv[2:])
    json.dump(result, sys.stdout, ensure_ascii=False, allow_nan=False)


if __name__ == "__main__":
    main()
