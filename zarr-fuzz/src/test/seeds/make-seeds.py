#!/usr/bin/env python3
"""Writes the hand-made seed inputs of the metadata, zip, key and location fuzz targets.

Run from zarr-fuzz: python3 src/test/seeds/make-seeds.py. The files land in the targets'
committed inputs folders (src/test/resources/dev/zarrj/fuzz/<Class>Inputs/<method>/seed-*);
rerunning rewrites the same bytes. Seeds copied from the shared vectors sit beside them.
"""
import io
import json
import os
import zipfile

ROOT = os.path.join("src", "test", "resources", "dev", "zarrj", "fuzz")


def put(target, name, data):
    folder = os.path.join(ROOT, target)
    os.makedirs(folder, exist_ok=True)
    if isinstance(data, (dict, list)):
        data = json.dumps(data, indent=1)
    if isinstance(data, str):
        data = data.encode("utf-8")
    with open(os.path.join(folder, "seed-" + name), "wb") as f:
        f.write(data)


def array(dtype, shape, chunks, fill, codecs, **extra):
    doc = {"zarr_format": 3, "node_type": "array", "shape": shape, "data_type": dtype,
           "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": chunks}},
           "chunk_key_encoding": {"name": "default", "configuration": {"separator": "/"}},
           "fill_value": fill, "codecs": codecs}
    doc.update(extra)
    return doc


BYTES_LE = {"name": "bytes", "configuration": {"endian": "little"}}
SHARDED = array("int32", [16, 16], [8, 8], 0, [{"name": "sharding_indexed", "configuration": {
    "chunk_shape": [4, 4],
    "codecs": [{"name": "transpose", "configuration": {"order": [1, 0]}}, BYTES_LE,
               {"name": "zstd", "configuration": {"level": 1, "checksum": True}}],
    "index_codecs": [BYTES_LE, {"name": "crc32c"}], "index_location": "end"}}],
    dimension_names=["y", "x"], attributes={"units": "m"})
NESTED = array("uint16", [8, 8], [8, 8], 7, [{"name": "sharding_indexed", "configuration": {
    "chunk_shape": [4, 4], "codecs": [{"name": "sharding_indexed", "configuration": {
        "chunk_shape": [2, 2], "codecs": [BYTES_LE, {"name": "gzip", "configuration": {"level": 1}}],
        "index_codecs": [BYTES_LE, {"name": "crc32c"}], "index_location": "start"}}],
    "index_codecs": [BYTES_LE], "index_location": "end"}}], dimension_names=[None, "x"])
V3 = {
    "sharded-dimnames": SHARDED,
    "nested-sharding": NESTED,
    "blosc-bfloat16": array("bfloat16", [6], [3], "NaN", [BYTES_LE, {"name": "blosc", "configuration": {
        "cname": "lz4", "clevel": 5, "shuffle": "shuffle", "typesize": 2, "blocksize": 0}}]),
    "string-vlen": array("string", [5], [2], "", [{"name": "vlen-utf8"}]),
    "bytes-vlen": array("bytes", [5], [2], "", [{"name": "vlen-bytes"}]),
    "datetime64": array({"name": "numpy.datetime64", "configuration": {"unit": "ms", "scale_factor": 10}},
                        [3], [3], "NaT", [BYTES_LE]),
    "complex64-fill": array("complex64", [2, 2], [1, 2], [1.5, "-Infinity"], [BYTES_LE]),
    "int4-packbits": array("int4", [9], [4], -3, [{"name": "packbits", "configuration": {"padding_encoding": "none"}}]),
    "raw-bits": array("r16", [4], [4], [0, 255], [BYTES_LE]),
    "v2-key-encoding": dict(array("float32", [4, 4], [2, 2], 0.5, [BYTES_LE]),
                            chunk_key_encoding={"name": "v2", "configuration": {"separator": "."}}),
}
for name, doc in V3.items():
    put("MetadataFuzzTestInputs/zarrJson", name, doc)

CONSOLIDATED = {"zarr_format": 3, "node_type": "group", "attributes": {"title": "c"},
                "consolidated_metadata": {"kind": "inline", "must_understand": False, "metadata": {
                    "a": array("float64", [4, 5], [2, 5], "NaN", [BYTES_LE], dimension_names=["t", "x"]),
                    "g": {"zarr_format": 3, "node_type": "group", "attributes": {}},
                    "g/s": SHARDED,
                    "g/h": {"zarr_format": 3, "node_type": "group"},
                    "g/h/n": NESTED}}}
put("MetadataFuzzTestInputs/consolidated", "tree", CONSOLIDATED)
put("MetadataFuzzTestInputs/consolidated", "empty", {"zarr_format": 3, "node_type": "group",
    "consolidated_metadata": {"kind": "inline", "must_understand": False, "metadata": {}}})

# Zarr v2: the input is split into documents by NUL bytes: .zarray or .zgroup, .zattrs, .zmetadata.
def v2(*docs):
    return b"\0".join(json.dumps(d).encode() if d is not None else b"" for d in docs)


