// Reads with zarrita every array of a Zarr v3 store that `zarr copy --zarr-format 3` migrated from
// Zarr v2, and prints one JSON document: per array path (the keys of EXPECTED's "arrays"), either
//   {"status": "read", "data_type", "shape", "attributes", "values"}  every element in C order, or
//   {"status": "unsupported", "reason"}  zarrita lacks the array's data type or a codec (and fails), or
//   {"status": "error", "message"}       zarrita failed on an array it should read.
// The caller compares the values: JSON loses int64 precision here, so int64/uint64 elements are
// printed as decimal strings; NaN, Infinity, -Infinity and -0 as the strings "NaN", "Infinity",
// "-Infinity" and "-0.0".
import * as zarr from "zarrita";
import FileSystemStore from "@zarrita/storage/fs";
import { readFileSync } from "node:fs";

const [root, expectedFile] = process.argv.slice(2);
if (!root || !expectedFile) {
  console.error("usage: node migrated.mjs STORE_DIRECTORY EXPECTED_JSON");
  process.exit(2);
}
const paths = Object.keys(JSON.parse(readFileSync(expectedFile, "utf8")).arrays);
const store = new FileSystemStore(root);

// zarrita 0.7.5's data types (util.js getCtr); float16 needs the runtime's Float16Array.
const TYPES = new Set(["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
  "float32", "float64", "string"]);
if (globalThis.Float16Array) TYPES.add("float16");

/** Why zarrita cannot read this array (a data type or codec it lacks), or null. */
function lacks(meta) {
  const type = typeof meta.data_type === "string" ? meta.data_type : meta.data_type.name;
  if (!TYPES.has(type)) {
    return type === "float16" ? "data type float16: this Node.js has no Float16Array, which zarrita needs"
      : `data type ${type}: zarrita has none`;
  }
  const missing = meta.codecs.map((c) => c.name).filter((n) => !zarr.registry.has(n));
  if (missing.length > 0) return `codec(s) ${missing.join(", ")}: zarrita has none`;
  // zarrita's numcodecs.delta has no astype: it decodes the stored deltas as the array's type.
  const delta = meta.codecs.find((c) => c.name === "numcodecs.delta" && c.configuration?.astype !== undefined
    && c.configuration.astype !== c.configuration.dtype);
  return delta ? `codec(s) numcodecs.delta with astype ${delta.configuration.astype}: zarrita has no astype there`
    + ` (it reads the deltas as ${type})` : null;
}

/** Whether zarrita reads an array it lacks something for anyway, though wrongly (not compared). */
function misreads(reason) {
  return reason !== null && reason.includes("astype");
}

function element(v) {
  if (typeof v === "bigint") return v.toString();
  if (typeof v === "number") {
    if (Number.isNaN(v)) return "NaN";
    if (v === Infinity) return "Infinity";
    if (v === -Infinity) return "-Infinity";
    if (Object.is(v, -0)) return "-0.0";
  }
  return v;
}

const out = {};
for (const path of paths) {
  let meta;
  try {
    meta = JSON.parse(new TextDecoder().decode(await store.get(`/${path}/zarr.json`)));
  } catch (e) {
    out[path] = { status: "error", message: `no readable ${path}/zarr.json: ${e.message}` };
    continue;
  }
  const reason = lacks(meta);
  try {
    const arr = await zarr.open.v3(zarr.root(store).resolve(path), { kind: "array" });
    const shape = arr.shape;
    const n = shape.reduce((a, b) => a * b, 1);
    // zarrita's get returns a 0-d array's element itself, and refuses an empty selection (an
    // array with a zero-length dimension, which holds no elements to read).
    const got = n === 0 ? { data: [], stride: shape.map(() => 0) }
      : shape.length === 0 ? { data: [await zarr.get(arr)], stride: [] } : await zarr.get(arr);
    const data = Array.from(got.data);
    // zarrita may return a strided view (a transposed chunk keeps its stored order): walk the
    // elements in C order through the returned strides.
    const values = [];
    const index = new Array(shape.length).fill(0);
    for (let i = 0; i < n; i++) {
      let offset = 0;
      for (let d = 0; d < index.length; d++) offset += index[d] * got.stride[d];
      values.push(element(data[offset]));
      for (let d = index.length - 1; d >= 0; d--) {
        if (++index[d] < shape[d]) break;
        index[d] = 0;
      }
    }
    out[path] = misreads(reason) ? { status: "unsupported", reason, message: "read, but not as numcodecs does" }
      : { status: "read", data_type: meta.data_type, shape, attributes: arr.attrs, values };
  } catch (e) {
    out[path] = reason !== null ? { status: "unsupported", reason, message: e.message }
      : { status: "error", message: e.message };
  }
}
console.log(JSON.stringify({ arrays: out }));
