// Writes the conformance kit's test vectors with zarrita, an implementation of Zarr v3 that shares
// no code with zarrj, and a manifest.json that gives every element's expected value.
//
//   npm ci && node generate.mjs [OUT_DIR]
//
// OUT_DIR defaults to the kit's resources (../src/main/resources/dev/zarrj/conformance/vectors/zarrita)
// and is replaced whole. The output is reproducible: a seeded generator, gzip without a time stamp,
// pinned packages (package-lock.json); .ci/run writes it again and compares. Before it writes the
// manifest, the script reads every array back with zarrita and compares each element.
import * as zarr from "zarrita";
import FileSystemStore from "@zarrita/storage/fs";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { encodeChunk, setup } from "./zarrita-setup.mjs";

const HERE = dirname(fileURLToPath(import.meta.url));
const OUT = process.argv[2] ?? join(HERE, "..", "src", "main", "resources", "dev", "zarrj", "conformance", "vectors", "zarrita");

await setup();

// ---- the matrix ----

const LE = { name: "bytes", configuration: { endian: "little" } };
const BE = { name: "bytes", configuration: { endian: "big" } };
const BYTES = { name: "bytes" };
const SIZE = { bool: 1, int8: 1, uint8: 1, int16: 2, uint16: 2, float16: 2, int32: 4, uint32: 4, float32: 4, int64: 8, uint64: 8, float64: 8 };
const le = (t) => (SIZE[t] === 1 ? BYTES : LE);
const gzip = (level) => ({ name: "gzip", configuration: { level } });
const CRC32C = { name: "crc32c" };
const transpose = (order) => ({ name: "transpose", configuration: { order } });
const zstd = (level) => ({ name: "zstd", configuration: { level, checksum: false } });
const blosc = (cname, clevel, shuffle) => ({ name: "blosc", configuration: { cname, clevel, shuffle, typesize: 4, blocksize: 0 } });
const sharding = (chunk_shape, codecs, index_codecs) => ({
  name: "sharding_indexed",
  configuration: { chunk_shape, codecs, index_codecs, index_location: "end" },
});
const DEFAULT_SLASH = { name: "default", configuration: { separator: "/" } };
const DEFAULT_DOT = { name: "default", configuration: { separator: "." } };
const V2_DOT = { name: "v2", configuration: { separator: "." } };
const V2_SLASH = { name: "v2", configuration: { separator: "/" } };

const TYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16", "float32", "float64"];
// Fill values in every JSON form zarrita reads: zero, nonzero, negative, extreme, NaN, ±Infinity.
// 64-bit integers stay within ±(2^53 - 1): zarrita parses metadata with JavaScript numbers.
const DTYPE_FILL = {
  bool: true, int8: -128, int16: -1, int32: 42, int64: -9007199254740991, uint8: 255, uint16: 0,
  uint32: 4294967295, uint64: 9007199254740991, float16: "Infinity", float32: "NaN", float64: -0.25,
};
const ENDIAN_FILL = {
  int16: 32767, int32: -2147483648, int64: 0, uint16: 65535, uint32: 7, uint64: 0,
  float16: "-Infinity", float32: 1.5, float64: "NaN",
};

