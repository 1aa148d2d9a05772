#!/usr/bin/env bash
# Builds the libFuzzer harness (tests/hardening/fuzz_reorder.cpp) with clang,
# the whole library instrumented (ASan + UBSan + coverage), and runs it for a
# bounded time over the seed corpus. Exit code non-zero on a crash; the
# crashing input is left in $RELAYOUT_FUZZ_DIR/artifacts/ (add it to
# tests/hardening/fuzz_corpus/crash_<name> so the ctest replay keeps it).
#
# Usage: scripts/fuzz.sh [SECONDS] [extra libFuzzer flags...]
#   RELAYOUT_FUZZ_DIR  build directory (default build-fuzz)
#   JOBS               build parallelism (default 2)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
build_dir=${RELAYOUT_FUZZ_DIR:-build-fuzz}
jobs=${JOBS:-2}

for tool in clang clang++; do
    command -v "$tool" >/dev/null || { echo "fuzz: $tool not found (Debian: clang libclang-rt-14-dev)" >&2; exit 2; }
done

# -fno-sanitize=enum: the C ABI receives arbitrary ints for its enums and
# must reject them (see cmake/relayout_options.cmake).
san="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize=enum -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
CC=clang CXX=clang++ cmake -S . -B "$build_dir" \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_FLAGS="$san" -DCMAKE_CXX_FLAGS="$san" \
    -DRELAYOUT_BUILD_FUZZ=ON -DRELAYOUT_BUILD_TESTS=ON \
    -DRELAYOUT_BUILD_BENCH=OFF -DRELAYOUT_BUILD_BENCHDNN=OFF -DRELAYOUT_BUILD_PYTHON=OFF \
    -DRELAYOUT_WITH_OPENCL=OFF -DRELAYOUT_WITH_ONEDNN=OFF >/dev/null
cmake --build "$build_dir" --target relayout_fuzz_reorder -j "$jobs"

fuzzer=$(find "$build_dir" -name relayout_fuzz_reorder -type f -perm -u+x | head -n1)
corpus="$build_dir/corpus"      # grows while fuzzing; the repo's seeds stay as they are
artifacts="$build_dir/artifacts"
mkdir -p "$corpus" "$artifacts"

export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
echo "fuzz: running $fuzzer for ${seconds}s (crashes go to $artifacts/)"
set +e
"$fuzzer" -max_total_time="$seconds" -timeout=30 -rss_limit_mb=4096 -max_len=4096 \
    -print_final_stats=1 -artifact_prefix="$artifacts/" "$@" \
    "$corpus" tests/hardening/fuzz_corpus
rc=$?
set -e
if [ $rc -ne 0 ]; then
    echo "fuzz: FAILED (exit $rc); reproduce with: $fuzzer $artifacts/<crash-file>" >&2
    exit $rc
fi
echo "fuzz: no crash in ${seconds}s"
