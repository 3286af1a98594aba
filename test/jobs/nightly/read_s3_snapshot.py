"""Reads snapshots N... of a nightly dataset on S3 the way a training job pins one, and prints what it saw.

Usage: python read_s3_snapshot.py ENDPOINT BUCKET PREFIX WORKDIR N [N...]

Finds the folder `PREFIX/snapshots/<N, 6 digits>-*/`, reads its manifest.json, downloads the shards the
manifest names (paths from the dataset's root, `snapshots/<folder>/data/…`), reads them with pyarrow and loads them with
`datasets.load_dataset("parquet", data_files=...)`. Prints {"snapshot", "rows", "datasets_rows", "sha256"}, a
line per N (one process: importing datasets is most of a read).
"""

import hashlib
import json
import os
import sys

import boto3


def main():
    endpoint, bucket, prefix, workdir = sys.argv[1:5]
    s3 = boto3.client("s3", endpoint_url=endpoint)
    for number in sys.argv[5:]:
        read(s3, bucket, prefix, number, os.path.join(workdir, number))


def read(s3, bucket, prefix, number, workdir):
    root = prefix.rstrip("/") + "/"
    base = root + "snapshots/"
    listed = s3.list_objects_v2(Bucket=bucket, Prefix=base + number.zfill(6) + "-", Delimiter="/")
    folders = [p["Prefix"] for p in listed.get("CommonPrefixes", [])]
    if len(folders) != 1:
        raise SystemExit(f"expected one folder for snapshot {number}, found {folders}")
    folder = folders[0]
    manifest = json.loads(s3.get_object(Bucket=bucket, Key=folder + "manifest.json")["Body"].read())
    import pyarrow.parquet as pq

    files, digests, rows = [], [], 0
    for shard in manifest["shards"]:
        local = os.path.join(workdir, *shard["path"].split("/"))
        os.makedirs(os.path.dirname(local), exist_ok=True)
        s3.download_file(bucket, root + shard["path"], local)
        with open(local, "rb") as f:
            digests.append(hashlib.sha256(f.read()).hexdigest())
        rows += pq.read_table(local).num_rows
        files.append(local)
    from datasets import load_dataset

    ds = load_dataset("parquet", data_files=files, split="train")
    print(json.dumps({"snapshot": manifest["snapshot"], "rows": rows, "datasets_rows": ds.num_rows, "sha256": digests}))


if __name__ == "__main__":
    main()