/** Each entry: where, what, and the regions written ([offset, shape]); the rest stays fill value. */
const MATRIX = [];
for (const t of TYPES) {
  MATRIX.push({
    path: `dtype/${t}`, dtype: t, shape: [5, 7], chunks: [2, 3], codecs: [le(t)], fill: DTYPE_FILL[t],
    writes: [[[1, 0], [4, 4]]], features: ["edge-chunks", "missing-chunks"],
  });
}
for (const t of TYPES.filter((t) => SIZE[t] > 1)) {
  MATRIX.push({
    path: `endian/${t}_big`, dtype: t, shape: [11], chunks: [4], codecs: [BE], fill: ENDIAN_FILL[t],
    writes: [[[0], [4]], [[8], [3]]], features: ["bytes-big-endian", "edge-chunks", "missing-chunks"],
  });
}
MATRIX.push(
  { path: "fill/float32_nan_never_written", dtype: "float32", shape: [6], chunks: [4], codecs: [LE], fill: "NaN", writes: [], features: ["fill-nan", "missing-chunks"] },
  { path: "fill/float64_infinity", dtype: "float64", shape: [6], chunks: [4], codecs: [LE], fill: "Infinity", writes: [[[0], [2]]], features: ["fill-infinity", "edge-chunks"] },
  { path: "fill/float64_minus_infinity", dtype: "float64", shape: [6], chunks: [4], codecs: [BE], fill: "-Infinity", writes: [[[5], [1]]], features: ["fill-minus-infinity", "missing-chunks"] },
  { path: "fill/float16_negative", dtype: "float16", shape: [3, 3], chunks: [2, 2], codecs: [LE], fill: -2.5, writes: [[[0, 0], [1, 1]]], features: ["fill-negative", "missing-chunks"] },
  { path: "fill/float64_large", dtype: "float64", shape: [5], chunks: [2], codecs: [LE], fill: 1e300, writes: [[[2], [1]]], features: ["fill-nonzero", "missing-chunks"] },
  { path: "fill/int32_zero_never_written", dtype: "int32", shape: [4, 4], chunks: [3, 3], codecs: [LE], fill: 0, writes: [], features: ["fill-zero", "missing-chunks"] },
  { path: "fill/bool_false", dtype: "bool", shape: [9], chunks: [4], codecs: [BYTES], fill: false, writes: [[[3], [2]]], features: ["fill-zero", "missing-chunks"] },
  { path: "fill/uint8_nonzero", dtype: "uint8", shape: [2, 2, 2], chunks: [1, 2, 1], codecs: [BYTES], fill: 17, writes: [[[0, 0, 0], [1, 2, 2]]], features: ["fill-nonzero", "missing-chunks"] },
);
MATRIX.push(
  { path: "keys/default_slash", dtype: "int16", shape: [4, 5, 3], chunks: [2, 3, 2], codecs: [LE], fill: -7, keys: DEFAULT_SLASH, writes: [[[0, 0, 0], [4, 3, 3]]], features: ["key-default-slash", "edge-chunks", "missing-chunks"] },
  { path: "keys/default_dot", dtype: "int16", shape: [4, 5, 3], chunks: [2, 3, 2], codecs: [LE], fill: -7, keys: DEFAULT_DOT, writes: [[[0, 0, 0], [4, 3, 3]]], features: ["key-default-dot", "edge-chunks", "missing-chunks"] },
  { path: "keys/v2_dot", dtype: "uint32", shape: [4, 5, 3], chunks: [2, 3, 2], codecs: [LE], fill: 1, keys: V2_DOT, writes: [[[0, 0, 0], [4, 3, 3]]], features: ["key-v2-dot", "edge-chunks", "missing-chunks"] },
  { path: "keys/v2_slash", dtype: "uint32", shape: [4, 5, 3], chunks: [2, 3, 2], codecs: [LE], fill: 1, keys: V2_SLASH, writes: [[[0, 0, 0], [4, 3, 3]]], features: ["key-v2-slash", "edge-chunks", "missing-chunks"] },
  { path: "keys/default_1d_dot", dtype: "uint8", shape: [25], chunks: [10], codecs: [BYTES], fill: 0, keys: DEFAULT_DOT, writes: [[[0], [25]]], features: ["key-default-dot", "edge-chunks"] },
  { path: "keys/v2_1d", dtype: "uint8", shape: [25], chunks: [10], codecs: [BYTES], fill: 0, keys: V2_DOT, writes: [[[0], [25]]], features: ["key-v2-dot", "edge-chunks"] },
  { path: "keys/default_0d", dtype: "float64", shape: [], chunks: [], codecs: [LE], fill: 0, keys: DEFAULT_SLASH, writes: [[[], []]], features: ["zero-dimensional", "key-default-slash"] },
  { path: "keys/default_0d_never_written", dtype: "int32", shape: [], chunks: [], codecs: [LE], fill: -3, keys: DEFAULT_SLASH, writes: [], features: ["zero-dimensional", "missing-chunks"] },
  { path: "keys/v2_0d", dtype: "uint16", shape: [], chunks: [], codecs: [BE], fill: 0, keys: V2_DOT, writes: [[[], []]], features: ["zero-dimensional", "key-v2-dot"] },
);
MATRIX.push(
  { path: "codecs/transpose_201", dtype: "int32", shape: [4, 5, 7], chunks: [2, 3, 4], codecs: [transpose([2, 0, 1]), LE], fill: 0, writes: [[[0, 0, 0], [4, 5, 6]]], features: ["transpose", "edge-chunks"] },
  { path: "codecs/transpose_10_big", dtype: "uint16", shape: [6, 5], chunks: [4, 3], codecs: [transpose([1, 0]), BE], fill: 9, writes: [[[1, 1], [5, 4]]], features: ["transpose", "bytes-big-endian", "edge-chunks"] },
  { path: "codecs/transpose_120_float64", dtype: "float64", shape: [3, 4, 5], chunks: [3, 4, 5], codecs: [transpose([1, 2, 0]), LE], fill: "NaN", writes: [[[0, 0, 0], [3, 4, 5]]], features: ["transpose"] },
  { path: "codecs/crc32c", dtype: "float64", shape: [10], chunks: [4], codecs: [LE, CRC32C], fill: 0.5, writes: [[[0], [7]]], features: ["crc32c", "edge-chunks", "missing-chunks"] },
  { path: "codecs/crc32c_big", dtype: "int64", shape: [3, 3], chunks: [2, 2], codecs: [BE, CRC32C], fill: 0, writes: [[[0, 0], [3, 3]]], features: ["crc32c", "bytes-big-endian", "edge-chunks"] },
  { path: "codecs/gzip", dtype: "float32", shape: [20, 20], chunks: [8, 8], codecs: [LE, gzip(5)], fill: "NaN", writes: [[[0, 0], [16, 20]]], features: ["gzip", "edge-chunks", "missing-chunks"] },
  { path: "codecs/gzip_level0", dtype: "uint8", shape: [30], chunks: [16], codecs: [BYTES, gzip(0)], fill: 0, writes: [[[0], [30]]], features: ["gzip", "edge-chunks"] },
  { path: "codecs/transpose_gzip_crc32c", dtype: "int16", shape: [6, 9], chunks: [4, 4], codecs: [transpose([1, 0]), BE, gzip(9), CRC32C], fill: -1, writes: [[[0, 0], [6, 9]]], features: ["transpose", "bytes-big-endian", "gzip", "crc32c", "edge-chunks"] },
  { path: "codecs/zstd", dtype: "int64", shape: [40], chunks: [16], codecs: [LE, zstd(3)], fill: 0, writes: [[[0], [40]]], features: ["zstd", "edge-chunks"] },
  { path: "codecs/zstd_crc32c", dtype: "float32", shape: [7, 6], chunks: [3, 4], codecs: [BE, zstd(5), CRC32C], fill: "-Infinity", writes: [[[0, 0], [6, 6]]], features: ["zstd", "crc32c", "bytes-big-endian", "edge-chunks", "missing-chunks"] },
  { path: "codecs/blosc_lz4_shuffle", dtype: "float32", shape: [25, 9], chunks: [8, 4], codecs: [LE, blosc("lz4", 5, "shuffle")], fill: 0, writes: [[[0, 0], [25, 9]]], features: ["blosc", "edge-chunks"] },
  { path: "codecs/blosc_zstd_bitshuffle", dtype: "int32", shape: [100], chunks: [30], codecs: [LE, blosc("zstd", 3, "bitshuffle")], fill: -1, writes: [[[5], [60]]], features: ["blosc", "edge-chunks", "missing-chunks"] },
  { path: "codecs/blosc_blosclz_noshuffle", dtype: "uint32", shape: [50], chunks: [20], codecs: [BE, blosc("blosclz", 9, "noshuffle")], fill: 3, writes: [[[0], [50]]], features: ["blosc", "bytes-big-endian", "edge-chunks"] },
  { path: "codecs/blosc_zlib_shuffle", dtype: "float32", shape: [40], chunks: [40], codecs: [LE, blosc("zlib", 1, "shuffle")], fill: 0, writes: [[[0], [40]]], features: ["blosc"] },
);
MATRIX.push(
  {
    path: "sharding/gzip_crc32c_index", dtype: "int32", shape: [9, 10], chunks: [4, 6], fill: -1,
    codecs: [sharding([2, 3], [LE, gzip(1)], [LE, CRC32C])], writes: [[[0, 0], [7, 8]]],
    features: ["sharding", "gzip", "crc32c", "edge-chunks", "missing-chunks"],
  },
  {
    path: "sharding/transposed_inner_big", dtype: "uint16", shape: [8, 8], chunks: [8, 4], fill: 0,
    codecs: [sharding([4, 2], [transpose([1, 0]), BE], [LE])], writes: [[[0, 0], [8, 8]]],
    features: ["sharding", "transpose", "bytes-big-endian"],
  },
  {
    path: "sharding/zstd_v2_keys", dtype: "float64", shape: [12], chunks: [6], fill: "NaN", keys: V2_DOT,
    codecs: [sharding([2], [LE, zstd(3)], [LE, CRC32C])], writes: [[[1], [2]]],
    features: ["sharding", "zstd", "crc32c", "key-v2-dot", "missing-chunks"],
  },
  {
    path: "sharding/blosc_inner_big_index", dtype: "float32", shape: [5, 5], chunks: [4, 4], fill: 0.5,
    codecs: [sharding([2, 2], [LE, blosc("lz4", 5, "shuffle")], [BE, CRC32C])], writes: [[[0, 0], [5, 5]]],
    features: ["sharding", "blosc", "crc32c", "edge-chunks"],
  },
);

