#!/usr/bin/env bash
# PROVISIONAL: writes the float32 benchmark arrays into DIR/float32/<chain> with zarrj and times
# zarrj on them, printing a JSON document shaped like `bin/zarr bench --json` (a subset of its
# fields). For use until `bin/zarr bench` is on this branch; then delete this folder.
#
#   bench/zarrita/provisional/run.sh DIR [--quick] > DIR/zarrj.json
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
[ $# -ge 1 ] || { echo "usage: $0 DIR [--quick]" >&2; exit 2; }
dir="$1"; shift
mkdir -p "$dir"
# Build the modules (incrementally) within this checkout, as bin/zarr-demo does, and run the
# program from source on their module path.
(cd "$root" && mvn -B -q -ntp -pl zarr-examples -am package dependency:build-classpath -DskipTests \
  -Dmdep.outputFile=target/module-path.txt -DincludeScope=runtime >&2)
exec java -Xmx4g -p "$(cat "$root/zarr-examples/target/module-path.txt")" \
  --add-modules dev.zarrj.core,dev.zarrj.store.fs,dev.zarrj.codec.gzip,dev.zarrj.codec.zstd,dev.zarrj.codec.blosc,dev.zarrj.codec.sharding \
  "$here/ZarrjFloat32.java" "$dir" "$@"
