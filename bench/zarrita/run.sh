#!/usr/bin/env bash
# zarrj against zarrita on the float32 benchmark workloads, in one run:
#
#   bench/zarrita/run.sh [--quick] [DIR]
#
# Runs `bin/zarr bench --dir DIR --json` (which leaves the float32 arrays in DIR/float32/<chain>)
# into DIR/zarrj.json, then zarrita on the same arrays (bench.mjs), which writes DIR/bench.json
# (zarrj's document with the zarrita figures and ratios added) and prints the table.
# DIR defaults to target/bench-zarrita in the repository.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"

quick=()
dir=""
for arg in "$@"; do
  case "$arg" in
    --quick) quick=(--quick) ;;
    -h|--help) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "unknown option $arg" >&2; exit 2 ;;
    *) [ -z "$dir" ] || { echo "one DIR only" >&2; exit 2; }; dir="$arg" ;;
  esac
done
dir="${dir:-$root/target/bench-zarrita}"
mkdir -p "$dir"
dir="$(cd "$dir" && pwd)"

# Node and npm, as .ci/run installs them.
if ! command -v node >/dev/null 2>&1; then
  apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q nodejs npm
fi
if [ ! -d "$here/node_modules" ]; then
  (cd "$here" && npm ci --no-audit --no-fund --loglevel=error)
fi

echo "zarrj: bin/zarr bench --dir $dir --json ${quick[*]:-}" >&2
if ! (cd "$root" && bin/zarr bench --dir "$dir" --json "${quick[@]}" > "$dir/zarrj.json"); then
  echo "bin/zarr bench failed (see above); its JSON would be in $dir/zarrj.json" >&2
  exit 1
fi

echo "zarrita: node bench.mjs $dir $dir/zarrj.json --out $dir/bench.json" >&2
cd "$here"
exec node bench.mjs "$dir" "$dir/zarrj.json" --out "$dir/bench.json"
