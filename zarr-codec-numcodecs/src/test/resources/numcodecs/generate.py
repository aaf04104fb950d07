#!/usr/bin/env python3
"""Writes reference.json: encodings of fixed inputs by the reference numcodecs.

Run from this folder with a Python that has numcodecs and numpy (Debian: apt-get install
python3-numcodecs):  python3 generate.py > reference.json

Each case names a numcodecs.* codec as zarr-python 3 writes it (v3 name and configuration), its
kind (bytes: bytes->bytes; array: array->array, run on an ndarray as zarr-python's wrappers do),
the input (dtype, shape, bytes in base64, little-endian), what numcodecs' encode returned (dtype
and bytes; bitround returns the integer view of the rounded floats, which zarr-python stores under
the float type) and what its decode of that returned. "deterministic" says whether zarrj is expected to
write the same bytes (false where zarrj uses another encoder: xz-java for lzma, lz4-java without
acceleration).
"""
import base64
import json
import sys
import warnings

import numpy as np
import numcodecs

warnings.simplefilter("ignore")
rng = np.random.default_rng(20261125)


def b64(a):
    return base64.b64encode(np.ascontiguousarray(a).tobytes()).decode("ascii")


def dtype_str(dt):
    return np.dtype(dt).str


cases = []


def add_bytes(name, config, arr, deterministic=True, note="", ignore=None):
    cfg = dict(config)
    codec = numcodecs.get_codec({"id": name, **cfg})
    enc = bytes(codec.encode(arr))
    try:
        dec = bytes(codec.decode(enc))
        assert dec == arr.tobytes(), name
    except ValueError as e:
        # numcodecs passes 'filters' to lzma.decompress for every format, which Python refuses
        # except for FORMAT_RAW: numcodecs cannot read its own xz streams with filters.
        note = (note + " " if note else "") + "numcodecs' decode fails: " + str(e)
    cases.append({"name": "numcodecs." + name, "configuration": cfg, "kind": "bytes",
                  "input": {"dtype": dtype_str(arr.dtype), "shape": list(arr.shape), "bytes": b64(arr)},
                  "encoded": {"bytes": base64.b64encode(enc).decode("ascii")},
                  "deterministic": deterministic, "note": note, **({"ignore": ignore} if ignore else {})})


def add_array(name, config, arr, note=""):
    cfg = dict(config)
    codec = numcodecs.get_codec({"id": name, **cfg})
    enc = np.asarray(codec.encode(arr))
    dec = np.asarray(codec.decode(enc)).reshape(arr.shape)
    cases.append({"name": "numcodecs." + name, "configuration": cfg, "kind": "array",
                  "input": {"dtype": dtype_str(arr.dtype), "shape": list(arr.shape), "bytes": b64(arr)},
                  "encoded": {"dtype": dtype_str(enc.dtype), "shape": list(enc.shape), "bytes": b64(enc)},
                  "decoded": {"dtype": dtype_str(dec.dtype), "bytes": b64(dec)},
                  "deterministic": True, "note": note})


# ---- inputs ----
smooth = (np.sin(np.arange(800) / 20.0) * 1000).astype("<f8")
noise = rng.integers(0, 256, 1000, dtype="u1")
i4 = rng.integers(-100000, 100000, 60, dtype="<i4").reshape(6, 10)
i4_steps = np.cumsum(rng.integers(-3, 4, 64)).astype("<i4").reshape(4, 4, 4)
u1 = rng.integers(0, 256, 33, dtype="u1")
f8 = (rng.standard_normal(40) * 10).astype("<f8").reshape(5, 8)
f4 = (rng.standard_normal(40) * 10).astype("<f4")
f2 = (rng.standard_normal(20)).astype("<f2")
special = np.array([0.0, -0.0, 1.5, -2.5, 2.5, 1e300, -1e300, np.inf, -np.inf, np.nan, 255.9, 256.0, -1.0,
                    3.0e9, -3.0e9, 1e19, 2.0 ** 63, 0.49999999999999994], dtype="<f8")
temps = (1000 + rng.standard_normal(50)).astype("<f8")
# numpy leaves float -> integer conversions of NaN and of values outside the target's range to the C
# cast (undefined), so the conversion cases use values every target holds.
signed_in_range = np.array([0.0, -0.0, 1.5, -2.5, 2.5, 100.7, -100.7, 127.9, -128.9, 0.49999999999999994])
unsigned_in_range = np.array([0.0, -0.0, 0.5, 1.5, 2.5, 100.7, 255.9, 0.49999999999999994])
big_in_range = np.array([0.0, 1.5, 3.0e9, 4294967295.0, 123456789.75])

