// Reads every array listed in STORE/expected.json (written by zarrj's InteropWrite) with zarrita
// and compares each element with the expected value. Prints one line per array and a closing
// "N passed, M failed" line; exits non-zero on any failure.
import * as zarr from "zarrita";
import FileSystemStore from "@zarrita/storage/fs";
import { readFileSync } from "node:fs";
import { join } from "node:path";

const root = process.argv[2];
if (!root) {
  console.error("usage: node verify.mjs STORE_DIRECTORY");
  process.exit(2);
}
const expected = JSON.parse(readFileSync(join(root, "expected.json"), "utf8"));
const store = new FileSystemStore(root);
let passed = 0;
let failed = 0;

function same(got, want) {
  if (want === "NaN") return typeof got === "number" && Number.isNaN(got);
  if (typeof got === "bigint") return got === BigInt(want);
  if (typeof got === "boolean") return got === want;
  return got === want;
}

for (const a of expected.arrays) {
  try {
    const arr = await zarr.open.v3(zarr.root(store).resolve(a.path), { kind: "array" });
    if (JSON.stringify(arr.shape) !== JSON.stringify(a.shape)) {
      throw new Error(`shape ${JSON.stringify(arr.shape)}, expected ${JSON.stringify(a.shape)}`);
    }
    const got = await zarr.get(arr);
    const data = Array.from(got.data);
    if (data.length !== a.values.length) throw new Error(`${data.length} elements, expected ${a.values.length}`);
    // zarrita may return a strided view (a transposed chunk keeps its stored order): walk the
    // expected values in C order and look each element up through the returned strides.
    const index = new Array(a.shape.length).fill(0);
    for (let i = 0; i < a.values.length; i++) {
      let offset = 0;
      for (let d = 0; d < index.length; d++) offset += index[d] * got.stride[d];
      if (!same(data[offset], a.values[i])) {
        throw new Error(`element ${i} (index [${index}]) is ${data[offset]}, expected ${a.values[i]}`);
      }
      for (let d = index.length - 1; d >= 0; d--) {
        if (++index[d] < a.shape[d]) break;
        index[d] = 0;
      }
    }
    for (const [k, v] of Object.entries(a.attributes ?? {})) {
      if (JSON.stringify(arr.attrs[k]) !== JSON.stringify(v)) throw new Error(`attribute ${k} is ${JSON.stringify(arr.attrs[k])}`);
    }
    console.log(`PASS ${a.path} (${a.data_type} ${JSON.stringify(a.shape)})`);
    passed++;
  } catch (e) {
    console.log(`FAIL ${a.path}: ${e.message}`);
    failed++;
  }
}
for (const g of expected.groups ?? []) {
  try {
    const grp = await zarr.open.v3(zarr.root(store).resolve(g.path), { kind: "group" });
    if (JSON.stringify(grp.attrs) !== JSON.stringify(g.attributes)) throw new Error(`attributes ${JSON.stringify(grp.attrs)}`);
    console.log(`PASS group ${g.path}`);
    passed++;
  } catch (e) {
    console.log(`FAIL group ${g.path}: ${e.message}`);
    failed++;
  }
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
