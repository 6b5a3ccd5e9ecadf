#!/usr/bin/env bash
# Builds readperf and its tests into build/ and runs them all with ctest: the unit tests
# (GoogleTest) and the golden tests (tests/golden/). Extra arguments go to ctest, e.g.
#
#   scripts/test.sh -R SampleDecoder        # the sample decoder's tests
#   scripts/test.sh -R golden/              # the golden tests
#
# Needs the packages of scripts/setup.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
# The goldens are what perf printed with the repository's build-id cache alone: no debuginfod
# server a login shell names (Debian's libdebuginfod-common may set one), no symbol archives.
unset DEBUGINFOD_URLS READPERF_SYMBOLS

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE="${BUILD_TYPE:-RelWithDebInfo}" >/dev/null
ninja -C build -j"${JOBS:-$(nproc)}"
ctest --test-dir build --output-on-failure -j"${JOBS:-$(nproc)}" "$@"
