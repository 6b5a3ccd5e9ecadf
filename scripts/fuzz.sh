#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/) with clang, ASan and UBSan into build-fuzz/, then runs
# each from its seed corpus (fuzz/corpus/<target>/) for SECONDS. Fails at the first crash,
# leak, hang or runaway allocation; the input is left in build-fuzz/artifacts/. Save it as
# fuzz/regressions/<target>/<what-it-broke> once fixed: tests/fuzz_regressions_test.cpp
# replays it from then on.
#
#   scripts/fuzz.sh                  # every target, 60 seconds each
#   scripts/fuzz.sh 600 perf_file    # one target, ten minutes
#
# Needs clang and libclang-rt-14-dev (scripts/setup.sh installs them).
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(perf_file perf_pipe sample_decoder features decompressor elf_symbols
                                 symbol_archive pprof_symbolize pprof_merge)
# Inputs longer than this are not tried: the seeds are a few KB, and short inputs run faster.
declare -A max_len=([perf_file]=16384 [perf_pipe]=16384 [sample_decoder]=4096
                    [features]=4096 [decompressor]=8192 [elf_symbols]=16384
                    [symbol_archive]=16384 [pprof_symbolize]=16384 [pprof_merge]=16384)

CC=clang CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DREADPERF_FUZZ=ON -DREADPERF_SANITIZE=ON \
  -DREADPERF_TESTS=OFF >/dev/null
ninja -C build-fuzz -j"${JOBS:-$(nproc)}" $(printf 'fuzz/fuzz_%s ' "${targets[@]}")

symbolizer=/usr/lib/llvm-14/bin/llvm-symbolizer
[ -x "$symbolizer" ] && export ASAN_SYMBOLIZER_PATH=$symbolizer
artifacts=$PWD/build-fuzz/artifacts
mkdir -p "$artifacts"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
for t in "${targets[@]}"; do
  # New inputs go to a scratch copy: the committed seeds change only by hand.
  mkdir -p "$work/$t"
  cp fuzz/corpus/"$t"/* "$work/$t/" 2>/dev/null || true
  echo "fuzz: $t for ${seconds}s"
  # Every saved input runs in milliseconds; 25 s catches a hang without failing on an input
  # that merely waited for a loaded machine (seen at 10 s with builds running beside).
  if ! build-fuzz/fuzz/fuzz_"$t" -max_total_time="$seconds" -max_len="${max_len[$t]:-8192}" \
      -timeout=25 -rss_limit_mb=2560 -print_final_stats=1 \
      -artifact_prefix="$artifacts/$t-" "$work/$t" >"$work/$t.log" 2>&1; then
    tail -n 60 "$work/$t.log"
    echo "fuzz: $t FAILED; the input is in $artifacts/"
    status=1
  else
    grep -E '^(stat::number_of_executed_units|stat::average_exec_per_sec|stat::new_units_added)' \
      "$work/$t.log" | tr '\n' ' '
    grep -E '^#[0-9]+.*(cov|DONE)' "$work/$t.log" | tail -n 1
  fi
done
exit $status