# ---- bytes -> bytes ----
for level in (1, 5, 9):
    add_bytes("zlib", {"level": level}, smooth)
# Python's GzipFile writes the current time into MTIME (bytes 4 to 8): compared without them.
for level in (0, 1, 6, 9):
    add_bytes("gzip", {"level": level}, smooth, note="MTIME is the encoding time", ignore=[4, 8])
add_bytes("zlib", {"level": 1}, noise)
BZ2_NOTE = "zarrj uses commons-compress's bzip2 encoder, not libbz2"
for level in (1, 9):
    add_bytes("bz2", {"level": level}, smooth, False, BZ2_NOTE)
add_bytes("bz2", {"level": 1}, noise, False, BZ2_NOTE)
add_bytes("lzma", {"format": 1, "check": -1, "preset": None, "filters": None}, smooth, False)
add_bytes("lzma", {"format": 1, "check": 0, "preset": 1, "filters": None}, smooth, False)
add_bytes("lzma", {"format": 1, "check": 10, "preset": 9, "filters": None}, noise, False)
add_bytes("lzma", {"format": 2, "check": -1, "preset": 3, "filters": None}, smooth, False)
add_bytes("lzma", {"format": 1, "check": -1, "preset": None,
                   "filters": [{"id": 3, "dist": 8}, {"id": 33, "preset": 1}]}, smooth, False)
add_bytes("lzma", {"format": 3, "check": -1, "preset": None, "filters": [{"id": 33, "preset": 1}]}, smooth, False)
add_bytes("lzma", {"format": 3, "check": -1, "preset": None,
                   "filters": [{"id": 0x4000000000000001, "preset": 1}]}, smooth, False)
add_bytes("lz4", {"acceleration": 1}, smooth)
add_bytes("lz4", {"acceleration": 1}, noise)
add_bytes("lz4", {"acceleration": 10}, smooth, False)
add_bytes("adler32", {}, smooth)
add_bytes("adler32", {}, np.zeros(0, dtype="u1"))
add_bytes("crc32", {}, noise)
add_bytes("crc32", {}, np.arange(7, dtype="u1"))
for es in (2, 4, 8):
    add_bytes("shuffle", {"elementsize": es}, smooth)
add_bytes("shuffle", {"elementsize": 4}, f4)

# ---- array -> bytes ----
def add_array_bytes(name, config, arr, note=""):
    cfg = dict(config)
    codec = numcodecs.get_codec({"id": name, **cfg})
    enc = bytes(codec.encode(arr))
    dec = np.asarray(codec.decode(enc)).reshape(arr.shape)
    cases.append({"name": "numcodecs." + name, "configuration": cfg, "kind": "array_bytes",
                  "input": {"dtype": dtype_str(arr.dtype), "shape": list(arr.shape), "bytes": b64(arr)},
                  "encoded": {"bytes": base64.b64encode(enc).decode("ascii")},
                  "decoded": {"dtype": dtype_str(dec.dtype), "bytes": b64(dec)},
                  "deterministic": True, "note": note})


try:
    import zfpy  # noqa: F401 - numcodecs' ZFPY needs it (Debian: python3-zfpy)
    add_array_bytes("zfpy", {"mode": 4, "tolerance": 0.01}, f8)
    add_array_bytes("zfpy", {"mode": 4, "tolerance": 0.5}, (rng.standard_normal((3, 5, 7)) * 10).astype("<f4"))
    add_array_bytes("zfpy", {"mode": 2, "rate": 12}, smooth.astype("<f4"))
    add_array_bytes("zfpy", {"mode": 3, "precision": 20}, f8.reshape(2, 4, 5))
    add_array_bytes("zfpy", {"mode": 4, "tolerance": -1}, i4)
    add_array_bytes("zfpy", {"mode": 4, "tolerance": -1}, f8.reshape(1, 2, 4, 5))
    add_array_bytes("zfpy", {"mode": 3, "precision": 24}, i4_steps.astype("<i8"))
except ImportError:
    pass

