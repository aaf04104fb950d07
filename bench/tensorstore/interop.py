"""tensorstore as an independent second reader and writer of zarrj's arrays (zarr-bench's
TensorstoreInteropTest runs it).

Usage: python interop.py SPEC_JSON

The spec: {"arrays": [{"path": P, "raw_out": R, "write_to": W}, ...]}. For each array, tensorstore
reads the zarr v3 array at P whole and writes its elements to R as raw little-endian bytes in C
order (the test compares them with what zarrj wrote), then creates an array at W with P's
metadata and writes the same elements (the test reads it with zarrj). Prints {"arrays": N}, or
{"error": "..."} with exit status 1.
"""
import json
import os
import shutil
import sys

import tensorstore as ts


def main():
    spec = json.loads(sys.argv[1])
    ctx = ts.Context({"cache_pool": {"total_bytes_limit": 0}})
    for a in spec["arrays"]:
        src = ts.open({"driver": "zarr3", "kvstore": {"driver": "file", "path": a["path"]}},
                      context=ctx, read=True, write=False).result()
        values = src.read().result()
        with open(a["raw_out"], "wb") as f:
            f.write(values.astype(values.dtype.newbyteorder("<"), copy=False).tobytes(order="C"))
        with open(os.path.join(a["path"], "zarr.json")) as f:
            metadata = json.load(f)
        metadata.pop("attributes", None)
        shutil.rmtree(a["write_to"], ignore_errors=True)
        dst = ts.open({"driver": "zarr3", "kvstore": {"driver": "file", "path": a["write_to"]},
                       "metadata": metadata}, context=ctx, create=True, delete_existing=True).result()
        dst.write(values).result()
    print(json.dumps({"arrays": len(spec["arrays"])}))


if __name__ == "__main__":
    try:
        main()
    except Exception as e:
        print(json.dumps({"error": f"{type(e).__name__}: {e}"}))
        sys.exit(1)
