#!/usr/bin/env bash
# Sets up, builds and runs every test (unit, API, JIT differential,
# engines, the benchdnn_lite CI batch) through ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
build_dir=${RELAYOUT_BUILD_DIR:-build}
scripts/build.sh "$build_dir" "$@"
jobs=$(nproc 2>/dev/null || echo 2)
cd "$build_dir"
ctest --output-on-failure -j "$jobs"
