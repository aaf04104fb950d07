// Differential testing of zarrj against zarrita (zarr-reliability's DifferentialTest runs this).
//
//   node differential.mjs read DIR [CASE]
//       zarrj wrote DIR: cases.json lists the cases, each an array in DIR/<path> with its expected
//       contents in DIR/<expected> (raw little-endian elements in C order, or a JSON list of
//       strings). zarrita reads every case (or only CASE) and compares the data type, shape, fill
//       value and every element bit for bit. One "FAIL case N: ..." line per failing case, then
//       "N passed, M failed"; exit status 1 when a case failed.
//   node differential.mjs write DIR SEED COUNT [CASE]
//       Generates COUNT random cases (or only CASE) from SEED, writes each with zarrita into
//       DIR/case-N with its expected contents, and DIR/cases.json for zarrj to read them.
//
// The generator is this script's own (the Java side has another one) over the same parameter
// space, as far as zarrita writes it; see "What zarrita cannot do" below for what is left out.
import * as zarr from "zarrita";
import FileSystemStore from "@zarrita/storage/fs";
import { getFloat16, setFloat16 } from "@petamoriken/float16";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { encodeChunk, setup } from "./codecs.mjs";

await setup();

const SIZE = { bool: 1, int8: 1, uint8: 1, int16: 2, uint16: 2, float16: 2, int32: 4, uint32: 4, float32: 4, int64: 8, uint64: 8, float64: 8 };
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
const hex = (bytes) => Buffer.from(bytes).toString("hex");

