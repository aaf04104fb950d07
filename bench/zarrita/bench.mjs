// Runs zarrj's float32 benchmark workloads with zarrita (an independent Zarr v3 implementation,
// JavaScript, here under Node) on the same arrays, and adds the comparison to zarrj's JSON.
//
//   node bench.mjs DIR ZARRJ_JSON [--out OUT_JSON] [--keep]
//
// DIR is the folder `bin/zarr bench --dir DIR` used: the arrays are DIR/float32/<chain>. ZARRJ_JSON
// is what `bin/zarr bench --dir DIR --json` printed. For every float32 workload (name "float32/<chain>",
// op write, read, read-region, read-chunk, read-inner-chunk) zarrita does the same operation on the
// same data, timed with performance.now(): a warm-up, then the median of 3 runs for whole-array ops
// and of 20 for the others. The ops other than write and read read the region their zarrj row
// names ("region": {"offset", "shape"}); a row without one gets no figure. Reads are checked
// against the function that filled the array, writes are read back, so that a broken operation
// cannot give a fast figure. Writes go to a fresh array with the same zarr.json under
// DIR/zarrita-write/<chain> (removed at the end unless --keep).
//
// OUT_JSON is ZARRJ_JSON with, on every zarrj row of a workload zarrita ran, "zarrita":
// {"seconds", "mb_per_s"} and "ratio_to_zarrita" (that row's mb_per_s / zarrita's), and
// machine.zarrita: versions, repetitions, the load average, and the workloads zarrita could not run
// (or that moved another byte count than zarrj's row), with the reason.
// The table on stdout compares zarrita with zarrj's row of the most threads and its 1-thread row.
// Exit status 1 when a read or write gave wrong values.
import * as zarr from "zarrita";
import FileSystemStore from "@zarrita/storage/fs";
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync, existsSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadavg } from "node:os";
import { performance } from "node:perf_hooks";

const HERE = dirname(fileURLToPath(import.meta.url));
const WHOLE_RUNS = 3;
const LATENCY_RUNS = 20;
const TARGET = 3;
const MB = 1e6;

// ---- arguments ----

const positional = [];
let outPath = null;
let keep = false;
for (let i = 2; i < process.argv.length; i++) {
  const a = process.argv[i];
  if (a === "--out") outPath = process.argv[++i];
  else if (a === "--keep") keep = true;
  else if (a.startsWith("--")) usage(`unknown option ${a}`);
  else positional.push(a);
}
if (positional.length !== 2 || outPath === undefined) usage();
const [DIR, ZARRJ_JSON] = positional;

function usage(message) {
  if (message) console.error(message);
  console.error("usage: node bench.mjs DIR ZARRJ_JSON [--out OUT_JSON] [--keep]");
  process.exit(2);
}

// ---- the data: the function zarrj's benchmark fills the arrays with ----

/** Element [z, y, x] as float32 (Java: (float) (Math.sin(z * 0.05) * Math.cos(y * 0.02) + x * 0.001)). */
const expected = (z, y, x) => Math.fround(Math.sin(z * 0.05) * Math.cos(y * 0.02) + x * 0.001);

/** The whole array, C order; built once per shape, outside any timing. */
const fieldCache = new Map();
function field(shape) {
  const key = shape.join(",");
  if (!fieldCache.has(key)) {
    const [nz, ny, nx] = shape;
    const data = new Float32Array(nz * ny * nx);
    let i = 0;
    for (let z = 0; z < nz; z++) {
      for (let y = 0; y < ny; y++) {
        const zy = Math.sin(z * 0.05) * Math.cos(y * 0.02);
        for (let x = 0; x < nx; x++) data[i++] = zy + x * 0.001;
      }
    }
    fieldCache.set(key, data);
  }
  return fieldCache.get(key);
}

/**
 * Compares the corners and 32 spread points of a chunk zarrita returned for the region at
 * `offset` with the function. Java and V8 may differ by one unit in the last place of sin or cos,
 * which can move the float32 result by one ulp, hence the tolerance.
 */