const CORE_CODECS = new Set(["bytes", "transpose", "crc32c"]);

// ---- values ----

function mulberry32(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = seed;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rnd = mulberry32(20240101);
const u32 = () => Math.floor(rnd() * 4294967296);

const INT_RANGE = { int8: [-128, 127], int16: [-32768, 32767], int32: [-2147483648, 2147483647], uint8: [0, 255], uint16: [0, 65535], uint32: [0, 4294967295] };
const SPECIAL = {
  float16: [NaN, Infinity, -Infinity, 65504, -65504, 2 ** -24],
  float32: [NaN, Infinity, -Infinity, 3.4028234663852886e38, 1.401298464324817e-45],
  float64: [NaN, Infinity, -Infinity, Number.MAX_VALUE, Number.MIN_VALUE],
  int64: [-(2n ** 63n), 2n ** 63n - 1n],
  uint64: [0n, 2n ** 64n - 1n],
};
const F16 = new Float16Array(1);

/** The k-th value written into a region (specials and extremes first, then random ones). */
function value(dtype, k) {
  if (dtype === "bool") return rnd() < 0.5;
  if (dtype in INT_RANGE) {
    const [lo, hi] = INT_RANGE[dtype];
    if (k === 0) return lo;
    if (k === 1) return hi;
    return lo + Math.floor(rnd() * (hi - lo + 1));
  }
  if (dtype === "int64" || dtype === "uint64") {
    if (k < 2) return SPECIAL[dtype][k];
    const v = (BigInt(u32()) << 32n) | BigInt(u32());
    return dtype === "int64" ? BigInt.asIntN(64, v) : v;
  }
  if (k < SPECIAL[dtype].length) return SPECIAL[dtype][k];
  if (dtype === "float16") {
    F16[0] = rnd() * 200 - 100;
    return F16[0];
  }
  if (dtype === "float32") return Math.fround(rnd() * 200 - 100);
  return rnd() * 2e6 - 1e6;
}

function typedArray(dtype, values) {
  if (dtype === "bool") {
    const a = new zarr.BoolArray(values.length);
    values.forEach((v, i) => a.set(i, v));
    return a;
  }
  const Ctor = {
    int8: Int8Array, int16: Int16Array, int32: Int32Array, int64: BigInt64Array, uint8: Uint8Array, uint16: Uint16Array,
    uint32: Uint32Array, uint64: BigUint64Array, float16: globalThis.Float16Array, float32: Float32Array, float64: Float64Array,
  }[dtype];
  return Ctor.from(values);
}

/** The fill value as zarrita uses it (a number, bigint or boolean). */
function fillScalar(dtype, fill) {
  if (dtype === "int64" || dtype === "uint64") return BigInt(fill);
  if (typeof fill === "string") return { NaN: NaN, Infinity: Infinity, "-Infinity": -Infinity }[fill];
  if (dtype === "float16") {
    F16[0] = fill;
    return F16[0];
  }
  if (dtype === "float32") return Math.fround(fill);
  return fill;
}

/** An element as it appears in the manifest. */
function toJson(v) {
  if (typeof v === "bigint") return v.toString();
  if (typeof v === "number") {
    if (Number.isNaN(v)) return "NaN";
    if (v === Infinity) return "Infinity";
    if (v === -Infinity) return "-Infinity";
    if (Object.is(v, -0)) throw new Error("-0 cannot be written in the manifest");
  }
  return v;
}

const product = (s) => s.reduce((a, b) => a * b, 1);
function cStrides(shape) {
  const s = new Array(shape.length);
  let step = 1;
  for (let d = shape.length - 1; d >= 0; d--) {
    s[d] = step;
    step *= shape[d];
  }
  return s;
}
/** Every index of a shape, in C order. */
function* indices(shape) {
  const n = product(shape);
  const idx = new Array(shape.length).fill(0);
  for (let i = 0; i < n; i++) {
    yield idx.slice();
    for (let d = shape.length - 1; d >= 0; d--) {
      if (++idx[d] < shape[d]) break;
      idx[d] = 0;
    }
  }
}
const flat = (idx, strides) => idx.reduce((a, x, d) => a + x * strides[d], 0);

function keyOf(encoding, coords) {
  const separator = encoding.configuration.separator;
  if (encoding.name === "default") return ["c", ...coords].join(separator);
  return coords.join(separator) || "0";
}

// ---- writing ----

rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });
const store = new FileSystemStore(OUT);
const root = zarr.root(store);
const versions = Object.fromEntries(
  ["zarrita", "@zarrita/storage", "numcodecs", "fflate", "@petamoriken/float16"].map((p) => [
    p,
    JSON.parse(readFileSync(join(HERE, "node_modules", ...p.split("/"), "package.json"), "utf8")).version,
  ]),
);
await zarr.create(root, { attributes: { description: "zarrj conformance kit test vectors", written_by: `zarrita ${versions.zarrita}` } });
const groups = new Set();

