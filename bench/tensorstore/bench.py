"""tensorstore's side of `zarr bench`: the float32 operations on zarrj's array of one chain.

zarr bench starts this once per chain, after its own figures for that chain, with the array
zarrj wrote at DIR/float32/<chain>. It prints one JSON object on standard output: the median
seconds of each operation and the number of timed runs. Reads are checked against the whole
array as tensorstore read it; the write stores those values in a new array with zarrj's
metadata (DIR/tensorstore/float32/<chain>), which zarr bench then reads with zarrj and
compares with what it wrote, so that each engine reads the other's bytes bit for bit.

Usage: python bench.py SPEC_JSON   (the spec as one JSON argument; see main())
"""
import json
import os
import shutil
import sys
import time

import numpy as np
import tensorstore as ts


def context(threads):
    # The same budget as zarrj: `threads` threads copying/decoding and as many file requests,
    # no cache, and no fsync (zarrj's file store does not sync either).
    return ts.Context({
        "data_copy_concurrency": {"limit": threads},
        "file_io_concurrency": {"limit": threads},
        "cache_pool": {"total_bytes_limit": 0},
        "file_io_sync": False,
    })


def open_array(path, ctx, metadata=None):
    spec = {"driver": "zarr3", "kvstore": {"driver": "file", "path": path}}
    if metadata is None:
        return ts.open(spec, context=ctx, read=True, write=False).result()
    spec["metadata"] = metadata
    return ts.open(spec, context=ctx, create=True, delete_existing=True).result()


def timed(fn, warmups, runs, seconds):
    """Median seconds of fn over at least one and at most `runs` timed runs, after `warmups`,
    stopping early once `seconds` have passed."""
    for _ in range(warmups):
        fn()
    samples = []
    start = time.perf_counter()
    while not samples or (len(samples) < runs and time.perf_counter() - start < seconds):
        t0 = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - t0)
    return float(np.median(samples)), len(samples)


def box(t, region):
    offset, shape = region["offset"], region["shape"]
    return t[tuple(slice(o, o + s) for o, s in zip(offset, shape))]


def main():
    spec = json.loads(sys.argv[1])
    ctx = context(spec["threads"])
    src = open_array(spec["array"], ctx)
    warmups, runs, seconds = spec["warmups"], spec["runs"], spec["run_seconds"]
    out = {"tensorstore_version": getattr(ts, "__version__", None), "ops": {}}

    whole = src.read().result()
    with open(os.path.join(spec["array"], "zarr.json")) as f:
        metadata = json.load(f)
    metadata.pop("attributes", None)

    for op in spec["ops"]:
        name = op["op"]
        if name == "write":
            dst_path = spec["write_to"]
            shutil.rmtree(dst_path, ignore_errors=True)
            dst = open_array(dst_path, ctx, metadata)
            median, n = timed(lambda: dst.write(whole).result(), warmups, runs, seconds)
        elif name == "read":
            median, n = timed(lambda: src.read().result(), warmups, runs, seconds)
        else:
            view = box(src, op["region"])
            got = view.read().result()
            want = whole[tuple(slice(o, o + s) for o, s in zip(op["region"]["offset"], op["region"]["shape"]))]
            if got.tobytes() != want.tobytes():
                raise SystemExit(f"{name}: tensorstore read other values than its whole read")
            median, n = timed(lambda: view.read().result(), op.get("warmups", warmups),
                              op.get("runs", runs), op.get("run_seconds", seconds))
        out["ops"][name] = {"seconds": median, "runs": n}
    print(json.dumps(out))


if __name__ == "__main__":
    main()