function check(chunk, offset, shape, what) {
  if (chunk.data.length !== shape.reduce((a, b) => a * b, 1)) {
    throw new Error(`${what}: ${chunk.data.length} elements, expected ${shape.join("x")}`);
  }
  const points = [];
  for (let c = 0; c < 8; c++) points.push(shape.map((s, d) => ((c >> d) & 1 ? s - 1 : 0)));
  let seed = 12345;
  const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
  for (let k = 0; k < 32; k++) points.push(shape.map((s) => next() % s));
  for (const idx of points) {
    const [z, y, x] = idx.map((v, d) => v + offset[d]);
    const want = expected(z, y, x);
    const got = chunk.data[idx.reduce((a, v, d) => a + v * chunk.stride[d], 0)];
    if (!(Math.abs(got - want) <= 1e-6 * Math.max(1, Math.abs(want)))) {
      throw new Error(`${what}: element [${z}, ${y}, ${x}] is ${got}, expected ${want}`);
    }
  }
}

// ---- arrays ----

const store = new FileSystemStore(DIR);
const writeStore = new FileSystemStore(join(DIR, "zarrita-write"));

function metadata(chain) {
  return JSON.parse(readFileSync(join(DIR, "float32", chain, "zarr.json"), "utf8"));
}

/** The chunk (or shard) shape of the regular grid. */
const chunkShape = (meta) => meta.chunk_grid.configuration.chunk_shape;

const opened = new Map();
async function openRead(chain) {
  if (!opened.has(chain)) opened.set(chain, await zarr.open.v3(zarr.root(store).resolve(`float32/${chain}`), { kind: "array" }));
  return opened.get(chain);
}

// ---- the regions of the latency ops ----
//
// An op other than write and read reads one fixed region, which zarrj's row names:
// "region": {"offset": [...], "shape": [...]}, inside the array. zarrita reads that region and no
// other: a row without one, or with one that is not inside the array, gets no figure.

function rowRegion(w, arrayShape) {
  const row = `zarrj's row ${w.name} ${w.op}`;
  const r = w.rows[0].region;
  if (r == null) throw new Skip(`${row} has no "region" field: the region zarrj read is unknown (zarr bench older than the field?)`);
  const dims = (a) => Array.isArray(a) && a.length === arrayShape.length && a.every(Number.isInteger);
  if (!dims(r.offset) || !dims(r.shape) || r.offset.some((o, d) => o < 0 || r.shape[d] < 1 || o + r.shape[d] > arrayShape[d])) {
    throw new Skip(`${row} has "region" ${JSON.stringify(r)}: not {"offset", "shape"} inside the array's [${arrayShape.join(", ")}]`);
  }
  if (w.rows.some((x) => JSON.stringify(x.region) !== JSON.stringify(r))) throw new Skip(`${row}: its rows name different regions`);
  return { offset: r.offset, shape: r.shape };
}

const selection = ({ offset, shape }) => offset.map((o, d) => zarr.slice(o, o + shape[d]));
const describe = ({ offset, shape }) => `[${offset.map((o, d) => `${o}:${o + shape[d]}`).join(", ")}]`;

// ---- timing ----

/** A warm-up, then the median of `runs` timed runs; returns seconds and the last run's value. */
async function median(runs, body) {
  let value = await body();
  const times = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    value = await body();
    times.push((performance.now() - start) / 1000);
  }
  times.sort((a, b) => a - b);
  return { seconds: times[Math.floor(runs / 2)], value };
}

class Skip extends Error {}

// ---- workloads ----

async function readWorkload(chain, w) {
  const op = w.op;
  const arr = await openRead(chain);
  const r = op === "read" ? { offset: arr.shape.map(() => 0), shape: arr.shape } : rowRegion(w, arr.shape);
  const runs = op === "read" ? WHOLE_RUNS : LATENCY_RUNS;
  const sel = op === "read" ? null : selection(r);
  const { seconds, value } = await median(runs, () => zarr.get(arr, sel));
  check(value, r.offset, r.shape, `${chain} ${op} ${describe(r)}`);
  const bytes = 4 * r.shape.reduce((a, b) => a * b, 1);
  return { seconds, bytes, note: op === "read" ? "" : describe(r) };
}