const manifestArrays = [];
for (const spec of MATRIX) {
  const keys = spec.keys ?? DEFAULT_SLASH;
  const location = root.resolve(spec.path);
  const parts = spec.path.split("/");
  for (let i = 1; i < parts.length; i++) {
    const g = parts.slice(0, i).join("/");
    if (!groups.has(g)) {
      groups.add(g);
      await zarr.create(root.resolve(g));
    }
  }
  const sharded = spec.codecs[0].name === "sharding_indexed";
  let writer = "zarrita";
  let arr;
  if (keys.name === "default") {
    arr = await zarr.create(location, {
      dtype: spec.dtype, shape: spec.shape, chunkShape: spec.chunks, chunkSeparator: keys.configuration.separator,
      codecs: spec.codecs, fillValue: spec.fill,
    });
  } else {
    // zarr.create always writes the "default" key encoding: write the same document with "v2".
    const doc = {
      zarr_format: 3, node_type: "array", shape: spec.shape, data_type: spec.dtype,
      chunk_grid: { name: "regular", configuration: { chunk_shape: spec.chunks } },
      chunk_key_encoding: keys, codecs: spec.codecs, fill_value: spec.fill, attributes: {},
    };
    await store.set(location.resolve("zarr.json").path, new TextEncoder().encode(JSON.stringify(doc, null, 2)));
    arr = await zarr.open.v3(location, { kind: "array" });
    writer = "zarrita (zarr.json written by the generator: zarr.create has no v2 key encoding)";
  }

  const fill = fillScalar(spec.dtype, spec.fill);
  const expected = new Array(product(spec.shape)).fill(fill);
  const strides = cStrides(spec.shape);
  const written = [];
  for (const [offset, shape] of spec.writes) {
    const values = [];
    let k = 0;
    for (const idx of indices(shape)) {
      const v = value(spec.dtype, k++);
      values.push(v);
      expected[flat(idx.map((x, d) => x + offset[d]), strides)] = v;
    }
    written.push([offset, shape]);
    if (sharded) continue;
    if (spec.shape.length === 0) {
      await zarr.set(arr, null, values[0]);
    } else {
      const selection = offset.map((o, d) => zarr.slice(o, o + shape[d]));
      await zarr.set(arr, selection, { data: typedArray(spec.dtype, values), shape, stride: cStrides(shape) });
    }
  }
  if (sharded) {
    if (await writeShards(spec, keys, location, expected, fill, written)) spec.features.push("missing-inner-chunks");
    writer = "the generator (zarrita cannot write sharded arrays): inner chunks and index encoded with zarrita's codecs, shards assembled by the generator, read back by zarrita";
  }

  // The chunks in the store, with their keys.
  const grid = spec.shape.map((s, d) => Math.ceil(s / spec.chunks[d]));
  const chunks = [];
  for (const coords of indices(grid)) {
    const key = keyOf(keys, coords);
    if (existsSync(join(OUT, ...spec.path.split("/"), ...key.split("/")))) chunks.push({ coords, key });
  }

  await readBack(spec, expected);
  const extensions = [...new Set(flattenCodecs(spec.codecs).filter((n) => !CORE_CODECS.has(n)))];
  manifestArrays.push({
    path: spec.path,
    data_type: spec.dtype,
    shape: spec.shape,
    chunk_shape: spec.chunks,
    chunk_key_encoding: keys,
    codecs: spec.codecs,
    fill_value: spec.fill,
    extensions,
    features: features(spec, grid, chunks),
    written_by: writer,
    written_regions: written.map(([offset, shape]) => ({ offset, shape })),
    chunks,
    values: expected.map(toJson),
  });
}

