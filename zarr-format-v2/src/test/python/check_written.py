"""Checks with zarr-python 2 that the v2 arrays zarrj wrote hold what the fixtures hold.

    python3 check_written.py <fixtures folder> <folder zarrj wrote>

Opens the written hierarchy through its consolidated metadata; prints one line per array and
exits 1 when any differs.
"""
import json, os, sys
import numpy as np
import zarr

fixtures, written = sys.argv[1], sys.argv[2]
names = sorted(json.load(open(os.path.join(fixtures, 'expected.json'))))
want = zarr.open_group(fixtures, mode='r')
got = zarr.open_consolidated(written, mode='r')
assert got.attrs.asdict() == want.attrs.asdict(), (got.attrs.asdict(), want.attrs.asdict())
failed = False
for name in names:
    a, b = want[name], got[name]
    x, y = a[...], b[...]
    if x.dtype.kind == 'O':
        same = list(x.ravel()) == list(y.ravel())
    else:
        same = x.shape == y.shape and x.tobytes() == y.astype(x.dtype).tobytes() if x.dtype.kind != 'S' \
            else x.tobytes() == y.tobytes()
    same = same and a.attrs.asdict() == b.attrs.asdict() and a.chunks == b.chunks and a.order == b.order
    print(('OK   ' if same else 'FAIL ') + name + ('' if same else ': %r != %r' % (x, y)))
    failed |= not same
sys.exit(1 if failed else 0)
