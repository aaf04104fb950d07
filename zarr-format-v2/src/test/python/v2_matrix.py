#!/usr/bin/python3
"""The Zarr v2 test matrix, written and checked by zarr-python 2 (the reference).

    v2_matrix.py write DIR            writes the matrix hierarchy into the directory store DIR and,
                                      beside it (DIR's parent), expected.json
    v2_matrix.py verify DIR EXPECTED  opens DIR with zarr-python 2 and compares every element of
                                      every array EXPECTED lists, their attributes and metadata,
                                      and the listed groups; exits 1 printing every difference

Run it with an interpreter that has zarr-python 2 and numcodecs (Debian: python3-zarr,
python3-numcodecs). The values are seeded, so two runs write the same matrix.

expected.json holds, for each array path: "dtype" (numpy's str), "shape", "values" (every element
in C order: numbers; "NaN", "Infinity", "-Infinity" for those floats; datetimes and timedeltas as
int64 counts, NaT as -2**63; complex as [re, im]; fixed bytes, void and vlen bytes as base64; text
as is), "attrs", "zarray" (the .zarray fields that must survive a round trip: chunks, order,
fill_value, dimension_separator, compressor, filters) and "object_codec" for object arrays; under
"groups", each group path with its attributes; under "consolidated", the group paths that carry
consolidated metadata. The values are those zarr-python reads back, so lossy filters (quantize,
bitround, astype, fixedscaleoffset) and the fill value of unwritten chunks are already applied.
"""

import base64
import json
import math
import os
import sys
import zlib

import numcodecs
import numpy as np
import zarr
from numcodecs import (BZ2, LZ4, LZMA, AsType, BitRound, Blosc, Delta, FixedScaleOffset, GZip,
                       PackBits, Quantize, Shuffle, VLenBytes, VLenUTF8, Zlib, Zstd)

NAT = np.iinfo(np.int64).min


# ---------------------------------------------------------------------------------------------
# values

def seed_of(path):
    return zlib.crc32(path.encode("utf-8"))


