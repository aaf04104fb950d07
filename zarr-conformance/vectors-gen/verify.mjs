// Reads with zarrita every array listed in DIR/manifest.json (the vector matrix, written by zarrj's
// WriteVectors or by generate.mjs) and compares each element with the manifest's value. Also
// checks that every chunk the manifest lists is stored under the key zarrita computes for it.
// Prints one line per array and a closing "N passed, M failed" line; exits non-zero on any failure.
//
//   npm ci && node verify.mjs DIR
import * as zarr from "zarrita";
import FileSystemStore from "@zarrita/storage/fs";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { setup } from "./zarrita-setup.mjs";

const dir = process.argv[2];
if (!dir || !existsSync(join(dir, "manifest.json"))) {
  console.error("usage: node verify.mjs DIR (a store with manifest.json)");
  process.exit(2);
}
await setup();
const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8"));
const store = new FileSystemStore(dir);
let passed = 0;
let failed = 0;

/** Whether an element read by zarrita equals the manifest's value. */
function same(got, want) {
  if (want === "NaN") return typeof got === "number" && Number.isNaN(got);
  if (want === "Infinity") return got === Infinity;
  if (want === "-Infinity") return got === -Infinity;
  if (typeof got === "bigint") return typeof want === "string" && got === BigInt(want);
  if (typeof got === "number" && typeof want === "number") return Object.is(got, want);
  return got === want;
}

function keyOf(encoding, coords) {
  const name = encoding.name;
  const separator = encoding.configuration?.separator ?? (name === "v2" ? "." : "/");
  if (name === "default") return ["c", ...coords].join(separator);
  return coords.join(separator) || "0";
}

for (const a of manifest.arrays) {
  try {
    const arr = await zarr.open.v3(zarr.root(store).resolve(a.path), { kind: "array" });
    if (arr.dtype !== a.data_type) throw new Error(`data type ${arr.dtype}, expected ${a.data_type}`);
    if (JSON.stringify(arr.shape) !== JSON.stringify(a.shape)) {
      throw new Error(`shape ${JSON.stringify(arr.shape)}, expected ${JSON.stringify(a.shape)}`);
    }
    for (const c of a.chunks ?? []) {
      const key = keyOf(a.chunk_key_encoding, c.coords);
      if (key !== c.key) throw new Error(`chunk [${c.coords}] is listed under '${c.key}', zarrita's key is '${key}'`);
      if (!existsSync(join(dir, ...a.path.split("/"), ...key.split("/")))) throw new Error(`chunk [${c.coords}] is missing: no '${a.path}/${key}'`);
    }
    const got = await zarr.get(arr);
    if (a.shape.length === 0) {
      if (!same(got, a.values[0])) throw new Error(`element 0 (index []) is ${got}, expected ${a.values[0]}`);
    } else {
      // zarrita may return a strided view (a transposed chunk keeps its stored order): walk the
      // expected values in C order and look each element up through the returned strides.
      const data = got.data;
      const index = new Array(a.shape.length).fill(0);
      for (let i = 0; i < a.values.length; i++) {
        let offset = 0;
        for (let d = 0; d < index.length; d++) offset += index[d] * got.stride[d];
        const v = typeof data.get === "function" ? data.get(offset) : data[offset];
        if (!same(v, a.values[i])) throw new Error(`element ${i} (index [${index}]) is ${v}, expected ${a.values[i]}`);
        for (let d = index.length - 1; d >= 0; d--) {
          if (++index[d] < a.shape[d]) break;
          index[d] = 0;
        }
      }
    }
    console.log(`PASS ${a.path} (${a.data_type} ${JSON.stringify(a.shape)})`);
    passed++;
  } catch (e) {
    console.log(`FAIL ${a.path}: ${e.message}${e.cause ? ` (${e.cause.message ?? e.cause})` : ""}`);
    failed++;
  }
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
