#!/usr/bin/env bash
# Installs the Debian packages relayout needs, only those missing.
# Idempotent; run as root (or with sudo available). Usage: scripts/setup.sh
set -euo pipefail

packages=(
    build-essential cmake pkg-config
    libxbyak-dev libtbb-dev
    libgtest-dev libgmock-dev libbenchmark-dev
    ocl-icd-opencl-dev opencl-headers pocl-opencl-icd clinfo
    libdnnl-dev
    libdlpack-dev pybind11-dev python3-dev python3-numpy python3-pytest
    clang-format
    clang libclang-rt-14-dev valgrind
)

missing=()
for p in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$p")
    fi
done

if [ ${#missing[@]} -eq 0 ]; then
    echo "setup: all ${#packages[@]} packages present"
    exit 0
fi

echo "setup: installing ${missing[*]}"
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
        sudo_cmd=(sudo)
    else
        echo "setup: not root and no sudo; install these packages: ${missing[*]}" >&2
        exit 1
    fi
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -q
"${sudo_cmd[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