async function writeWorkload(chain) {
  const meta = metadata(chain);
  const dest = join(DIR, "zarrita-write", chain);
  rmSync(dest, { recursive: true, force: true });
  mkdirSync(dest, { recursive: true });
  cpSync(join(DIR, "float32", chain, "zarr.json"), join(dest, "zarr.json"));
  const arr = await zarr.open.v3(zarr.root(writeStore).resolve(chain), { kind: "array" });
  const shape = arr.shape;
  const value = { data: field(shape), shape, stride: [shape[1] * shape[2], shape[2], 1] };
  let seconds;
  try {
    ({ seconds } = await median(WHOLE_RUNS, () => zarr.set(arr, null, value)));
  } catch (e) {
    // zarrita wraps a codec's error in a CodecPipelineError: look along the causes.
    const messages = [];
    for (let c = e; c; c = c.cause) {
      messages.push(c.message);
      if (c instanceof zarr.UnsupportedError) {
        throw new Skip(`zarrita ${versions.zarrita} cannot write it: ${messages.join(": ")}`);
      }
    }
    throw e;
  }
  // What was written must read back (with zarrita) as the function: the chunk holding the last element...
  const chunk = chunkShape(meta);
  const last = shape.map((s, d) => Math.floor((s - 1) / chunk[d]) * chunk[d]);
  const r = { offset: last, shape: last.map((o, d) => shape[d] - o) };
  check(await zarr.get(arr, selection(r)), r.offset, r.shape, `${chain} write, read back ${describe(r)}`);
  // ...and be what the metadata says.
  const mismatch = bloscMismatch(meta, dest);
  if (mismatch) {
    throw new Skip(`zarrita ${versions.zarrita} wrote ${mismatch}: not the configured codec, so not the same work ` +
      `(it ran at ${(4 * shape.reduce((a, b) => a * b, 1) / MB / seconds).toFixed(1)} MB/s)`);
  }
  return { seconds, bytes: 4 * shape.reduce((a, b) => a * b, 1), note: "" };
}

/**
 * For a blosc chain, compares the header of one chunk zarrita wrote with the configuration:
 * zarrita 0.7.5 hands the v3 configuration to numcodecs, whose Blosc wants the shuffle as a
 * number, and may write another shuffle than the one configured. Returns a description of the
 * difference, or null.
 */
function bloscMismatch(meta, dest) {
  const blosc = meta.codecs.find((c) => c.name === "blosc");
  if (!blosc) return null;
  const chunkFile = firstFile(join(dest, "c"));
  if (!chunkFile) return "no chunk";
  const header = readFileSync(chunkFile).subarray(0, 16);
  const flags = header[2];
  const shuffle = flags & 0x4 ? "bitshuffle" : flags & 0x1 ? "shuffle" : "noshuffle";
  const typesize = header[3];
  const want = blosc.configuration;
  const diff = [];
  if (shuffle !== want.shuffle) diff.push(`shuffle ${shuffle} (configured: ${want.shuffle})`);
  if (want.typesize != null && want.shuffle !== "noshuffle" && typesize !== want.typesize) diff.push(`typesize ${typesize} (configured: ${want.typesize})`);
  return diff.length ? `blosc chunks with ${diff.join(", ")}` : null;
}

