#!/usr/bin/env bash
# The main job: set up, build, then run benchdnn_lite on the default batch
# (correctness and bandwidth of a representative set of reorders).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh build
exec build/benchdnn_lite/benchdnn_lite --batch=benchdnn_lite/inputs/default "$@"
