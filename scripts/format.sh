#!/usr/bin/env bash
# Formats the C/C++ sources with clang-format (.clang-format at the root).
# --check: change nothing, list the files that need formatting, exit 1 if any.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-}
if ! command -v clang-format >/dev/null 2>&1; then
    echo "format: clang-format not found (scripts/setup.sh installs it)" >&2
    exit 1
fi
mapfile -t files < <(git ls-files -- '*.c' '*.h' '*.cpp' '*.hpp' '*.cc' | grep -v '^include/relayout/relayout_format_tags.h$')
if [ "$mode" = "--check" ]; then
    bad=0
    for f in "${files[@]}"; do
        if ! clang-format --dry-run --Werror "$f" >/dev/null 2>&1; then
            echo "format: needs formatting: $f"
            bad=1
        fi
    done
    [ $bad -eq 0 ] && echo "format: ${#files[@]} files clean"
    exit $bad
fi
clang-format -i "${files[@]}"
echo "format: formatted ${#files[@]} files"
