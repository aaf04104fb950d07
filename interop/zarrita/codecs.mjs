// What zarrita 0.7.5 needs on Node 20 to write, and strictly read, every array of differential.mjs
// (the same adjustments as zarr-conformance/vectors-gen/zarrita-setup.mjs, plus vlen-utf8):
//
// - float16: zarrita uses globalThis.Float16Array, which Node 20 does not have; the
//   @petamoriken/float16 polyfill provides it.
// - gzip, crc32c, vlen-utf8: zarrita's codecs only decode (their encode throws "Unsupported").
//   gzip is encoded with fflate and decoded by zarrita's own codec; crc32c is computed here, and
//   decoding checks the checksum (zarrita's decoder drops the four bytes without looking at them,
//   which would hide a wrong checksum written by zarrj); vlen-utf8 is encoded here and decoded by
//   zarrita's own codec.
// - blosc: zarrita hands the v3 configuration to numcodecs' Blosc, which wants the shuffle as a
//   number (0, 1, 2) and treats a string as 0; the names are mapped here.
import * as zarr from "zarrita";
import { Float16Array } from "@petamoriken/float16";
import Blosc from "numcodecs/blosc";
import { gzipSync } from "fflate";

const CRC32C_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0x82f63b78 : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

/** crc32c (Castagnoli) of bytes, as an unsigned 32-bit number. */
export function crc32c(bytes) {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = CRC32C_TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
if (crc32c(new TextEncoder().encode("123456789")) !== 0xe3069283) throw new Error("crc32c self-check failed");

let done = false;

/** Installs the polyfill and the codecs above into zarrita's registry (once). */
export async function setup() {
  if (done) return;
  done = true;
  if (typeof globalThis.Float16Array === "undefined") globalThis.Float16Array = Float16Array;

  const ZarritaGzip = await zarr.registry.get("gzip")();
  class Gzip {
    kind = "bytes_to_bytes";
    #level;
    #decoder;
    constructor(configuration) {
      this.#level = configuration?.level ?? 1;
      this.#decoder = ZarritaGzip.fromConfig(configuration);
    }
    static fromConfig(configuration) {
      return new Gzip(configuration);
    }
    encode(bytes) {
      return gzipSync(bytes, { level: this.#level, mtime: 0 });
    }
    decode(bytes) {
      return this.#decoder.decode(bytes);
    }
  }
  zarr.registry.set("gzip", () => Gzip);

  class Crc32c {
    kind = "bytes_to_bytes";
    static fromConfig() {
      return new Crc32c();
    }
    encode(bytes) {
      const out = new Uint8Array(bytes.length + 4);
      out.set(bytes);
      new DataView(out.buffer).setUint32(bytes.length, crc32c(bytes), true);
      return out;
    }
    decode(bytes) {
      const n = bytes.length - 4;
      if (n < 0) throw new Error(`crc32c: ${bytes.length} bytes, fewer than the 4 of the checksum`);
      const body = bytes.subarray(0, n);
      const stored = new DataView(bytes.buffer, bytes.byteOffset + n, 4).getUint32(0, true);
      const actual = crc32c(body);
      if (stored !== actual) throw new Error(`crc32c mismatch: stored 0x${stored.toString(16)}, computed 0x${actual.toString(16)}`);
      return new Uint8Array(body);
    }
    computeEncodedSize(size) {
      return size + 4;
    }
  }
  zarr.registry.set("crc32c", () => Crc32c);

  const SHUFFLE = { noshuffle: 0, shuffle: 1, bitshuffle: 2 };
  class BloscV3 {
    kind = "bytes_to_bytes";
    #codec;
    constructor(configuration) {
      const shuffle = SHUFFLE[configuration.shuffle];
      if (shuffle === undefined) throw new Error(`blosc: unknown shuffle ${JSON.stringify(configuration.shuffle)}`);
      this.#codec = Blosc.fromConfig({ ...configuration, shuffle });
    }
    static fromConfig(configuration) {
      return new BloscV3(configuration);
    }
    encode(bytes) {
      return this.#codec.encode(bytes);
    }
    decode(bytes) {
      return this.#codec.decode(bytes);
    }
  }
  zarr.registry.set("blosc", () => BloscV3);

  const ZarritaVlen = await zarr.registry.get("vlen-utf8")();
  class VlenUtf8 {
    kind = "array_to_bytes";
    #decoder;
    constructor(configuration, meta) {
      this.#decoder = ZarritaVlen.fromConfig(configuration, meta);
    }
    static fromConfig(configuration, meta) {
      return new VlenUtf8(configuration, meta);
    }
    // The spec's layout: the element count (uint32 little-endian), then per element its UTF-8
    // length (uint32 little-endian) and bytes. The elements go in memory order, as zarrita's bytes
    // codec writes its typed arrays: a transpose codec before this one leaves the chunk's memory in
    // the transposed order (and only its strides describe the shape).
    encode(chunk) {
      const n = chunk.shape.reduce((a, b) => a * b, 1);
      const parts = [];
      for (let i = 0; i < n; i++) parts.push(new TextEncoder().encode(chunk.data[i]));
      const out = new Uint8Array(4 + parts.reduce((a, p) => a + 4 + p.length, 0));
      const view = new DataView(out.buffer);
      view.setUint32(0, n, true);
      let pos = 4;
      for (const p of parts) {
        view.setUint32(pos, p.length, true);
        out.set(p, pos + 4);
        pos += 4 + p.length;
      }
      return out;
    }
    decode(bytes) {
      return this.#decoder.decode(bytes);
    }
  }
  zarr.registry.set("vlen-utf8", () => VlenUtf8);
}

/** Runs a codec chain over one chunk as zarrita's pipeline does, with the codecs in its registry. */
export async function encodeChunk(codecs, meta, chunk) {
  let value = chunk;
  for (const c of codecs) {
    const loader = zarr.registry.get(c.name);
    if (!loader) throw new Error(`zarrita has no codec ${c.name}`);
    const Codec = await loader();
    value = await Codec.fromConfig(c.configuration, meta).encode(value);
  }
  return value;
}
