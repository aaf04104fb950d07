// Opens a store zarrj consolidated (`zarr consolidate`) through zarrita's v3 consolidated metadata
// (withConsolidatedMetadata, format "v3": the root zarr.json's consolidated_metadata member, as
// zarr-python 3 writes it) and prints one JSON document: the nodes zarrita lists from it, how
// many metadata documents it read from the store, and every array's elements as read through it.
import * as zarr from "zarrita";
import FileSystemStore from "@zarrita/storage/fs";

const root = process.argv[2];
if (!root) {
  console.error("usage: node consolidated.mjs STORE_DIRECTORY");
  process.exit(2);
}
const files = new FileSystemStore(root);
let documents = 0;
const counting = {
  async get(key, options) {
    if (key.endsWith("zarr.json")) documents++;
    return files.get(key, options);
  },
};
const store = await zarr.withConsolidatedMetadata(counting, { format: "v3" });
const nodes = store.contents().map((c) => ({ path: c.path, kind: c.kind }));
nodes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
const arrays = {};
for (const n of nodes) {
  if (n.kind !== "array") continue;
  const arr = await zarr.open.v3(zarr.root(store).resolve(n.path), { kind: "array" });
  const got = await zarr.get(arr);
  arrays[n.path] = Array.from(got.data, (v) => (typeof v === "bigint" ? v.toString() : v));
}
const group = await zarr.open.v3(zarr.root(store), { kind: "group" });
console.log(JSON.stringify({ nodes, documents, arrays, attributes: group.attrs }));
