"""tensorstore's side of `zarr bench`: the float32 operations on zarrj's array of one chain.

zarr bench starts this once per chain, after its own figures for that chain, with the array
zarrj wrote at DIR/float32/<chain>. It prints one JSON object on standard output: the median
seconds of each operation and the number of timed runs. Reads are checked against the whole
array as tensorstore read it; the write stores those values in a new array with zarrj's
metadata (DIR/tensorstore/float32/<chain>), which zarr bench then reads with zarrj and
compares with what it wrote, so that each engine reads the other's bytes bit for bit.

Usage: python bench.py SPEC_JSON

The spec (one JSON argument):
  array      the array zarrj wrote (a folder holding zarr.json)
  write_to   where the write stores its copy (replaced if present)
  threads    tensorstore's data_copy_concurrency and file_io_concurrency limits (zarrj's threads)
  ops        the operations, in order; each has "op" (its name), the timing "warmups",
             "min_runs", "max_runs" and "seconds" (after the warm-ups, runs go on while fewer
             than min_runs were made or the seconds last, up to max_runs), optionally
             "warmup_seconds" (more warm-up runs while they last), and what it does:
               "kind": "write"       write the whole array (to write_to)
               "kind": "read"        read the whole array
               "kind": "box"         read "region": {"offset": [...], "shape": [...]}
               "kind": "strided"     read every "step"th element in each dimension, from 0
               "kind": "orthogonal"  read the outer product of "indices" (one list per dimension)

On error it prints {"error": "..."} and exits with status 1.
"""
import json
import os
import shutil
import sys
import time

import numpy as np
import tensorstore as ts


def version():
    try:
        from importlib.metadata import version as v
        return v("tensorstore")
    except Exception:  # an unusual installation: the figures stand without the version
        return None


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


def timed(fn, op):
    """Median seconds of fn and the number of timed runs, as zarr bench's Timing.latency runs it."""
    for _ in range(op["warmups"]):
        fn()
    # Then more warm-up runs while "warmup_seconds" last, when the op has them (selections and
    # reads of a box).
    warm_until = time.perf_counter() + op.get("warmup_seconds", 0)
    while time.perf_counter() < warm_until:
        fn()
    samples = []
    deadline = time.perf_counter() + op["seconds"]
    while len(samples) < op["max_runs"] and (len(samples) < op["min_runs"] or time.perf_counter() < deadline):
        t0 = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - t0)
    return float(np.median(samples)), len(samples)


def selection(op):
    """The index expression of a read op, for numpy (the check) and tensorstore alike."""
    kind = op["kind"]
    if kind == "box":
        r = op["region"]
        return tuple(slice(o, o + s) for o, s in zip(r["offset"], r["shape"]))
    if kind == "strided":
        return tuple(slice(None, None, op["step"]) for _ in range(3))
    raise ValueError(kind)


def main():
    spec = json.loads(sys.argv[1])
    ctx = context(spec["threads"])
    src = open_array(spec["array"], ctx)
    out = {"tensorstore_version": version(), "ops": {}}

    whole = src.read().result()
    with open(os.path.join(spec["array"], "zarr.json")) as f:
        metadata = json.load(f)
    metadata.pop("attributes", None)

    for op in spec["ops"]:
        name, kind = op["op"], op["kind"]
        if kind == "write":
            dst_path = spec["write_to"]
            shutil.rmtree(dst_path, ignore_errors=True)
            dst = open_array(dst_path, ctx, metadata)
            median, n = timed(lambda: dst.write(whole).result(), op)
        elif kind == "read":
            median, n = timed(lambda: src.read().result(), op)
        else:
            if kind == "orthogonal":
                lists = [np.asarray(i, dtype=np.int64) for i in op["indices"]]
                view = src.oindex[tuple(lists)]
                want = whole[np.ix_(*lists)]
            else:
                index = selection(op)
                view = src[index]
                want = whole[index]
            got = view.read().result()
            if got.shape != want.shape or got.tobytes() != want.tobytes():
                raise RuntimeError(f"{name}: tensorstore read other values than its whole read")
            median, n = timed(lambda: view.read().result(), op)
        out["ops"][name] = {"seconds": median, "runs": n}
    print(json.dumps(out))


if __name__ == "__main__":
    try:
        main()
    except Exception as e:  # one line zarr bench can report
        print(json.dumps({"error": f"{type(e).__name__}: {e}"}))
        sys.exit(1)