/** One element as little-endian bytes. */
function elementBytes(dtype, v) {
  const out = new Uint8Array(SIZE[dtype]);
  const dv = new DataView(out.buffer);
  switch (dtype) {
    case "bool": dv.setUint8(0, v ? 1 : 0); break;
    case "int8": dv.setInt8(0, v); break;
    case "uint8": dv.setUint8(0, v); break;
    case "int16": dv.setInt16(0, v, true); break;
    case "uint16": dv.setUint16(0, v, true); break;
    case "int32": dv.setInt32(0, v, true); break;
    case "uint32": dv.setUint32(0, v, true); break;
    case "int64": dv.setBigInt64(0, BigInt(v), true); break;
    case "uint64": dv.setBigUint64(0, BigInt(v), true); break;
    case "float16": setFloat16(dv, 0, v, true); break;
    case "float32": dv.setFloat32(0, v, true); break;
    case "float64": dv.setFloat64(0, v, true); break;
    default: throw new Error(`no bytes for ${dtype}`);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// read: zarrita reads what zarrj wrote

async function readCases(dir, only) {
  const manifest = JSON.parse(readFileSync(join(dir, "cases.json"), "utf8"));
  const store = new FileSystemStore(dir);
  let passed = 0;
  let failed = 0;
  for (const c of manifest.cases) {
    if (only !== undefined && c.case !== only) continue;
    try {
      await readOne(store, dir, c);
      passed++;
    } catch (e) {
      failed++;
      console.log(`FAIL case ${c.case}: ${String(e.message).replace(/\s+/g, " ")}`);
    }
  }
  console.log(`${passed} passed, ${failed} failed`);
  return failed === 0 && passed > 0;
}

/**
 * zarrita 0.7.5 ignores the sharding codec's index_location and always fetches the index as the
 * shard's last bytes (a suffix range), though the sharding spec lets index_location be "start" or
 * "end". For a shard with the index at the start, this store answers that suffix request with the
 * same number of bytes from the start; everything else (decoding the index through its codecs, the
 * offsets in it, the inner chunks) stays zarrita's.
 */
function indexAtStart(store) {
  return {
    get: (key, opts) => store.get(key, opts),
    getRange: (key, range, opts) =>
      "suffixLength" in range ? store.getRange(key, { offset: 0, length: range.suffixLength }, opts) : store.getRange(key, range, opts),
  };
}

async function readOne(store, dir, c) {
  const doc = JSON.parse(readFileSync(join(dir, ...c.path.split("/"), "zarr.json"), "utf8"));
  const sharding = doc.codecs[0]?.name === "sharding_indexed" ? doc.codecs[0].configuration : null;
  const start = sharding?.index_location === "start";
  const arr = await zarr.open.v3(zarr.root(start ? indexAtStart(store) : store).resolve(c.path), { kind: "array" });
  if (arr.dtype !== c.data_type) throw new Error(`data type ${arr.dtype}, expected ${c.data_type}`);
  if (JSON.stringify(arr.shape) !== JSON.stringify(c.shape)) throw new Error(`shape ${JSON.stringify(arr.shape)}, expected ${JSON.stringify(c.shape)}`);
  const strings = c.data_type === "string";
  // The fill value as zarrita decodes it from zarr.json.
  if (strings) {
    if (arr.fillValue !== c.fill_string) throw new Error(`fill value ${JSON.stringify(arr.fillValue)}, expected ${JSON.stringify(c.fill_string)}`);
  } else {
    const got = hex(elementBytes(c.data_type, arr.fillValue));
    if (got !== c.fill_hex) throw new Error(`fill value ${arr.fillValue} (bytes ${got}), expected bytes ${c.fill_hex}`);
  }
  const n = product(c.shape);
  if (n === 0) {
    // zarrita 0.7.5's get throws "Input contains an empty iterator" for an array with a length-0
    // dimension, though core.rst allows one ("An array contains zero or more elements"): there is
    // no element to compare, so the check stops at the metadata above.
    let got;
    try {
      got = await zarr.get(arr);
    } catch (e) {
      if (/empty iterator/.test(e.message)) return;
      throw e;
    }
    if (got.data.length !== 0) throw new Error(`${got.data.length} elements, expected none`);
    return;
  }
  // For a 0-d array zarr.get returns the element as a JavaScript number, which does not keep a
  // NaN's payload: read its one chunk instead, which holds the element's bytes.
  const result = c.shape.length === 0 ? await arr.getChunk([]) : await zarr.get(arr);
  const idx = new Array(c.shape.length).fill(0);
  if (strings) {
    const want = JSON.parse(readFileSync(join(dir, c.expected), "utf8"));
    if (want.length !== n) throw new Error(`expected file holds ${want.length} elements, not ${n}`);
    for (let i = 0; i < n; i++) {
      let off = 0;
      for (let d = 0; d < idx.length; d++) off += idx[d] * result.stride[d];
      if (result.data[off] !== want[i]) {
        throw new Error(`element [${idx}] is ${JSON.stringify(result.data[off])}, expected ${JSON.stringify(want[i])}`);
      }
      for (let d = idx.length - 1; d >= 0; d--) {
        if (++idx[d] < c.shape[d]) break;
        idx[d] = 0;
      }
    }
    return;
  }
  const size = SIZE[c.data_type];
  const want = readFileSync(join(dir, c.expected));
  if (want.length !== n * size) throw new Error(`expected file holds ${want.length} bytes, not ${n * size}`);
  const bytes = new Uint8Array(result.data.buffer, result.data.byteOffset, result.data.length * size);
  for (let i = 0; i < n; i++) {
    let off = 0;
    for (let d = 0; d < idx.length; d++) off += idx[d] * result.stride[d];
    for (let b = 0; b < size; b++) {
      if (bytes[off * size + b] !== want[i * size + b]) {
        throw new Error(`element [${idx}] has bytes ${hex(bytes.subarray(off * size, off * size + size))}, expected ${hex(want.subarray(i * size, i * size + size))}`);
      }
    }
    for (let d = idx.length - 1; d >= 0; d--) {
      if (++idx[d] < c.shape[d]) break;
      idx[d] = 0;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// write: zarrita writes random cases for zarrj
//
// What zarrita cannot do, and what the generator does about it:
// - complex64/complex128: zarrita has no such data types (no typed array for them); not generated.
// - sharding: zarrita cannot write sharded arrays (zarr.set throws "set on sharded arrays"). This
//   script assembles the shards (inner chunks and index encoded with zarrita's codecs, index at the
//   start or the end), so zarrj reads shards from an independent writer.
// - Fill values zarrita does not parse: 64-bit integers beyond ±(2^53 - 1) (zarrita parses
//   zarr.json with JSON.parse, so a larger integer loses its low bits before it becomes a BigInt)
//   and the "0x..." form of floating-point fill values (the v3 core spec's fill value list; zarrita
//   maps only "NaN", "Infinity" and "-Infinity" and keeps any other string as is). Such cases
//   ("raw" fill) get zarr.json written by the script and no writes: zarrita would fill the rest of
//   a partly written chunk with its wrong fill value. zarrj then reads the fill value everywhere.
// - fill value -0.0: zarr.create writes zarr.json with JSON.stringify, which writes -0 as 0; the
//   script writes zarr.json itself for those cases.

function mulberry32(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = seed;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
/** The random source of one case: independent of every other case, so one case replays alone. */
function caseRandom(seed, n) {
  let x = (BigInt(seed) + BigInt(n) * 0x9e3779b97f4a7c15n) & 0xffffffffffffffffn;
  x = ((x ^ (x >> 30n)) * 0xbf58476d1ce4e5b9n) & 0xffffffffffffffffn;
  x = ((x ^ (x >> 27n)) * 0x94d049bb133111ebn) & 0xffffffffffffffffn;
  x ^= x >> 31n;
  const r = mulberry32(Number(x & 0xffffffffn) | 0);
  const rnd = {
    next: r,
    int: (lo, hi) => lo + Math.floor(r() * (hi - lo + 1)),
    chance: (p) => r() < p,
    pick: (xs) => xs[Math.floor(r() * xs.length)],
  };
  return rnd;
}

const TYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16", "float32", "float64", "string"];
const INT_RANGE = { int8: [-128, 127], int16: [-32768, 32767], int32: [-2147483648, 2147483647], uint8: [0, 255], uint16: [0, 65535], uint32: [0, 4294967295] };
const F16 = new globalThis.Float16Array(1);
const SPECIAL = {
  float16: [NaN, Infinity, -Infinity, -0, 65504, -65504, 2 ** -24],
  float32: [NaN, Infinity, -Infinity, -0, 3.4028234663852886e38, 1.401298464324817e-45],
  float64: [NaN, Infinity, -Infinity, -0, Number.MAX_VALUE, Number.MIN_VALUE],
};
const STRING_PIECES = ["", "a", "zarr", "é", "日本", "🦀", " ", "\u0000", "x".repeat(40), "\"quoted\"", "line\nbreak"];

function randomValue(rnd, dtype) {
  if (dtype === "bool") return rnd.chance(0.5);
  if (dtype in INT_RANGE) {
    const [lo, hi] = INT_RANGE[dtype];
    return rnd.chance(0.2) ? rnd.pick([lo, hi, 0]) : rnd.int(lo, hi);
  }
  if (dtype === "int64" || dtype === "uint64") {
    if (rnd.chance(0.2)) return dtype === "int64" ? rnd.pick([-(2n ** 63n), 2n ** 63n - 1n, 0n]) : rnd.pick([0n, 2n ** 64n - 1n]);
    const v = (BigInt(rnd.int(0, 0xffffffff)) << 32n) | BigInt(rnd.int(0, 0xffffffff));
    return dtype === "int64" ? BigInt.asIntN(64, v) : v;
  }
  if (dtype === "string") {
    let s = "";
    for (let k = rnd.int(0, 3); k > 0; k--) s += rnd.pick(STRING_PIECES);
    return s;
  }
  if (rnd.chance(0.2)) return rnd.pick(SPECIAL[dtype]);
  const v = (rnd.next() - 0.5) * 10 ** rnd.int(-3, 6);
  if (dtype === "float16") {
    F16[0] = v;
    return F16[0];
  }
  return dtype === "float32" ? Math.fround(v) : v;
}

/** The fill value: its JSON text in zarr.json and its value. */
function randomFill(rnd, dtype) {
  if (dtype === "bool") {
    const v = rnd.chance(0.5);
    return { json: JSON.stringify(v), value: v };
  }
  if (dtype in INT_RANGE) {
    const [lo, hi] = INT_RANGE[dtype];
    const v = rnd.pick([0, lo, hi, rnd.int(lo, hi)]);
    return { json: String(v), value: v };
  }
  if ((dtype === "int64" || dtype === "uint64") && rnd.chance(0.15)) {
    const v = dtype === "int64" ? rnd.pick([-(2n ** 63n), 2n ** 63n - 1n, -(2n ** 53n) - 1n]) : rnd.pick([2n ** 64n - 1n, 2n ** 53n + 1n]);
    return { json: v.toString(), value: v, raw: true };
  }
  if (dtype in SIZE && dtype.startsWith("float") && rnd.chance(0.15)) {
    // Any bits, NaN payloads included: "0x" and the bits as an unsigned integer in hexadecimal.
    const bytes = new Uint8Array(SIZE[dtype]);
    for (let i = 0; i < bytes.length; i++) bytes[i] = rnd.int(0, 255);
    const digits = Buffer.from(bytes).reverse().toString("hex");
    return { json: `"0x${digits}"`, value: null, raw: true, bytes };
  }
  if (dtype === "int64" || dtype === "uint64") {
    const lim = 2 ** 53 - 1; // see "What zarrita cannot do"
    const v = dtype === "int64" ? rnd.pick([0, -lim, lim, rnd.int(-1e9, 1e9)]) : rnd.pick([0, lim, rnd.int(0, 1e9)]);
    return { json: String(v), value: BigInt(v) };
  }
  if (dtype === "string") {
    const v = rnd.pick(["", "fill", "é🦀"]);
    return { json: JSON.stringify(v), value: v };
  }
  const v = rnd.chance(0.5) ? rnd.pick(SPECIAL[dtype]) : randomValue(rnd, dtype);
  let json;
  if (Number.isNaN(v)) json = '"NaN"';
  else if (v === Infinity) json = '"Infinity"';
  else if (v === -Infinity) json = '"-Infinity"';
  else if (Object.is(v, -0)) json = "-0.0";
  else json = String(v);
  return { json, value: v };
}

const LE = { name: "bytes", configuration: { endian: "little" } };
const BE = { name: "bytes", configuration: { endian: "big" } };

/** A codec chain for chunks of the given rank and data type. */
function randomChain(rnd, dtype, rank) {
  const chain = [];
  if (rank >= 2 && rnd.chance(0.3)) {
    const order = [...Array(rank).keys()];
    for (let i = rank - 1; i > 0; i--) {
      const j = rnd.int(0, i);
      [order[i], order[j]] = [order[j], order[i]];
    }
    chain.push({ name: "transpose", configuration: { order } });
  }
  if (dtype === "string") chain.push({ name: "vlen-utf8" });
  else if (SIZE[dtype] === 1) chain.push(rnd.chance(0.5) ? { name: "bytes" } : LE);
  else chain.push(rnd.chance(0.5) ? LE : BE);
  const size = dtype === "string" ? 1 : SIZE[dtype];
  const n = rnd.pick([0, 0, 1, 1, 2]);
  for (let k = 0; k < n; k++) {
    const which = rnd.pick(["gzip", "zstd", "blosc"]);
    if (which === "gzip") chain.push({ name: "gzip", configuration: { level: rnd.int(0, 9) } });
    // numcodecs' zstd raises levels below 1 and ignores "checksum" (it never writes one).
    else if (which === "zstd") chain.push({ name: "zstd", configuration: { level: rnd.int(1, 9), checksum: false } });
    else {
      chain.push({
        name: "blosc",
        configuration: {
          cname: rnd.pick(["lz4", "lz4hc", "blosclz", "zstd", "zlib"]), clevel: rnd.int(0, 9),
          shuffle: rnd.pick(["noshuffle", "shuffle", "bitshuffle"]), typesize: size, blocksize: 0,
        },
      });
    }
  }
  if (rnd.chance(0.3)) chain.splice(rnd.int(chain.length - n, chain.length), 0, { name: "crc32c" });
  return chain;
}

function randomCase(seed, n) {
  const rnd = caseRandom(seed, n);
  const dtype = rnd.pick(TYPES);
  const large = rnd.chance(0.03); // now and then up to 40,000 elements: compressors over more than a few bytes
  const rank = large ? rnd.int(1, 3) : rnd.int(0, 4);
  const maxDim = large ? [0, 40000, 200, 34][rank] : [1, 12, 8, 6, 4][rank];
  const shape = [];
  for (let d = 0; d < rank; d++) shape.push(large ? rnd.int(20, maxDim) : rnd.chance(0.07) ? 0 : rnd.chance(0.15) ? 1 : rnd.int(2, maxDim));
  const sharded = rank > 0 && rnd.chance(0.3);
  let chunks;
  let codecs;
  let inner = null;
  if (sharded) {
    // At most a few hundred chunks per case, also for large arrays.
    inner = shape.map((s) => (large ? rnd.int(Math.ceil(s / 8), s) : rnd.int(1, Math.max(1, Math.min(3, s)))));
    chunks = inner.map((c) => c * rnd.int(1, 3));
    const indexCodecs = [rnd.chance(0.5) ? LE : BE];
    if (rnd.chance(0.5)) indexCodecs.push({ name: "crc32c" });
    codecs = [{
      name: "sharding_indexed",
      configuration: { chunk_shape: inner, codecs: randomChain(rnd, dtype, rank), index_codecs: indexCodecs, index_location: rnd.pick(["start", "end"]) },
    }];
  } else {
    chunks = shape.map((s) => rnd.int(large ? Math.ceil(s / 20) : 1, Math.max(2, s + 1)));
    codecs = randomChain(rnd, dtype, rank);
  }
  const separator = rnd.pick(["/", "."]);
  const fill = randomFill(rnd, dtype);
  const writes = [];
  if (!fill.raw && shape.every((s) => s > 0)) {
    for (let k = rnd.int(0, 3); k > 0; k--) {
      const offset = shape.map((s) => rnd.int(0, s - 1));
      const size = shape.map((s, d) => rnd.int(1, s - offset[d]));
      // Sometimes the fill value throughout: chunks it covers whole may be left out or erased.
      const fillOnly = rnd.chance(0.15);
      const values = [];
      for (let i = product(size); i > 0; i--) values.push(fillOnly ? fill.value : randomValue(rnd, dtype));
      writes.push({ offset, shape: size, values });
    }
  }
  return { case: n, dtype, shape, chunks, separator, codecs, fill, writes, sharded, inner };
}

function describe(c) {
  return `${c.dtype} shape ${JSON.stringify(c.shape)} chunks ${JSON.stringify(c.chunks)} separator ${c.separator} fill ${c.fill.json} codecs ${JSON.stringify(c.codecs)} writes ${JSON.stringify(c.writes.map((w) => [w.offset, w.shape]))}`;
}

function typedArray(dtype, values) {
  if (dtype === "string") return values.slice();
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

async function writeOne(store, dir, c) {
  const path = `case-${c.case}`;
  const location = zarr.root(store).resolve(path);
  const doc = {
    zarr_format: 3, node_type: "array", shape: c.shape, data_type: c.dtype,
    chunk_grid: { name: "regular", configuration: { chunk_shape: c.chunks } },
    chunk_key_encoding: { name: "default", configuration: { separator: c.separator } },
    codecs: c.codecs, fill_value: "@FILL@", attributes: {},
  };
  let arr;
  if (c.fill.json === "-0.0" || c.fill.raw) {
    await store.set(location.resolve("zarr.json").path, new TextEncoder().encode(JSON.stringify(doc).replace('"@FILL@"', c.fill.json)));
    arr = await zarr.open.v3(location, { kind: "array" });
  } else {
    arr = await zarr.create(location, { dtype: c.dtype, shape: c.shape, chunkShape: c.chunks, chunkSeparator: c.separator, codecs: c.codecs, fillValue: typeof c.fill.value === "bigint" ? Number(c.fill.value) : c.fill.value });
  }
  const strides = cStrides(c.shape);
  const expected = new Array(product(c.shape)).fill(c.fill.value);
  for (const w of c.writes) {
    let k = 0;
    for (const idx of indices(w.shape)) {
      expected[idx.reduce((a, x, d) => a + (x + w.offset[d]) * strides[d], 0)] = w.values[k++];
    }
    if (c.sharded) continue;
    if (c.shape.length === 0) await zarr.set(arr, null, w.values[0]);
    else {
      const selection = w.offset.map((o, d) => zarr.slice(o, o + w.shape[d]));
      await zarr.set(arr, selection, { data: typedArray(c.dtype, w.values), shape: w.shape, stride: cStrides(w.shape) });
    }
  }
  if (c.sharded) await writeShards(store, path, c, expected);
  let expectedFile;
  const entry = { case: c.case, path, data_type: c.dtype, shape: c.shape, params: describe(c) };
  if (c.dtype === "string") {
    expectedFile = `${path}.json`;
    writeFileSync(join(dir, expectedFile), JSON.stringify(expected));
    entry.fill_string = c.fill.value;
  } else {
    expectedFile = `${path}.bin`;
    const size = SIZE[c.dtype];
    const fillBytes = c.fill.bytes ?? elementBytes(c.dtype, c.fill.value);
    const out = new Uint8Array(expected.length * size);
    expected.forEach((v, i) => out.set(c.fill.bytes ? fillBytes : elementBytes(c.dtype, v), i * size));
    writeFileSync(join(dir, expectedFile), out);
    entry.fill_hex = hex(fillBytes);
  }
  entry.expected = expectedFile;
  return entry;
}

/**
 * Writes every shard that holds a written inner chunk: the encoded inner chunks in C order after
 * (index at the start) or before (at the end) the index, which gives offset and length per inner
 * chunk, 2^64 - 1 for both when absent. An inner chunk is present when a write touches it.
 */
async function writeShards(store, path, c, expected) {
  const { chunk_shape: inner, codecs, index_codecs, index_location } = c.codecs[0].configuration;
  const strides = cStrides(c.shape);
  const shardGrid = c.shape.map((s, d) => Math.ceil(s / c.chunks[d]));
  const innerGrid = c.chunks.map((s, d) => s / inner[d]);
  const EMPTY = 2n ** 64n - 1n;
  const touches = (origin) => c.writes.some((w) => origin.every((x, d) => x < w.offset[d] + w.shape[d] && w.offset[d] < x + inner[d]));
  const indexShape = [...innerGrid, 2];
  const indexMeta = { dataType: "uint64", shape: indexShape, codecs: index_codecs, fillValue: null };
  const indexSize = (await encodeChunk(index_codecs, indexMeta, { data: new BigUint64Array(product(indexShape)), shape: indexShape, stride: cStrides(indexShape) })).length;
  for (const shard of indices(shardGrid)) {
    const parts = [];
    const index = new BigUint64Array(product(innerGrid) * 2).fill(EMPTY);
    let offset = index_location === "start" ? indexSize : 0;
    let i = 0;
    for (const ci of indices(innerGrid)) {
      const origin = ci.map((x, d) => shard[d] * c.chunks[d] + x * inner[d]);
      if (origin.every((x, d) => x < c.shape[d]) && touches(origin)) {
        const values = [];
        for (const idx of indices(inner)) {
          const g = idx.map((x, d) => x + origin[d]);
          values.push(g.every((x, d) => x < c.shape[d]) ? expected[g.reduce((a, x, d) => a + x * strides[d], 0)] : c.fill.value);
        }
        const meta = { dataType: c.dtype, shape: inner, codecs, fillValue: c.fill.value };
        const bytes = await encodeChunk(codecs, meta, { data: typedArray(c.dtype, values), shape: inner, stride: cStrides(inner) });
        parts.push(bytes);
        index[2 * i] = BigInt(offset);
        index[2 * i + 1] = BigInt(bytes.length);
        offset += bytes.length;
      }
      i++;
    }
    if (parts.length === 0) continue;
    const indexBytes = await encodeChunk(index_codecs, indexMeta, { data: index, shape: indexShape, stride: cStrides(indexShape) });
    const all = index_location === "start" ? [indexBytes, ...parts] : [...parts, indexBytes];
    const out = new Uint8Array(all.reduce((a, p) => a + p.length, 0));
    let pos = 0;
    for (const p of all) {
      out.set(p, pos);
      pos += p.length;
    }
    await store.set(`/${path}/${["c", ...shard].join(c.separator)}`, out);
  }
}

async function writeCases(dir, seed, count, only) {
  mkdirSync(dir, { recursive: true });
  const store = new FileSystemStore(dir);
  const cases = [];
  let failed = 0;
  for (let n = 0; n < count; n++) {
    if (only !== undefined && n !== only) continue;
    const c = randomCase(seed, n);
    try {
      cases.push(await writeOne(store, dir, c));
    } catch (e) {
      failed++;
      console.log(`FAIL case ${n}: zarrita could not write it: ${String(e.message).replace(/\s+/g, " ")} (${describe(c)})`);
    }
  }
  writeFileSync(join(dir, "cases.json"), JSON.stringify({ seed: String(seed), cases }));
  console.log(`wrote ${cases.length} cases, ${failed} failed`);
  return failed === 0;
}

const [mode, dir, ...rest] = process.argv.slice(2);
let ok;
if (mode === "read" && dir) {
  ok = await readCases(dir, rest[0] === undefined ? undefined : Number(rest[0]));
} else if (mode === "write" && dir && rest.length >= 2) {
  ok = await writeCases(dir, BigInt(rest[0]), Number(rest[1]), rest[2] === undefined ? undefined : Number(rest[2]));
} else {
  console.error("usage: node differential.mjs read DIR [CASE] | write DIR SEED COUNT [CASE]");
  process.exit(2);
}
process.exit(ok ? 0 : 1);
