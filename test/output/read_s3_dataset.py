"""Reads a dataset that evalshard published to S3 the way a Python user would, and prints what it saw.

Usage: python read_s3_dataset.py WORKDIR [ENDPOINT BUCKET PREFIX]

With ENDPOINT, BUCKET and PREFIX (and boto3 installed), downloads README.md from the prefix and every
file its card's `configs` data_files names into WORKDIR, keeping their paths; without, WORKDIR already
holds them. Then reads the shards with pyarrow and loads WORKDIR with `datasets.load_dataset`, which
follows the card. Prints {"data_files", "ids", "datasets_rows"}.
"""

import json
import os
import sys

import yaml


def card_files(readme_text):
    front = readme_text.split("---\n")[1]
    meta = yaml.safe_load(front)
    files = meta["configs"][0]["data_files"][0]["path"]
    return files if isinstance(files, list) else [files]


def download(workdir, endpoint, bucket, prefix):
    import boto3

    s3 = boto3.client("s3", endpoint_url=endpoint)
    base = prefix.rstrip("/") + "/" if prefix else ""
    os.makedirs(workdir, exist_ok=True)
    s3.download_file(bucket, base + "README.md", os.path.join(workdir, "README.md"))
    with open(os.path.join(workdir, "README.md"), encoding="utf-8") as f:
        files = card_files(f.read())
    for path in files:
        local = os.path.join(workdir, *path.split("/"))
        os.makedirs(os.path.dirname(local), exist_ok=True)
        s3.download_file(bucket, base + path, local)


def main():
    workdir = sys.argv[1]
    if len(sys.argv) > 2:
        download(workdir, *sys.argv[2:5])
    with open(os.path.join(workdir, "README.md"), encoding="utf-8") as f:
        files = card_files(f.read())
    import pyarrow.parquet as pq

    ids = []
    for path in files:
        ids.extend(pq.read_table(os.path.join(workdir, *path.split("/"))).column("id").to_pylist())
    from datasets import load_dataset

    ds = load_dataset(workdir, split="train")
    print(json.dumps({"data_files": files, "ids": ids, "datasets_rows": ds.num_rows}))


if __name__ == "__main__":
    main()