/** The features an entry declares, with edge and missing chunks worked out from the store. */
function features(spec, grid, chunks) {
  const f = spec.features.filter((x) => x !== "edge-chunks" && x !== "missing-chunks");
  if (spec.shape.some((s, d) => s % spec.chunks[d] !== 0)) f.push("edge-chunks");
  if (chunks.length < product(grid)) f.push("missing-chunks");
  return f;
}

function flattenCodecs(codecs) {
  return codecs.flatMap((c) =>
    c.name === "sharding_indexed" ? [c.name, ...flattenCodecs(c.configuration.codecs), ...flattenCodecs(c.configuration.index_codecs)] : [c.name],
  );
}

/**
 * Writes every shard that holds a written inner chunk: the encoded inner chunks in C order, then
 * the index (offset and length per inner chunk, 2^64 - 1 for an absent one) encoded with the
 * index codecs. An inner chunk is present when a written region touches it, as a chunk is in an
 * array without sharding.
 */
async function writeShards(spec, keys, location, expected, fill, written) {
  const { chunk_shape: inner, codecs, index_codecs } = spec.codecs[0].configuration;
  const strides = cStrides(spec.shape);
  const shardGrid = spec.shape.map((s, d) => Math.ceil(s / spec.chunks[d]));
  const innerGrid = spec.chunks.map((s, d) => s / inner[d]);
  const EMPTY = 2n ** 64n - 1n;
  let absentInner = 0;
  const touches = (origin, shape) =>
    written.some(([o, s]) => origin.every((x, d) => x < o[d] + s[d] && o[d] < x + shape[d] && x < spec.shape[d]));
  for (const shard of indices(shardGrid)) {
    const parts = [];
    const index = new BigUint64Array(product(innerGrid) * 2).fill(EMPTY);
    let offset = 0;
    let i = 0;
    for (const c of indices(innerGrid)) {
      const origin = c.map((x, d) => shard[d] * spec.chunks[d] + x * inner[d]);
      if (touches(origin, inner)) {
        const values = [];
        for (const idx of indices(inner)) {
          const g = idx.map((x, d) => x + origin[d]);
          values.push(g.every((x, d) => x < spec.shape[d]) ? expected[flat(g, strides)] : fill);
        }
        const meta = { dataType: spec.dtype, shape: inner, codecs, fillValue: fill };
        const bytes = await encodeChunk(codecs, meta, { data: typedArray(spec.dtype, values), shape: inner, stride: cStrides(inner) });
        parts.push(bytes);
        index[2 * i] = BigInt(offset);
        index[2 * i + 1] = BigInt(bytes.length);
        offset += bytes.length;
      }
      i++;
    }
    if (parts.length === 0) continue;
    if (parts.length < product(innerGrid)) absentInner++;
    const indexShape = [...innerGrid, 2];
    const indexMeta = { dataType: "uint64", shape: indexShape, codecs: index_codecs, fillValue: null };
    parts.push(await encodeChunk(index_codecs, indexMeta, { data: index, shape: indexShape, stride: cStrides(indexShape) }));
    const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) {
      out.set(p, at);
      at += p.length;
    }
    await store.set(location.resolve(keyOf(keys, shard)).path, out);
  }
  return absentInner > 0;
}

