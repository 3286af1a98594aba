"""Reads a dataset on S3 by its root manifest, as the README's "by its manifest" paragraph says, with pyarrow.

Usage: python read_s3_by_manifest.py ENDPOINT BUCKET/PREFIX   (credentials from AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY)

Prints {"paths", "rows"}: the shard paths the root manifest names and the rows pyarrow read from them.
"""

import json
import os
import sys
from urllib.parse import urlparse

import pyarrow.dataset as pads
import pyarrow.fs


def main():
    endpoint, root = sys.argv[1], sys.argv[2].rstrip("/")
    url = urlparse(endpoint)
    s3 = pyarrow.fs.S3FileSystem(
        endpoint_override=url.netloc,
        scheme=url.scheme,
        region="us-east-1",
        access_key=os.environ["AWS_ACCESS_KEY_ID"],
        secret_key=os.environ["AWS_SECRET_ACCESS_KEY"],
    )
    with s3.open_input_file(f"{root}/manifest.json") as f:
        manifest = json.loads(f.read())
    files = [f"{root}/{shard['path']}" for shard in manifest["shards"]]
    table = pads.dataset(files, format="parquet", filesystem=s3).to_table()
    print(json.dumps({"paths": [shard["path"] for shard in manifest["shards"]], "rows": table.num_rows}))


if __name__ == "__main__":
    main()