# ---- array -> array ----
add_array("delta", {"dtype": "<i4"}, i4)
add_array("delta", {"dtype": "<i4", "astype": "<i1"}, i4_steps)
add_array("delta", {"dtype": "|u1"}, u1)
add_array("delta", {"dtype": "<i8", "astype": "<i2"}, i4_steps.astype("<i8"))
add_array("delta", {"dtype": "<f8"}, f8)
add_array("delta", {"dtype": "<f4"}, f4)
add_array("delta", {"dtype": "<f8", "astype": "<f4"}, f8)
add_array("delta", {"dtype": "<f2"}, f2)
add_array("fixedscaleoffset", {"offset": 1000, "scale": 10, "dtype": "<f8", "astype": "<i4"}, temps)
add_array("fixedscaleoffset", {"offset": 990, "scale": 10, "dtype": "<f8", "astype": "|u1"}, temps)
add_array("fixedscaleoffset", {"offset": 0.5, "scale": 4.0, "dtype": "<f4"}, f4)
add_array("fixedscaleoffset", {"offset": 0.5, "scale": 4.0, "dtype": "<f4", "astype": "<i2"}, f4)
add_array("fixedscaleoffset", {"offset": 3, "scale": 1, "dtype": "<i2"}, i4_steps.astype("<i2"))
add_array("fixedscaleoffset", {"offset": 5, "scale": 2.5, "dtype": "<i4", "astype": "<i4"}, i4)
add_array("fixedscaleoffset", {"offset": 0, "scale": 7, "dtype": "|u1"}, u1)
# An integer offset keeps the subtraction in the (wrapping) integer type before a float scale.
add_array("fixedscaleoffset", {"offset": 200, "scale": 0.5, "dtype": "|u1", "astype": "<f8"}, u1)
add_array("fixedscaleoffset", {"offset": 0, "scale": 1, "dtype": "<f8", "astype": "<i4"}, signed_in_range)
add_array("fixedscaleoffset", {"offset": 1, "scale": 3, "dtype": "<f2"}, f2)
for digits in range(-2, 12):
    add_array("quantize", {"digits": digits, "dtype": "<f8"}, f8)
add_array("quantize", {"digits": 2, "dtype": "<f4"}, f4)
add_array("quantize", {"digits": 1, "dtype": "<f2"}, f2)
add_array("quantize", {"digits": 3, "dtype": "<f8", "astype": "<f4"}, f8)
add_array("quantize", {"digits": 4, "dtype": "<f8"}, special)
for keep in (0, 1, 5, 10, 23):
    add_array("bitround", {"keepbits": keep}, f4)
for keep in (0, 12, 51, 52):
    add_array("bitround", {"keepbits": keep}, f8)
add_array("bitround", {"keepbits": 3}, special)
for keep in (0, 3, 10):
    add_array("bitround", {"keepbits": keep}, f2)
add_array("astype", {"encode_dtype": "<f4", "decode_dtype": "<f8"}, f8)
add_array("astype", {"encode_dtype": "<f4", "decode_dtype": "<f8"}, special)
add_array("astype", {"encode_dtype": "<f2", "decode_dtype": "<f8"}, special)
add_array("astype", {"encode_dtype": "|i1", "decode_dtype": "<i4"}, i4)
add_array("astype", {"encode_dtype": "|u1", "decode_dtype": "<f8"}, unsigned_in_range)
add_array("astype", {"encode_dtype": "|i1", "decode_dtype": "<f8"}, signed_in_range)
add_array("astype", {"encode_dtype": "<i2", "decode_dtype": "<f8"}, signed_in_range)
add_array("astype", {"encode_dtype": "<i4", "decode_dtype": "<f4"}, signed_in_range.astype("<f4"))
add_array("astype", {"encode_dtype": "<u4", "decode_dtype": "<f8"}, big_in_range)
add_array("astype", {"encode_dtype": "<i8", "decode_dtype": "<f8"}, big_in_range)
add_array("astype", {"encode_dtype": "<u8", "decode_dtype": "<f8"}, np.append(big_in_range, [1e19, 2.0 ** 63]))
add_array("astype", {"encode_dtype": "<f8", "decode_dtype": "<i8"},
          np.array([0, 1, -1, 2**53 + 1, -(2**63), 2**63 - 1, 12345678901234567], dtype="<i8"))
add_array("astype", {"encode_dtype": "<f4", "decode_dtype": "<u8"},
          np.array([0, 1, 2**64 - 2**40, 2**63, 2**24 + 1, 16777217 * 3], dtype="<u8"))
add_array("astype", {"encode_dtype": "<i8", "decode_dtype": "<f4"}, f4)
add_array("astype", {"encode_dtype": "|b1", "decode_dtype": "<f8"}, special)
add_array("astype", {"encode_dtype": "<f4", "decode_dtype": "|b1"}, np.array([True, False, True]))
for n in (1, 8, 13, 24):
    add_array("packbits", {}, (rng.integers(0, 2, n) == 1))

json.dump({"generator": "generate.py", "numcodecs": numcodecs.__version__, "numpy": np.__version__,
           "cases": cases}, sys.stdout, indent=1)
sys.stdout.write("\n")