function firstFile(path) {
  if (!existsSync(path)) return null;
  for (const entry of readdirSync(path, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const p = join(path, entry.name);
    if (entry.isFile()) return p;
    const f = firstFile(p);
    if (f) return f;
  }
  return null;
}

// ---- main ----

const versions = {
  node: process.version,
  ...Object.fromEntries(["zarrita", "@zarrita/storage", "numcodecs"].map((p) => [
    p, JSON.parse(readFileSync(join(HERE, "node_modules", ...p.split("/"), "package.json"), "utf8")).version,
  ])),
};

const doc = JSON.parse(readFileSync(ZARRJ_JSON, "utf8"));
// The ops zarrita repeats; the selection rows (read-strided, read-orthogonal) have no region to repeat.
const OPS = new Set(["write", "read", "read-region", "read-chunk", "read-inner-chunk"]);
const rows = (doc.workloads ?? []).filter((w) => typeof w.name === "string" && w.name.startsWith("float32/") && OPS.has(w.op));
const workloads = new Map();
for (const w of rows) {
  const key = `${w.name} ${w.op}`;
  if (!workloads.has(key)) workloads.set(key, { name: w.name, op: w.op, rows: [] });
  workloads.get(key).rows.push(w);
}
if (workloads.size === 0) {
  console.error(`${ZARRJ_JSON} has no float32/ workloads`);
  process.exit(1);
}

const loadBefore = loadavg()[0];
console.error(`zarrita ${versions.zarrita} (@zarrita/storage ${versions["@zarrita/storage"]}, numcodecs ${versions.numcodecs}) on Node ${versions.node}; arrays in ${DIR}`);
const skipped = [];
let failures = 0;
for (const w of workloads.values()) {
  const chain = w.name.slice("float32/".length);
  try {
    const result = w.op === "write" ? await writeWorkload(chain) : await readWorkload(chain, w);
    const zbytes = w.rows[0].bytes;
    if (zbytes != null && zbytes !== result.bytes) {
      throw new Skip(`zarrj moved ${zbytes} bytes, zarrita ${result.bytes}${result.note ? " (" + result.note + ")" : ""}: not the same work`);
    }
    w.zarrita = { seconds: result.seconds, mb_per_s: result.bytes / MB / result.seconds };
    console.error(`  ${w.name} ${w.op}${result.note ? " " + result.note : ""}: ${w.zarrita.mb_per_s.toFixed(1)} MB/s`);
  } catch (e) {
    if (!(e instanceof Skip)) {
      failures++;
      console.error(`  ${w.name} ${w.op}: FAILED: ${e.message}`);
    } else {
      console.error(`  ${w.name} ${w.op}: no zarrita figure: ${e.message}`);
    }
    w.skip = e instanceof Skip ? e.message : `failed: ${e.message}`;
    skipped.push({ name: w.name, op: w.op, reason: w.skip });
  }
}
if (!keep) rmSync(join(DIR, "zarrita-write"), { recursive: true, force: true });

// ---- the document ----

const round = (v, digits) => Number(v.toFixed(digits));
for (const w of workloads.values()) {
  if (!w.zarrita) continue;
  for (const row of w.rows) {
    row.zarrita = { seconds: round(w.zarrita.seconds, 6), mb_per_s: round(w.zarrita.mb_per_s, 1) };
    row.ratio_to_zarrita = round(row.mb_per_s / w.zarrita.mb_per_s, 3);
  }
}
doc.machine = doc.machine ?? {};
doc.machine.zarrita = {
  ...versions,
  uv_threadpool_size: Number(process.env.UV_THREADPOOL_SIZE ?? 4),
  runs: { whole_array: WHOLE_RUNS, latency: LATENCY_RUNS, warm_up: 1 },
  // The 1-minute load average before and after zarrita's runs: other processes skew both sides.
  load_average: [round(loadBefore, 2), round(loadavg()[0], 2)],
  skipped,
};
if (outPath) writeFileSync(outPath, JSON.stringify(doc, null, 2) + "\n");

// ---- the table ----

const fmt = (v, digits = 1) => (v == null ? "" : v.toFixed(digits));
const lines = [["workload", "op", "zarrj MB/s", "threads", "zarrj 1 thread", "zarrita MB/s", "ratio", "ratio 1 thread", ""]];
let below = 0;
for (const w of workloads.values()) {
  const top = w.rows.reduce((a, b) => ((b.threads ?? 0) > (a.threads ?? 0) ? b : a));
  const one = w.rows.find((r) => r.threads === 1 && r !== top);
  const ratio = w.zarrita ? top.mb_per_s / w.zarrita.mb_per_s : null;
  const ratio1 = w.zarrita && one ? one.mb_per_s / w.zarrita.mb_per_s : null;
  let mark = "";
  if (ratio != null && ratio < TARGET) {
    mark = `< ${TARGET}x`;
    below++;
  } else if (!w.zarrita) mark = "no zarrita figure";
  lines.push([w.name, w.op, fmt(top.mb_per_s), String(top.threads ?? ""), fmt(one?.mb_per_s), fmt(w.zarrita?.mb_per_s), fmt(ratio, 2), fmt(ratio1, 2), mark]);
}
const widths = lines[0].map((_, c) => Math.max(...lines.map((l) => l[c].length)));
const right = new Set([2, 3, 4, 5, 6, 7]);
for (const l of lines) console.log(l.map((v, c) => (right.has(c) ? v.padStart(widths[c]) : v.padEnd(widths[c]))).join("  ").trimEnd());
console.log(`\nzarrita ${versions.zarrita} on Node ${versions.node}; ratio = zarrj MB/s / zarrita MB/s, target >= ${TARGET}x; ` +
  `${below} row(s) below the target; 1-minute load average ${doc.machine.zarrita.load_average.join(" -> ")} during zarrita's runs ` +
  `(${doc.machine.cores ?? doc.machine.processors ?? "?"} cores).`);
for (const s of skipped) console.log(`no zarrita figure for ${s.name} ${s.op}: ${s.reason}`);
if (outPath) console.log(`written: ${outPath}`);
process.exit(failures > 0 ? 1 : 0);
