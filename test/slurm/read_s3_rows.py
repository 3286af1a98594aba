"""Reads the dataset at s3://BUCKET/PREFIX as a trainer would: its root manifest's shards, with pyarrow.

Usage: python read_s3_rows.py ENDPOINT BUCKET PREFIX WORKDIR

Prints {"rows", "rows_sha256", "snapshot"}: rows_sha256 is the sha256 of every row as sorted-key JSON, the
lines sorted, so two datasets holding the same rows in any shards compare equal.
"""

import hashlib
import json
import os
import sys

import boto3
import pyarrow.parquet as pq


def main():
    endpoint, bucket, prefix, workdir = sys.argv[1:5]
    s3 = boto3.client("s3", endpoint_url=endpoint)
    root = prefix.rstrip("/") + "/"
    manifest = json.loads(s3.get_object(Bucket=bucket, Key=root + "manifest.json")["Body"].read())
    lines = []
    for shard in manifest["shards"]:
        local = os.path.join(workdir, *shard["path"].split("/"))
        os.makedirs(os.path.dirname(local), exist_ok=True)
        s3.download_file(bucket, root + shard["path"], local)
        for row in pq.read_table(local).to_pylist():
            lines.append(json.dumps(row, sort_keys=True, default=str))
    lines.sort()
    digest = hashlib.sha256("\n".join(lines).encode("utf8")).hexdigest()
    print(json.dumps({"rows": len(lines), "rows_sha256": digest, "snapshot": manifest.get("snapshot")}))


if __name__ == "__main__":
    main()
