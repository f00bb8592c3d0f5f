#!/usr/bin/env bash
# Installs what is missing and builds everything (Release) into build/ (or $ASG_BUILD_DIR).
# Arguments are passed to CMake's configure step (e.g. -DASG_WERROR=ON).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${ASG_BUILD_DIR:-$root/build}
bash "$root/scripts/install-deps.sh"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=${ASG_BUILD_TYPE:-Release} "$@"
cmake --build "$build" -j "$(nproc)"
