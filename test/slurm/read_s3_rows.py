"""Reads the datasets at s3://BUCKET/PREFIX... as a trainer would: each root manifest's shards, with pyarrow.

Usage: python read_s3_rows.py ENDPOINT BUCKET WORKDIR PREFIX...

Prints a JSON list, per PREFIX {"rows", "rows_sha256", "snapshot"} (one Python start for all): rows_sha256 is the sha256 of every row as sorted-key JSON, the
lines sorted, so two datasets holding the same rows in any shards compare equal.
"""

import hashlib
import json
import os
import sys

import boto3
import pyarrow.parquet as pq


def read(s3, bucket, prefix, workdir):
    root = prefix.rstrip("/") + "/"
    manifest = json.loads(s3.get_object(Bucket=bucket, Key=root + "manifest.json")["Body"].read())
    lines = []
    for shard in manifest["shards"]:
        local = os.path.join(workdir, *root.split("/"), *shard["path"].split("/"))
        os.makedirs(os.path.dirname(local), exist_ok=True)
        s3.download_file(bucket, root + shard["path"], local)
        for row in pq.read_table(local).to_pylist():
            lines.append(json.dumps(row, sort_keys=True, default=str))
    lines.sort()
    digest = hashlib.sha256("\n".join(lines).encode("utf8")).hexdigest()
    return {"rows": len(lines), "rows_sha256": digest, "snapshot": manifest.get("snapshot")}


def main():
    endpoint, bucket, workdir, *prefixes = sys.argv[1:]
    s3 = boto3.client("s3", endpoint_url=endpoint)
    print(json.dumps([read(s3, bucket, prefix, workdir) for prefix in prefixes]))


if __name__ == "__main__":
    main()
