#!/usr/bin/env bash
# Configures and builds relayout. Usage: scripts/build.sh [build-dir] [cmake args...]
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${1:-build}
shift || true
jobs=$(nproc 2>/dev/null || echo 2)
cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=${CMAKE_BUILD_TYPE:-Release} "$@"
cmake --build "$build_dir" -j "$jobs"
