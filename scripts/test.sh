#!/usr/bin/env bash
# Installs what is missing, builds everything with warnings as errors and runs every test
# (CTest); then builds again with AddressSanitizer and UndefinedBehaviorSanitizer into
# build-sanitize/ (or $ASG_SANITIZE_BUILD_DIR), the unit tests alone (target unit_tests), and
# runs them there (label unit).
# ASG_TEST_SANITIZE=0 skips the second part.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${ASG_BUILD_DIR:-$root/build}
jobs=$(nproc)
bash "$root/scripts/build.sh" -DASG_WERROR=ON
ctest --test-dir "$build" --output-on-failure -j "$jobs"

if [[ ${ASG_TEST_SANITIZE:-1} != 0 ]]; then
  sanitize=${ASG_SANITIZE_BUILD_DIR:-$root/build-sanitize}
  # -O1 keeps the build and the runs quick enough; every finding fails its test.
  cmake -S "$root" -B "$sanitize" -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1" \
    -DASG_SANITIZE=address,undefined -DASG_BUILD_EXPERIMENTS=OFF -DASG_WERROR=ON
  cmake --build "$sanitize" -j "$jobs" --target unit_tests
  export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:strict_string_checks=1}
  export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
  export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$root/scripts/lsan-suppressions.txt}
  # Mesa's llvmpipe renders on the calling thread (no worker threads of its own to stop at exit).
  # LeakSanitizer's tracer, which stops every thread at exit, once crashed (signal 11, "has
  # encountered a fatal error") after a test that had passed; a test that fails is run once
  # more, and a finding that does not come back is printed in the log above all the same.
  LP_NUM_THREADS=0 ctest --test-dir "$sanitize" --output-on-failure -j "$jobs" -L unit \
    --repeat until-pass:2
fi