def make_values(path, dtype, shape, special=True, kind=None):
    """Deterministic values of a dtype; special ones (extremes, NaN, NaT, ...) first."""
    rng = np.random.default_rng(seed_of(path))
    n = int(np.prod(shape, dtype=np.int64)) if shape else 1
    dt = np.dtype(dtype) if dtype != "O" else np.dtype(object)
    if dt.kind == "b":
        flat = rng.integers(0, 2, n).astype(bool)
    elif dt.kind in "iu":
        info = np.iinfo(dt)
        flat = rng.integers(info.min, info.max, n, dtype=dt.newbyteorder("="), endpoint=True)
        if special:
            flat[:2] = [info.min, info.max][: min(2, n)] if n >= 2 else [info.max]
        flat = flat.astype(dt)
    elif dt.kind == "f":
        flat = (rng.standard_normal(n) * 1000).astype(dt)
        if special:
            specials = [np.nan, np.inf, -np.inf, -0.0, 0.0, np.finfo(dt).max, np.finfo(dt).tiny,
                        np.finfo(dt).tiny / 4]
            k = min(len(specials), n)
            flat[:k] = np.array(specials[:k], dtype=dt)
    elif dt.kind == "c":
        part = np.dtype("f%d" % (dt.itemsize // 2))
        re = (rng.standard_normal(n) * 100).astype(part)
        im = (rng.standard_normal(n) * 100).astype(part)
        flat = (re + 1j * im).astype(dt)
        if special and n >= 3:
            flat[0] = complex(np.nan, 1.0)
            flat[1] = complex(np.inf, -np.inf)
            flat[2] = complex(-0.0, 0.0)
    elif dt.kind in "mM":
        unit = np.datetime_data(dt)[0]
        span = 2 ** 62 if unit == "ns" else 10 ** 12
        ints = rng.integers(-span, span, n, dtype=np.int64)
        if special and n >= 2:
            ints[0] = NAT
            ints[1] = 0
        flat = ints.view(dt.newbyteorder("=")).astype(dt)
    elif dt.kind == "S":
        alphabet = np.frombuffer(b"abcXYZ019 -_\xe9\xff\x80", dtype=np.uint8)
        items = []
        for _ in range(n):
            length = int(rng.integers(0, dt.itemsize + 1))
            items.append(bytes(rng.choice(alphabet, length)))
        if special and n >= 2:
            items[0] = b""
            items[1] = b"x" * dt.itemsize
        flat = np.array(items, dtype=dt)
    elif dt.kind == "U":
        alphabet = list("abcXYZ019 -_éß€漢字😀")
        items = []
        for _ in range(n):
            length = int(rng.integers(0, dt.itemsize // 4 + 1))
            items.append("".join(rng.choice(alphabet, length)))
        if special and n >= 2:
            items[0] = ""
            items[1] = "😀" * (dt.itemsize // 4)
        flat = np.array(items, dtype=dt)
    elif dt.kind == "V":
        flat = np.frombuffer(rng.integers(0, 256, n * dt.itemsize, dtype=np.uint8).tobytes(),
                             dtype=dt).copy()
    elif dt.kind == "O" and kind == "vlen-utf8":
        alphabet = list("abcXYZ019 -_éß€漢字😀\n\"\\")
        items = ["".join(rng.choice(alphabet, int(rng.integers(0, 20)))) for _ in range(n)]
        if special and n >= 2:
            items[0] = ""
            items[1] = "a longer text than the others, with ünïcödé 😀 in it"
        flat = np.empty(n, dtype=object)
        flat[:] = items
    elif dt.kind == "O" and kind == "vlen-bytes":
        items = [rng.integers(0, 256, int(rng.integers(0, 20)), dtype=np.uint8).tobytes()
                 for _ in range(n)]
        if special and n >= 2:
            items[0] = b""
            items[1] = b"\x00" * 7
        flat = np.empty(n, dtype=object)
        flat[:] = items
    else:
        raise ValueError("no values for %s %s" % (dtype, kind))
    return flat.reshape(shape) if shape else flat.reshape(())


def scaled(path, dtype, shape, scale, offset=0.0):
    """Finite floats in a range (for filters that need one)."""
    rng = np.random.default_rng(seed_of(path))
    n = int(np.prod(shape))
    return (rng.random(n) * scale + offset).astype(dtype).reshape(shape)


def small_ints(path, dtype, shape, lo, hi):
    rng = np.random.default_rng(seed_of(path))
    n = int(np.prod(shape))
    return rng.integers(lo, hi, n).astype(dtype).reshape(shape)


# ---------------------------------------------------------------------------------------------
# the matrix

def attrs_of(path):
    return {
        "name": path.rsplit("/", 1)[-1],
        "path": path,
        "seed": seed_of(path),
        "nested": {"list": [1, 2.5, "three", None, True, False], "text": "ünïcödé 😀",
                   "empty": {}},
        "units": "m/s",
    }


class Spec:
    def __init__(self, path, dtype, shape, chunks, order="C", compressor=None, filters=None,
                 sep=".", fill_value=0, object_codec=None, values=None, special=True,
                 write=None, attrs=True, write_empty_chunks=True):
        self.path = path
        self.dtype = dtype
        self.shape = tuple(shape)
        self.chunks = tuple(chunks)
        self.order = order
        self.compressor = compressor
        self.filters = filters
        self.sep = sep
        # zarr-python 2 cannot compare a void dtype with the default 0
        self.fill_value = None if (dtype.startswith("|V") and isinstance(fill_value, int)) \
            else fill_value
        self.object_codec = object_codec
        self.values = values
        self.special = special
        self.write = write  # None: everything; else a list of index tuples (slices) to write
        self.attrs = attrs
        self.write_empty_chunks = write_empty_chunks


DTYPES = ["|b1", "|i1", "<i2", "<i4", ">i4", "<i8", "|u1", "<u2", "<u4", "<u8", ">u8", "<f2",
          "<f4", ">f4", "<f8", ">f8", "<c8", "<c16", "<M8[ns]", "<M8[s]", "<m8[s]", "<m8[ms]",
          "|S10", "<U10", "|V4"]


def dtype_name(dtype):
    return (dtype.replace("<", "le_").replace(">", "be_").replace("|", "")
            .replace("[", "_").replace("]", ""))


def matrix():
    specs = []
    blosc = Blosc(cname="lz4", clevel=5, shuffle=Blosc.SHUFFLE)

    # every dtype, 2-d with edge chunks, C order, blosc; and again F order, '/' separator, zstd
    for dt in DTYPES:
        name = dtype_name(dt)
        specs.append(Spec("dtypes/c/" + name, dt, (7, 5), (3, 2), "C", blosc))
        specs.append(Spec("dtypes/f/" + name, dt, (5, 4, 3), (2, 3, 2), "F", Zstd(level=3),
                          sep="/"))
    for codec_name, codec in (("vlen-utf8", VLenUTF8()), ("vlen-bytes", VLenBytes())):
        specs.append(Spec("dtypes/c/object_" + codec_name, "O", (7, 5), (3, 2), "C", blosc,
                          object_codec=codec, fill_value=None))
        specs.append(Spec("dtypes/f/object_" + codec_name, "O", (5, 4, 3), (2, 3, 2), "F",
                          Zstd(level=3), sep="/", object_codec=codec, fill_value=None))

    # every compressor (blosc: each cname, each shuffle, big endian crossings)
    compressors = [
        ("none", None, "<f8"),
        ("blosc_lz4_noshuffle", Blosc(cname="lz4", clevel=5, shuffle=Blosc.NOSHUFFLE), "<i4"),
        ("blosc_lz4_shuffle", Blosc(cname="lz4", clevel=5, shuffle=Blosc.SHUFFLE), ">f8"),
        ("blosc_lz4_bitshuffle", Blosc(cname="lz4", clevel=5, shuffle=Blosc.BITSHUFFLE), "<u2"),
        ("blosc_zstd_noshuffle", Blosc(cname="zstd", clevel=3, shuffle=Blosc.NOSHUFFLE), "<f4"),
        ("blosc_zstd_shuffle", Blosc(cname="zstd", clevel=3, shuffle=Blosc.SHUFFLE), ">i4"),
        ("blosc_zstd_bitshuffle", Blosc(cname="zstd", clevel=3, shuffle=Blosc.BITSHUFFLE), ">u8"),
        ("blosc_zlib_noshuffle", Blosc(cname="zlib", clevel=1, shuffle=Blosc.NOSHUFFLE), ">f4"),
        ("blosc_zlib_shuffle", Blosc(cname="zlib", clevel=9, shuffle=Blosc.SHUFFLE), "<c16"),
        ("blosc_zlib_bitshuffle", Blosc(cname="zlib", clevel=5, shuffle=Blosc.BITSHUFFLE), "|u1"),
        ("blosc_lz4hc_autoshuffle", Blosc(cname="lz4hc", clevel=5, shuffle=Blosc.AUTOSHUFFLE),
         "<i8"),
        ("blosc_blosclz_blocksize", Blosc(cname="blosclz", clevel=5, shuffle=Blosc.SHUFFLE,
                                          blocksize=256), "<f8"),
        ("zstd", Zstd(level=5), "<f8"),
        ("zstd_level0", Zstd(level=0), ">i4"),
        ("gzip", GZip(level=5), "<i2"),
        ("zlib", Zlib(level=1), ">f8"),
        ("bz2", BZ2(level=9), "<u4"),
        ("lzma", LZMA(), "<f4"),
        ("lzma_preset", LZMA(preset=1), "<M8[ns]"),
        ("lz4", LZ4(acceleration=1), "<f8"),
        ("lz4_accel", LZ4(acceleration=10), "<i8"),
    ]
    for name, codec, dt in compressors:
        specs.append(Spec("compressors/" + name, dt, (20, 9), (6, 4), "C", codec))
    specs.append(Spec("compressors/blosc_f_bigendian", ">f8", (6, 7), (4, 3), "F",
                      Blosc(cname="zstd", clevel=5, shuffle=Blosc.SHUFFLE)))
    specs.append(Spec("compressors/gzip_strings", "<U10", (9,), (4,), "C", GZip(level=1),
                      fill_value=""))

    # every filter, with and without a compressor, C and F order
    def f8(p, shape, scale=1000.0, offset=0.0):
        return scaled(p, "<f8", shape, scale, offset)

    flt = [
        ("delta_i4", "<i4", (30,), (7,), "C", [Delta(dtype="<i4")], Zlib(level=1), None),
        ("delta_u1_f", "|u1", (6, 5), (4, 3), "F", [Delta(dtype="|u1")], None, None),
        ("delta_astype_f", "<i8", (6, 5), (4, 4), "F", [Delta(dtype="<i8", astype="<i2")],
         Blosc(cname="lz4", clevel=5, shuffle=Blosc.SHUFFLE),
         lambda p, s: small_ints(p, "<i8", s, -1000, 1000)),
        ("delta_f8", "<f8", (12,), (5,), "C", [Delta(dtype="<f8")], None, None),
        ("fixedscaleoffset", "<f8", (8, 6), (3, 4), "C",
         [FixedScaleOffset(offset=1000, scale=10, dtype="<f8", astype="<u2")], GZip(level=1),
         lambda p, s: f8(p, s, 1000.0, 500.0)),
        ("fixedscaleoffset_f", "<f4", (8, 6), (3, 4), "F",
         [FixedScaleOffset(offset=0, scale=100, dtype="<f4", astype="<i4")], None,
         lambda p, s: scaled(p, "<f4", s, 200.0, -100.0)),
        ("fixedscaleoffset_int", "<i4", (10,), (4,), "C",
         [FixedScaleOffset(offset=100, scale=1, dtype="<i4", astype="|u1")], None,
         lambda p, s: small_ints(p, "<i4", s, 100, 355)),
        ("quantize_f8", "<f8", (9, 4), (4, 4), "C", [Quantize(digits=3, dtype="<f8")],
         Zstd(level=1), lambda p, s: f8(p, s, 10.0)),
        ("quantize_f4_f", "<f4", (9, 4), (4, 3), "F", [Quantize(digits=2, dtype="<f4")], None,
         lambda p, s: scaled(p, "<f4", s, 10.0)),
        ("bitround_f4", "<f4", (10, 3), (4, 3), "C", [BitRound(keepbits=10)], Zlib(level=1),
         None),
        ("bitround_f8_f", "<f8", (10, 3), (4, 2), "F", [BitRound(keepbits=20)], None, None),
        ("astype_f8_f4", "<f8", (11,), (4,), "C", [AsType(encode_dtype="<f4",
                                                          decode_dtype="<f8")], None,
         lambda p, s: f8(p, s)),
        ("astype_i8_i2_f", "<i8", (5, 6), (2, 4), "F", [AsType(encode_dtype="<i2",
                                                               decode_dtype="<i8")], None,
         lambda p, s: small_ints(p, "<i8", s, -30000, 30000)),
        ("packbits_1d", "|b1", (21,), (8,), "C", [PackBits()], None, None),
        ("packbits_2d_f", "|b1", (5, 7), (3, 3), "F", [PackBits()], Zstd(level=1), None),
        ("shuffle_f8", "<f8", (13,), (5,), "C", [Shuffle(elementsize=8)], Zlib(level=1), None),
        ("shuffle_i2_f", "<i2", (4, 5), (3, 3), "F", [Shuffle(elementsize=2)], None, None),
        ("delta_shuffle_chain", "<i4", (25,), (10,), "C",
         [Delta(dtype="<i4"), Shuffle(elementsize=4)], BZ2(level=1), None),
        ("quantize_bitround_chain", "<f8", (4, 4), (3, 3), "C",
         [Quantize(digits=4, dtype="<f8"), BitRound(keepbits=30)],
         Blosc(cname="zstd", clevel=1, shuffle=Blosc.BITSHUFFLE),
         lambda p, s: scaled(p, "<f8", s, 10.0)),
        ("quantize_f8_be_blosc", ">f8", (4, 4), (3, 3), "C", [Quantize(digits=4, dtype=">f8")],
         Blosc(cname="lz4", clevel=5, shuffle=Blosc.SHUFFLE),
         lambda p, s: scaled(p, ">f8", s, 10.0)),
        # byte order inside the filter chain: filters see the array's (big-endian) values, and an
        # astype may store another byte order than the array's
        ("delta_i4_be", ">i4", (9,), (4,), "C", [Delta(dtype=">i4")], None, None),
        ("fixedscaleoffset_astype_be", "<f8", (9,), (4,), "C",
         [FixedScaleOffset(offset=10, scale=100, dtype="<f8", astype=">u2")], None,
         lambda p, s: f8(p, s, 100.0, 10.0)),
        ("astype_be_to_le", ">f8", (7,), (3,), "C", [AsType(encode_dtype="<f4",
                                                             decode_dtype=">f8")], None,
         lambda p, s: scaled(p, ">f8", s, 100.0)),
        ("vlen_utf8_lz4", "O", (6,), (4,), "C", None, LZ4(), "vlen-utf8"),
    ]
    for name, dt, shape, chunks, order, filters, comp, vals in flt:
        path = "filters/" + name
        if dt == "O":
            specs.append(Spec(path, "O", shape, chunks, order, comp,
                              object_codec=VLenUTF8(), fill_value=None))
            continue
        values = vals(path, shape) if vals is not None else None
        specs.append(Spec(path, dt, shape, chunks, order, comp, filters, values=values,
                          special=not any(isinstance(f, (BitRound, Quantize)) for f in filters)))

    # both separators with several ranks
    for sep, sname in ((".", "dot"), ("/", "slash")):
        specs.append(Spec("separators/%s_1d" % sname, "<i4", (10,), (3,), sep=sep))
        specs.append(Spec("separators/%s_2d" % sname, "<f4", (5, 6), (2, 4), sep=sep,
                          compressor=Zlib(level=1)))
        specs.append(Spec("separators/%s_3d_f" % sname, "<u2", (3, 4, 5), (2, 2, 2), "F",
                          sep=sep))

    # fill values, each on a partially written array so the fill value shows
    part2 = [(slice(0, 3), slice(0, 2))]  # one chunk of (3, 2) chunks written
    fills = [
        ("null_i4", "<i4", None, None),
        ("zero_i4", "<i4", 0, part2),
        ("42_u1", "|u1", 42, part2),
        ("42_i8_be", ">i8", 42, part2),
        ("42_f4", "<f4", 42.0, part2),
        ("nan_f8", "<f8", float("nan"), part2),
        ("nan_f2", "<f2", float("nan"), part2),
        ("inf_f4", "<f4", float("inf"), part2),
        ("neginf_f8_be", ">f8", float("-inf"), part2),
        ("neg_zero_f8", "<f8", -0.0, part2),  # zarr-python 2 stores 0.0 (-0.0 == 0)
        ("true_b1", "|b1", True, part2),
        ("complex_c16", "<c16", complex(1.5, -2.0), part2),
        ("complex_nan_c8", "<c8", complex(float("nan"), float("inf")), part2),
        ("nat_M8ns", "<M8[ns]", "NaT", part2),
        ("date_M8s", "<M8[s]", np.datetime64(1000000, "s"), part2),
        ("nat_m8ms", "<m8[ms]", "NaT", part2),
        ("bytes_S10", "|S10", b"fill\x00me", part2),
        ("text_U10", "<U10", "füll 😀", part2),
        ("void_V4", "|V4", b"\x01\x02\x03\x04", part2),
    ]
    for name, dt, fv, write in fills:
        specs.append(Spec("fill/" + name, dt, (7, 5), (3, 2), "C", Zlib(level=1),
                          fill_value=fv, write=write))
    specs.append(Spec("fill/text_U10_f", "<U10", (7, 5), (3, 2), "F", None, fill_value="abc",
                      write=[(slice(3, 6), slice(2, 4))]))
    specs.append(Spec("fill/nan_f8_no_empty_chunks", "<f8", (6, 6), (3, 3), "C", None,
                      fill_value=float("nan"), write_empty_chunks=False,
                      values=np.where(np.arange(36).reshape(6, 6) < 18, np.nan,
                                      np.arange(36.0).reshape(6, 6))))

    # shapes: 0-d, 1-d to 3-d, edge chunks, chunk larger than the array, length-0 dimension
    specs.append(Spec("shapes/scalar_f8", "<f8", (), (), compressor=Zlib(level=1), fill_value=7.0))
    specs.append(Spec("shapes/scalar_i2_unwritten", "<i2", (), (), fill_value=-3, write=[]))
    specs.append(Spec("shapes/scalar_U10", "<U10", (), (), fill_value=""))
    specs.append(Spec("shapes/1d_edge", "<i2", (17,), (5,)))
    specs.append(Spec("shapes/2d_edge", "<u4", (11, 13), (4, 5)))
    specs.append(Spec("shapes/3d_edge", "<f8", (5, 6, 7), (2, 4, 3), compressor=Zstd(level=1)))
    specs.append(Spec("shapes/3d_edge_f", "<i4", (5, 6, 7), (4, 4, 4), "F", sep="/",
                      compressor=GZip(level=1)))
    specs.append(Spec("shapes/chunk_bigger", "<f4", (3, 2), (10, 10)))
    specs.append(Spec("shapes/chunk_one", "|i1", (3, 4), (1, 1), sep="/"))
    specs.append(Spec("shapes/empty_dim", "<f8", (0, 4), (2, 2)))
    specs.append(Spec("shapes/partial_3d", "<i8", (5, 6, 7), (2, 3, 4), fill_value=-1,
                      write=[(slice(0, 2), slice(0, 3), slice(0, 4)),
                             (slice(4, 5), slice(3, 6), slice(4, 7))]))
    specs.append(Spec("shapes/partial_3d_f_slash", "<f4", (5, 6, 7), (2, 3, 4), "F", sep="/",
                      fill_value=float("nan"), compressor=Blosc(cname="zstd", clevel=1),
                      write=[(slice(1, 3), slice(2, 5), slice(0, 4))]))

    # nested groups (attributes at every level) and arrays deep inside
    specs.append(Spec("nested/a/b/c/deep_f8", "<f8", (4, 4), (2, 2)))
    specs.append(Spec("nested/a/sibling_i4", "<i4", (6,), (4,), attrs=False))
    specs.append(Spec("nested/x/y/vlen", "O", (5,), (2,), object_codec=VLenUTF8(),
                      fill_value=None))

    # a subtree with consolidated metadata
    specs.append(Spec("consolidated/a_f4", "<f4", (6, 4), (4, 4), compressor=Zlib(level=1)))
    specs.append(Spec("consolidated/sub/b_i2", ">i2", (9,), (4,), sep="/"))
    specs.append(Spec("consolidated/sub/c_u8_partial", "<u8", (8,), (3,), fill_value=42,
                      write=[(slice(0, 3),)]))
    specs.append(Spec("consolidated/sub/deeper/d_M8", "<M8[s]", (3, 3), (2, 2)))
    return specs


GROUPS = ["", "dtypes", "dtypes/c", "dtypes/f", "compressors", "filters", "separators", "fill",
          "shapes", "nested", "nested/a", "nested/a/b", "nested/a/b/c", "nested/x", "nested/x/y",
          "consolidated", "consolidated/sub", "consolidated/sub/deeper"]
# Consolidated metadata on a subtree (its .zmetadata holds the keys below it, relative to it) and on
# the root (every key). zarr-python 2.13's consolidate_metadata(path=...) always writes the root's
# .zmetadata, so a subtree's is written through a store rooted at the subtree, and read back so too.
CONSOLIDATED = ["consolidated", ""]


def group_attrs(path):
    if path in ("nested/x",):
        return {}
    return {"group": path or "/", "level": path.count("/") + (1 if path else 0),
            "doc": "zarr-python 2 test matrix", "tags": ["a", "b"], "pi": 3.25}


# ---------------------------------------------------------------------------------------------
# element encoding for expected.json

def b64(b):
    return base64.b64encode(bytes(b)).decode("ascii")


def float_json(x):
    x = float(x)
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    return x


def element_json(dt, x, object_codec=None):
    kind = dt.kind
    if kind == "b":
        return bool(x)
    if kind in "iu":
        return int(x)
    if kind == "f":
        return float_json(x)
    if kind == "c":
        return [float_json(x.real), float_json(x.imag)]
    if kind in "mM":
        return int(np.array(x).view(np.int64))
    if kind == "S":
        return b64(x)
    if kind == "U":
        return str(x)
    if kind == "V":
        return b64(x.tobytes())
    if kind == "O":
        if object_codec == "vlen-bytes":
            return b64(x)
        return x if isinstance(x, str) else str(x)
    raise ValueError("cannot encode %r of %s" % (x, dt))


def values_json(arr, object_codec=None):
    data = np.asarray(arr)
    return [element_json(data.dtype, x, object_codec) for x in data.reshape(-1, order="C")]


# ---------------------------------------------------------------------------------------------
# write

def cmd_write(root):
    root = os.path.abspath(root)
    if os.path.exists(root) and os.listdir(root):
        sys.exit("refusing to write into the non-empty %s" % root)
    store = zarr.DirectoryStore(root)
    top = zarr.group(store=store)
    for g in GROUPS:
        grp = top.require_group(g) if g else top
        grp.attrs.update(group_attrs(g))
    expected = {"arrays": {}, "groups": {}, "consolidated": list(CONSOLIDATED)}
    for g in GROUPS:
        expected["groups"][g] = group_attrs(g)
    specs = matrix()
    for s in specs:
        kw = dict(shape=s.shape, chunks=s.chunks, dtype=s.dtype if s.dtype != "O" else object,
                  compressor=s.compressor, fill_value=s.fill_value, order=s.order,
                  store=store, path=s.path, filters=s.filters, dimension_separator=s.sep,
                  write_empty_chunks=s.write_empty_chunks, overwrite=False)
        if s.object_codec is not None:
            kw["object_codec"] = s.object_codec
        arr = zarr.create(**kw)
        codec_id = s.object_codec.codec_id if s.object_codec is not None else None
        values = s.values if s.values is not None else make_values(
            s.path, s.dtype, s.shape, special=s.special, kind=codec_id)
        if s.write is None:
            if s.shape == ():
                arr[...] = values
            elif 0 not in s.shape:
                arr[...] = values
        else:
            for sel in s.write:
                arr[sel] = values[sel]
        if s.attrs:
            arr.attrs.update(attrs_of(s.path))
    for g in CONSOLIDATED:  # the root last: a subtree's .zmetadata is no key of the root's
        zarr.consolidate_metadata(zarr.DirectoryStore(os.path.join(root, g)) if g else store)

    # what zarr-python reads back, from a fresh store
    store = zarr.DirectoryStore(root)
    for s in specs:
        arr = zarr.open_array(store, path=s.path, mode="r")
        codec_id = s.object_codec.codec_id if s.object_codec is not None else None
        zarray = json.loads(store[(s.path + "/.zarray")].decode("utf-8"))
        entry = {
            "dtype": arr.dtype.str if s.dtype != "O" else "|O",
            "shape": list(arr.shape),
            "attrs": dict(arr.attrs.asdict()),
            "zarray": {k: zarray.get(k) for k in ("chunks", "order", "fill_value",
                                                  "dimension_separator", "compressor",
                                                  "filters")},
            "values": values_json(arr[...], codec_id),
        }
        if codec_id is not None:
            entry["object_codec"] = codec_id
        expected["arrays"][s.path] = entry
    out = os.path.join(os.path.dirname(root.rstrip(os.sep)), "expected.json")
    with open(out, "w", encoding="utf-8") as f:
        json.dump(expected, f, indent=1, ensure_ascii=False, allow_nan=False)
    n = sum(len(e["values"]) for e in expected["arrays"].values())
    print("wrote %d arrays (%d elements) and %d groups into %s; expected values in %s"
          % (len(specs), n, len(GROUPS), root, out))


# ---------------------------------------------------------------------------------------------
# verify

def same_element(want, got):
    if isinstance(want, list) and isinstance(got, list):
        return len(want) == len(got) and all(same_element(a, b) for a, b in zip(want, got))
    if isinstance(want, bool) or isinstance(got, bool):
        return type(want) is type(got) and want == got
    if isinstance(want, float) and isinstance(got, float):
        # exact, -0.0 and 0.0 apart
        return want == got and math.copysign(1.0, want) == math.copysign(1.0, got)
    if isinstance(want, (int, float)) and isinstance(got, (int, float)):
        return want == got and type(want) is type(got)
    return want == got


def codec_chain(filters, compressor):
    return list(filters or []) + ([compressor] if compressor else [])


# The numcodecs fields that name the type a filter reads (its input): when a filter declares the
# type it writes (astype, encode_dtype), the bytes the compressor sees have that type's byte order,
# and the byte order of the array's own dtype, and of the filters' inputs, says nothing about the
# stored bytes; a Zarr v3 document, which keeps byte order in its bytes codec only, cannot keep it.
INPUT_DTYPE_FIELDS = ("dtype", "decode_dtype")
OUTPUT_DTYPE_FIELDS = ("astype", "encode_dtype")


def declares_output_type(filters):
    return any(any(k in (f or {}) for k in OUTPUT_DTYPE_FIELDS) for f in (filters or []))


def without_byte_order(dtype):
    return dtype[1:] if isinstance(dtype, str) and dtype[:1] in "<>=|" else dtype


def same_codec(want, got, itemsize=None, input_order_free=False):
    """Codec configurations compared as numcodecs normalizes them (defaults filled in).

    Blosc's AUTOSHUFFLE (-1) is what numcodecs resolves it to when it encodes (bit shuffle for
    1-byte items, else byte shuffle) when the item size is known (blosc right on the array's
    elements): Zarr v3's blosc has no automatic shuffle.
    """
    if want is None or got is None:
        return want is None and got is None
    try:
        w = numcodecs.get_codec(dict(want)).get_config()
        g = numcodecs.get_codec(dict(got)).get_config()
    except Exception:  # noqa: BLE001 -- an unknown codec: compare as written
        return want == got
    for c in (w, g):
        if c.get("id") == "blosc" and c.get("shuffle") == Blosc.AUTOSHUFFLE and itemsize:
            c["shuffle"] = Blosc.BITSHUFFLE if itemsize == 1 else Blosc.SHUFFLE
        if input_order_free:
            for k in INPUT_DTYPE_FIELDS:
                if k in c:
                    c[k] = without_byte_order(np.dtype(c[k]).str)
    return w == g


def same_fill(want, got):
    # "no fill value" (null) has no Zarr v3 equivalent: an array created afresh from a v3 document
    # may store the data type's default instead; the elements are compared all the same
    if want is None:
        return True
    if isinstance(want, float) and isinstance(got, float):
        return same_element(want, got)
    if isinstance(want, (int, float)) and isinstance(got, (int, float)) \
            and not isinstance(want, bool) and not isinstance(got, bool):
        return float(want) == float(got)
    if isinstance(want, list) and isinstance(got, list):
        return len(want) == len(got) and all(same_fill(a, b) for a, b in zip(want, got))
    return want == got


def check_attrs(what, node, want, problem):
    try:
        got = dict(node.attrs.asdict())
    except Exception as e:  # noqa: BLE001 -- an unreadable .zattrs is a difference to report
        problem("%s: cannot read the attributes: %s: %s" % (what, type(e).__name__, e))
        return
    if got != want:
        problem("%s: attributes %s, expected %s" % (what, json.dumps(got), json.dumps(want)))


def cmd_verify(root, expected_path, limit=50):
    with open(expected_path, encoding="utf-8") as f:
        expected = json.load(f)
    store = zarr.DirectoryStore(os.path.abspath(root))
    problems = []
    arrays = elements = groups = 0

    def problem(msg):
        problems.append(msg)

    for path, want in expected.get("arrays", {}).items():
        try:
            arr = zarr.open_array(store, path=path, mode="r")
        except Exception as e:  # noqa: BLE001 -- every failure is a difference to report
            problem("%s: cannot open: %s: %s" % (path, type(e).__name__, e))
            continue
        arrays += 1
        dtype = arr.dtype.str if arr.dtype != object else "|O"
        # see INPUT_DTYPE_FIELDS: the array's byte order is free where a filter declares its output
        order_free = declares_output_type(want.get("zarray", {}).get("filters"))
        if (without_byte_order(dtype) != without_byte_order(want["dtype"])) if order_free else dtype != want["dtype"]:
            problem("%s: dtype %s, expected %s" % (path, dtype, want["dtype"]))
        if list(arr.shape) != want["shape"]:
            problem("%s: shape %s, expected %s" % (path, list(arr.shape), want["shape"]))
            continue
        if "attrs" in want:
            check_attrs(path, arr, want["attrs"], problem)
        zarray = json.loads(store[path + "/.zarray"].decode("utf-8"))
        want_zarray = want.get("zarray", {})
        if "compressor" in want_zarray or "filters" in want_zarray:
            # filters then compressor: one chain of codecs; a v3 document does not say where the
            # filters end when there is no compressor (a last bytes-to-bytes filter, shuffle, may
            # come back as the compressor), so the chains are compared
            want_chain = codec_chain(want_zarray.get("filters"), want_zarray.get("compressor"))
            got_chain = codec_chain(zarray.get("filters"), zarray.get("compressor"))
            if len(want_chain) != len(got_chain) or not all(
                    same_codec(a, b, arr.dtype.itemsize if i == len(want_chain) - 1 and
                               len(want_chain) == 1 else None, order_free)
                    for i, (a, b) in enumerate(zip(want_chain, got_chain))):
                problem("%s: .zarray filters %s and compressor %s, expected %s and %s"
                        % (path, json.dumps(zarray.get("filters")),
                           json.dumps(zarray.get("compressor")),
                           json.dumps(want_zarray.get("filters")),
                           json.dumps(want_zarray.get("compressor"))))
        for key, value in want_zarray.items():
            got = zarray.get(key)
            if key in ("compressor", "filters"):
                continue
            elif key == "fill_value":
                ok = same_fill(value, got)
            elif key == "dimension_separator":
                ok = (value or ".") == (got or ".")
            else:
                ok = value == got
            if not ok:
                problem("%s: .zarray %s is %s, expected %s"
                        % (path, key, json.dumps(got), json.dumps(value)))
        try:
            got_values = values_json(arr[...], want.get("object_codec"))
        except Exception as e:  # noqa: BLE001
            problem("%s: cannot read: %s: %s" % (path, type(e).__name__, e))
            continue
        want_values = want["values"]
        if len(got_values) != len(want_values):
            problem("%s: %d elements, expected %d" % (path, len(got_values), len(want_values)))
            continue
        shape = tuple(want["shape"])
        differ = 0
        for i, (w, g) in enumerate(zip(want_values, got_values)):
            elements += 1
            if not same_element(w, g):
                differ += 1
                if differ <= limit:
                    index = tuple(int(k) for k in np.unravel_index(i, shape)) if shape else ()
                    problem("%s%s: %s, expected %s" % (path, list(index), json.dumps(g),
                                                       json.dumps(w)))
        if differ > limit:
            problem("%s: %d more elements differ" % (path, differ - limit))

    for path, attrs in expected.get("groups", {}).items():
        try:
            grp = zarr.open_group(store, path=path, mode="r")
        except Exception as e:  # noqa: BLE001
            problem("group %r: cannot open: %s: %s" % (path, type(e).__name__, e))
            continue
        groups += 1
        if attrs is not None:
            check_attrs("group %r" % path, grp, attrs, problem)

    for path in expected.get("consolidated", []):
        try:
            sub_store = zarr.DirectoryStore(os.path.join(os.path.abspath(root), path)) if path else store
            grp = zarr.open_consolidated(sub_store, mode="r")
        except Exception as e:  # noqa: BLE001
            problem("consolidated %r: cannot open: %s: %s" % (path, type(e).__name__, e))
            continue
        prefix = path + "/" if path else ""
        for apath, want in expected.get("arrays", {}).items():
            if not apath.startswith(prefix):
                continue
            try:
                arr = grp[apath[len(prefix):]]
                got_values = values_json(arr[...], want.get("object_codec"))
            except Exception as e:  # noqa: BLE001
                problem("consolidated %r: %s: %s: %s" % (path, apath, type(e).__name__, e))
                continue
            if len(got_values) != len(want["values"]) or not all(
                    same_element(w, g) for w, g in zip(want["values"], got_values)):
                problem("consolidated %r: %s reads other values through the consolidated "
                        "metadata" % (path, apath))
            if "attrs" in want:
                check_attrs("consolidated %r: %s" % (path, apath), arr, want["attrs"], problem)
        for gpath, attrs in expected.get("groups", {}).items():
            if attrs is None or not (gpath == path or gpath.startswith(prefix)):
                continue
            try:
                sub = grp if gpath == path else grp[gpath[len(prefix):]]
            except Exception as e:  # noqa: BLE001
                problem("consolidated %r: group %r: %s: %s" % (path, gpath, type(e).__name__, e))
                continue
            check_attrs("consolidated %r: group %r" % (path, gpath), sub, attrs, problem)

    for p in problems:
        print(p)
    print("checked %d arrays, %d elements, %d groups, %d consolidated groups: %d differences"
          % (arrays, elements, groups, len(expected.get("consolidated", [])), len(problems)))
    return 1 if problems else 0


def main(argv):
    if len(argv) == 3 and argv[1] == "write":
        cmd_write(argv[2])
        return 0
    if len(argv) == 4 and argv[1] == "verify":
        return cmd_verify(argv[2], argv[3])
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