/** Reads an array back with zarrita and compares every element with the expected values. */
async function readBack(spec, expected) {
  const arr = await zarr.open.v3(root.resolve(spec.path), { kind: "array" });
  const got = await zarr.get(arr);
  const same = (a, b) => (typeof b === "number" && Number.isNaN(b) ? Number.isNaN(a) : a === b);
  if (spec.shape.length === 0) {
    if (!same(got, expected[0])) throw new Error(`${spec.path}: zarrita reads ${got}, expected ${expected[0]}`);
    return;
  }
  const data = got.data;
  let i = 0;
  for (const idx of indices(spec.shape)) {
    const v = data.get ? data.get(flat(idx, got.stride)) : data[flat(idx, got.stride)];
    if (!same(v, expected[i])) throw new Error(`${spec.path}: element ${i} [${idx}] reads ${v}, expected ${expected[i]}`);
    i++;
  }
}

// ---- the manifest ----

/** JSON with one member per line, but short objects, and arrays of scalars, on one line. */
function pretty(v, indent) {
  const inner = indent + " ";
  if (v !== null && typeof v === "object" && JSON.stringify(v).length <= 72) {
    return JSON.stringify(v).replaceAll(",", ", ").replaceAll('":', '": ');
  }
  if (Array.isArray(v)) {
    if (v.every((x) => x === null || typeof x !== "object") && v.every((x) => typeof x !== "string" || x.length < 40)) {
      return JSON.stringify(v).replaceAll(",", ", ");
    }
    return v.length === 0 ? "[]" : `[\n${v.map((x) => inner + pretty(x, inner)).join(",\n")}\n${indent}]`;
  }
  if (v !== null && typeof v === "object") {
    const entries = Object.entries(v);
    if (entries.length === 0) return "{}";
    return `{\n${entries.map(([k, x]) => `${inner}${JSON.stringify(k)}: ${pretty(x, inner)}`).join(",\n")}\n${indent}}`;
  }
  return JSON.stringify(v);
}

function listFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? listFiles(join(dir, e.name)) : [relative(OUT, join(dir, e.name)).split(sep).join("/")],
  );
}
const files = {};
for (const f of listFiles(OUT).sort()) {
  const bytes = readFileSync(join(OUT, f));
  files[f] = { size: bytes.length, sha256: createHash("sha256").update(bytes).digest("hex") };
}

const manifest = {
  format: "zarrj-conformance-vectors/1",
  generator: "zarr-conformance/vectors-gen/generate.mjs",
  writer: versions,
  // A test of the kit compares these with the files in vectors-gen: a changed generator must be run again.
  generator_inputs: Object.fromEntries(
    ["generate.mjs", "zarrita-setup.mjs", "package-lock.json"].map((f) => [f, createHash("sha256").update(readFileSync(join(HERE, f))).digest("hex")]),
  ),
  notes: [
    "Every array was written by zarrita (or, for sharding, assembled from chunks zarrita's codecs encoded) and read back by zarrita, which returned exactly 'values'.",
    "Paths are relative to this directory, the root of the store; chunk keys are relative to the array's path. 'values' lists every element in C order: numbers; 'NaN', 'Infinity', '-Infinity'; 64-bit integers as decimal strings; booleans. 'files' lists every file of the store with its SHA-256.",
    "'extensions' names the codecs outside the core spec that reading needs; 'chunks' lists the stored chunks (shards) with their keys; every other chunk is absent and reads as the fill value.",
    "Not covered, because zarrita 0.7.5 cannot write them: complex64, complex128 and raw data types (r*): zarrita has no array type for them; sharding with index_location 'start' (zarrita reads the index from the end only; the hand-derived vectors in ../spec cover it); float fill values in hex form ('0x7fc00000') and 64-bit integer fill values beyond 2^53 (zarrita parses metadata with JavaScript numbers); -0.0 and NaN payloads in values.",
    "float16: zarrita uses Float16Array, which Node 20 lacks; the generator installs the @petamoriken/float16 polyfill.",
    "gzip and crc32c: zarrita 0.7.5 decodes them but cannot encode them; gzip is encoded with fflate (mtime 0) and decoded by zarrita, crc32c is computed by the generator (checked against crc32c('123456789') = 0xE3069283).",
    "blosc: numcodecs 0.3.2 takes the shuffle as a number (the generator maps the names) and writes typesize 4 into every blosc header, so blosc vectors use 4-byte types with typesize 4.",
    "zstd: numcodecs 0.3.2 ignores 'checksum' and raises levels below 1 to 1, so zstd vectors use checksum false and levels 3 and 5.",
    "Key encoding v2: zarrita's create writes only 'default'; the generator writes those zarr.json documents itself, and zarrita writes the chunks through its own v2 key encoder.",
  ],
  arrays: manifestArrays,
  files,
};
writeFileSync(join(OUT, "manifest.json"), pretty(manifest, "") + "\n");
const total = Object.values(files).reduce((n, f) => n + f.size, 0);
console.log(`wrote ${manifestArrays.length} arrays, ${Object.keys(files).length} files (${total} bytes) and manifest.json to ${OUT}`);
