#!/usr/bin/env bash
# Makes bench/tensorstore/.venv: a Python virtual environment with tensorstore 0.1.85 and numpy,
# which `zarr bench` uses (when no other Python is named) to measure tensorstore beside zarrj.
# Idempotent: a venv that already imports both is left as it is; a broken one is made afresh.
#
#   bench/tensorstore/setup.sh            # PYTHON=python3 by default
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
venv="$here/.venv"
python="${PYTHON:-python3}"
version="0.1.85"
check="import importlib.metadata as m, tensorstore, numpy; assert m.version('tensorstore') == '$version', m.version('tensorstore')"

if [ -x "$venv/bin/python" ] && "$venv/bin/python" -c "$check" >/dev/null 2>&1; then
  echo "bench/tensorstore/.venv: tensorstore $version and numpy already there"
  exit 0
fi
rm -rf "$venv"
"$python" -m venv "$venv"
"$venv/bin/pip" install -q "tensorstore==$version" numpy
"$venv/bin/python" -c "$check"
echo "bench/tensorstore/.venv: tensorstore $version and numpy installed"
