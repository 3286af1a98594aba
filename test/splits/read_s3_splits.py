"""Downloads a split dataset evalshard published to S3 as its card names it, and loads it with datasets.

Usage: python read_s3_splits.py WORKDIR ENDPOINT BUCKET PREFIX. Downloads README.md and every file each split of
the card's `configs` lists, keeping their paths, then prints {split: rows} from `datasets.load_dataset(WORKDIR)`.
"""
import json
import os
import sys

import boto3
import datasets
import yaml

workdir, endpoint, bucket, prefix = sys.argv[1:5]
s3 = boto3.client("s3", endpoint_url=endpoint)
base = prefix.rstrip("/") + "/"
os.makedirs(workdir, exist_ok=True)
s3.download_file(bucket, base + "README.md", os.path.join(workdir, "README.md"))
with open(os.path.join(workdir, "README.md"), encoding="utf-8") as f:
    meta = yaml.safe_load(f.read().split("---\n")[1])
for entry in meta["configs"][0]["data_files"]:
    paths = entry["path"] if isinstance(entry["path"], list) else [entry["path"]]
    for path in paths:
        local = os.path.join(workdir, *path.split("/"))
        os.makedirs(os.path.dirname(local), exist_ok=True)
        s3.download_file(bucket, base + path, local)
ds = datasets.load_dataset(workdir)
print(json.dumps({name: ds[name].num_rows for name in ds}))
