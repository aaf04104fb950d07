// zarrita's side of `zarr bench --remote`: full reads of the float32 arrays zarrj wrote to the
// benchmark's S3 server, over HTTP through the latency relay, with zarrita's FetchStore.
//
//   node remote.mjs BASE_URL RUNS CHAIN...
//
// BASE_URL is the bucket's prefix as a plain HTTP URL (path style, no signature: the benchmark's
// s3proxy answers anonymous requests), e.g. http://127.0.0.1:PORT/zarrj-bench/remote; the arrays
// are BASE_URL/float32/<chain>. For each chain: one warm-up read, then RUNS timed reads of the whole
// array with zarr.get (performance.now()), the values checked against the function that filled the
// array. Prints one JSON line per chain on stdout:
//   {"chain", "seconds" (median), "bytes", "runs"}  or  {"chain", "error"}.
// zarr bench (RemoteBench) starts it and reads the lines; the relay counts the requests.
import * as zarr from "zarrita";
import { performance } from "node:perf_hooks";

const [BASE, RUNS_ARG, ...CHAINS] = process.argv.slice(2);
const RUNS = Number.parseInt(RUNS_ARG, 10);
if (!BASE || !(RUNS >= 1) || CHAINS.length === 0) {
  console.error("usage: node remote.mjs BASE_URL RUNS CHAIN...");
  process.exit(2);
}

/** Element [z, y, x] as float32 (Java: (float) (Math.sin(z * 0.05) * Math.cos(y * 0.02) + x * 0.001)). */
const expected = (z, y, x) => Math.fround(Math.sin(z * 0.05) * Math.cos(y * 0.02) + x * 0.001);

/** The corners and 64 spread points; Java and V8 may differ by one ulp in sin or cos. */
function check(chunk, shape, what) {
  if (chunk.data.length !== shape.reduce((a, b) => a * b, 1)) {
    throw new Error(`${what}: ${chunk.data.length} elements, expected ${shape.join("x")}`);
  }
  const points = [];
  for (let c = 0; c < 8; c++) points.push(shape.map((s, d) => ((c >> d) & 1 ? s - 1 : 0)));
  let seed = 12345;
  const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
  for (let k = 0; k < 64; k++) points.push(shape.map((s) => next() % s));
  for (const [z, y, x] of points) {
    const want = expected(z, y, x);
    const got = chunk.data[z * chunk.stride[0] + y * chunk.stride[1] + x * chunk.stride[2]];
    if (!(Math.abs(got - want) <= 1e-6 * Math.max(1, Math.abs(want)))) {
      throw new Error(`${what}: element [${z}, ${y}, ${x}] is ${got}, expected ${want}`);
    }
  }
}

const store = new zarr.FetchStore(BASE);
let failed = false;
for (const chain of CHAINS) {
  try {
    const arr = await zarr.open.v3(zarr.root(store).resolve(`float32/${chain}`), { kind: "array" });
    check(await zarr.get(arr), arr.shape, chain);
    const times = [];
    for (let i = 0; i < RUNS; i++) {
      const start = performance.now();
      await zarr.get(arr);
      times.push((performance.now() - start) / 1000);
    }
    times.sort((a, b) => a - b);
    const bytes = 4 * arr.shape.reduce((a, b) => a * b, 1);
    console.log(JSON.stringify({ chain, seconds: times[Math.floor(RUNS / 2)], bytes, runs: RUNS }));
  } catch (e) {
    failed = true;
    console.log(JSON.stringify({ chain, error: String(e && e.message ? e.message : e) }));
  }
}
process.exit(failed ? 1 : 0);