ZARRAY = {"zarr_format": 2, "shape": [10, 6], "chunks": [4, 3], "dtype": "<f8", "compressor": None,
          "fill_value": "NaN", "order": "C", "filters": None}
V2 = {
    "array": v2(ZARRAY, {"units": "K"}),
    "array-F-zlib": v2(dict(ZARRAY, order="F", dtype=">i2", fill_value=3,
                            compressor={"id": "zlib", "level": 1}, dimension_separator="/"), None),
    "array-blosc-delta": v2(dict(ZARRAY, dtype="<u4", fill_value=0,
                                 compressor={"id": "blosc", "cname": "zstd", "clevel": 3, "shuffle": 1, "blocksize": 0},
                                 filters=[{"id": "delta", "dtype": "<u4"}]), {}),
    "array-strings": v2(dict(ZARRAY, dtype="|O", fill_value="", filters=[{"id": "vlen-utf8"}]), None),
    "array-fixed-str": v2(dict(ZARRAY, dtype="<U4", fill_value="ab", compressor={"id": "gzip", "level": 5}), None),
    "array-structured": v2(dict(ZARRAY, dtype=[["a", "<i4"], ["b", "|S3"]], fill_value="AAAAAAAAAA=="), None),
    "array-datetime": v2(dict(ZARRAY, dtype="<M8[ns]", fill_value="NaT"), None),
    "group": v2({"zarr_format": 2}, {"title": "g"}),
}
for name, data in V2.items():
    put("V2MetadataFuzzTestInputs/node", name, data)
ZMETA = {"zarr_consolidated_format": 1, "metadata": {
    ".zgroup": {"zarr_format": 2}, ".zattrs": {"title": "root"},
    "a/.zarray": ZARRAY, "a/.zattrs": {"_ARRAY_DIMENSIONS": ["y", "x"]},
    "g/.zgroup": {"zarr_format": 2},
    "g/b/.zarray": dict(ZARRAY, dtype="|b1", fill_value=False, compressor={"id": "zstd", "level": 1})}}
put("V2MetadataFuzzTestInputs/zmetadata", "tree", json.dumps(ZMETA))
put("V2MetadataFuzzTestInputs/zmetadata", "minimal",
    json.dumps({"zarr_consolidated_format": 1, "metadata": {".zgroup": {"zarr_format": 2}}}))


# Zip archives holding a small array: stored, deflated, in a folder, with a comment.
def archive(entries, compression, comment=b""):
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression) as z:
        z.comment = comment
        for name, data in entries:
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            info.compress_type = compression
            z.writestr(info, data)
    return out.getvalue()


SMALL = array("uint8", [4], [2], 0, [BYTES_LE])
ENTRIES = [("zarr.json", json.dumps(SMALL)), ("c/0", bytes([1, 2])), ("c/1", bytes([3, 4]))]
put("ZipFuzzTestInputs/archive", "stored", archive(ENTRIES, zipfile.ZIP_STORED))
put("ZipFuzzTestInputs/archive", "deflated", archive(ENTRIES, zipfile.ZIP_DEFLATED, b"zarr"))
put("ZipFuzzTestInputs/archive", "group-folder", archive(
    [("g/zarr.json", json.dumps({"zarr_format": 3, "node_type": "group"}))]
    + [("g/a/" + n, d) for n, d in ENTRIES], zipfile.ZIP_STORED))
put("ZipFuzzTestInputs/archive", "empty", archive([], zipfile.ZIP_STORED))

for name, key in {"chunk": "a/b/c/0/1", "meta": "zarr.json", "dots": "a.b/..c/c.", "unicode": "é/ß/世界",
                  "v2": ".zarray", "temp-like": ".zarrj-0a1b.tmp", "spaces": "a b/ c "}.items():
    put("StoreKeyFuzzTestInputs/storeKey", name, key)
    put("StoreKeyFuzzTestInputs/fileStoreKey", name, key)
for name, path in {"root": "", "child": "a", "deep": "a/b", "slash": "/a/b/", "dotdot": "a/../b"}.items():
    put("StoreKeyFuzzTestInputs/nodePath", name, path)

for name, loc in {
        "zip": "zip:/data/set.zip", "zip-folder": "zip:/data/set.zip!/inner/folder",
        "zip-file": "zip:file:///data/set.zip?wait=5s", "zip-local": "zip://localhost/data/x%20y.zip",
        "s3": "s3://bucket/prefix/array", "s3-options": "s3://bucket?endpoint=http://127.0.0.1:9000&region=eu-west-1"
        "&path-style=true&anonymous=true&multipart-threshold=16MiB&part-size=8MiB&conditional-writes=false",
        "http": "http://127.0.0.1:1/data.zarr", "https-auth": "https://user:pw@localhost/a/b?connect-timeout=5s&request-timeout=PT1M",
        "http-query": "http://[::1]:8080/x?max-concurrent-requests=3"}.items():
    put("LocationFuzzTestInputs/location", name, loc)
