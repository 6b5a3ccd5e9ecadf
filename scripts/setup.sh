#!/usr/bin/env bash
# Installs what readperf needs on a fresh Debian 12 (bookworm) and builds it into build/.
#
#   scripts/setup.sh            # as root, or as a user with sudo
#
# Installs only the packages that are missing (after an apt-get update), so a second run on a
# set-up machine goes straight to the build.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
  cmake ninja-build g++ pkg-config         # the toolchain
  libfmt-dev libcli11-dev libexpected-dev  # formatting, the command line, tl::expected
  libzstd-dev                              # PERF_RECORD_COMPRESSED
  libxxhash-dev                            # XXH3, the report's repeat-cache hash
  libtraceevent-dev                        # tracepoint formats (perf script)
  libelf-dev libdw-dev zlib1g-dev          # symbols: ELF, DWARF, compressed sections, .ko.gz
  libdebuginfod-dev debuginfod             # symbols from debuginfod servers, and one for the tests
  zstd                                     # the symbol-archive tests list archives with tar --zstd
  liblzma-dev                              # symbols: MiniDebugInfo (.gnu_debugdata), .ko.xz
  libzydis-dev                             # script's insn field: x86 instruction lengths
  libsqlite3-dev sqlite3                   # export --format sqlite, and its tests' queries
  libbabeltrace-dev babeltrace2            # data convert --to-ctf (perf's CTF writer), its tests' reader
  libgtest-dev libgmock-dev libbenchmark-dev  # tests and benchmarks
  python3 gzip diffutils                   # the golden and conformance runners
  clang libclang-rt-14-dev llvm-14         # fuzz targets: libFuzzer, symbolized reports
  protobuf-compiler chromium chromium-driver  # viewer tests: protoc --decode, the flame graph page
  less tmux                                # the pager by default; the terminal tests' terminal
  help2man dpkg-dev file                   # man pages from --help; cpack -G DEB (dpkg-shlibdeps, file)
  libperl-dev                              # script -s FILE.pl: an embedded perl, as perf links
  python3-dev pybind11-dev python3-pybind11   # the readperf Python package: the binding
  python3-numpy python3-pandas python3-pytest  # its columns, DataFrames and tests
  python3-dask python3-distributed         # readperf.dask: fleets of recordings
)
# node and npm for the viewer tests (tests/viewers): Debian's, unless a node with npm is there.
command -v npm >/dev/null || packages+=(nodejs npm)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=()
  [ "$(id -u)" -eq 0 ] || sudo=(sudo)
  echo "setup: installing ${missing[*]}"
  "${sudo[@]}" apt-get update -q
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y -q --no-install-recommends "${missing[@]}" </dev/null
fi

# The viewer tests' npm packages (speedscope's schema, ajv, playwright-core driving chromium).
if [ ! -d tests/viewers/node_modules ]; then
  (cd tests/viewers && npm ci --no-audit --no-fund --loglevel=error) ||
    echo "setup: npm ci in tests/viewers failed; the viewer schema and browser tests will skip"
fi

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE="${BUILD_TYPE:-RelWithDebInfo}"
ninja -C build -j"${JOBS:-$(nproc)}"
echo "setup: built build/readperf"
