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

// zarrita (0.7.5, the latest release) has no fixed_length_utf32 data type. Until it has, the
// script checks that zarrita still refuses it (so a release that adds it shows up here), then reads
// the array as the spec lays it out, independently of zarrj: zarr.json, then each chunk through
// the bytes codec (little-endian), length_bytes / 4 UTF-32 code units per element, zeros after
// the text; an absent chunk is the fill value.
async function readFixedLengthUtf32(a) {
  let refusal = null;
  try {
    await zarr.get(await zarr.open.v3(zarr.root(store).resolve(a.path), { kind: "array" }));
  } catch (e) {
    refusal = e.message; // 0.7.5: "dataType.match is not a function" (it expects a data type name)
  }
  if (refusal === null) throw new Error("zarrita now reads fixed_length_utf32: compare its values here instead");
  const meta = JSON.parse(new TextDecoder().decode(await store.get(`${a.path}/zarr.json`)));
  const units = meta.data_type.configuration.length_bytes / 4;
  const codecs = JSON.stringify(meta.codecs);
  if (codecs !== JSON.stringify([{ name: "bytes", configuration: { endian: "little" } }])) {
    throw new Error(`codecs ${codecs}: this reader knows bytes (little-endian) alone`);
  }
  const chunk = meta.chunk_grid.configuration.chunk_shape[0];
  const values = [];
  for (let c = 0; c * chunk < meta.shape[0]; c++) {
    const bytes = await store.get(`${a.path}/c/${c}`);
    for (let i = 0; i < chunk && c * chunk + i < meta.shape[0]; i++) {
      if (bytes === undefined) {
        values.push(meta.fill_value);
        continue;
      }
      const view = new DataView(bytes.buffer, bytes.byteOffset + i * units * 4, units * 4);
      const cps = [];
      for (let k = 0; k < units; k++) cps.push(view.getUint32(4 * k, true));
      while (cps.length > 0 && cps[cps.length - 1] === 0) cps.pop();
      values.push(String.fromCodePoint(...cps));
    }
  }
  return { refusal, attrs: meta.attributes ?? {}, shape: meta.shape, got: { data: values, stride: [1] } };
}

for (const a of expected.arrays) {
  try {
    const fixed = a.data_type === "fixed_length_utf32" ? await readFixedLengthUtf32(a) : null;
    const arr = fixed ?? await zarr.open.v3(zarr.root(store).resolve(a.path), { kind: "array" });
    if (JSON.stringify(arr.shape) !== JSON.stringify(a.shape)) {
      throw new Error(`shape ${JSON.stringify(arr.shape)}, expected ${JSON.stringify(a.shape)}`);
    }
    const got = fixed ? fixed.got : await zarr.get(arr);
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
    console.log(`PASS ${a.path} (${a.data_type} ${JSON.stringify(a.shape)})${fixed
      ? `: zarrita refuses the type (${fixed.refusal}); read by this script from the spec's layout` : ""}`);
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
