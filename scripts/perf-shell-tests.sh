#!/usr/bin/env bash
# Runs perf's own shell tests twice, once with the real perf and once through a `perf` wrapper
# that sends `report`, `script` and `stat report` to readperf (everything else to perf), and
# says which pass with perf and not with readperf.
#
#   scripts/perf-shell-tests.sh [--readperf PATH] [--perf PATH] [--timeout S] [--all]
#                               [--dir DIR]... [TEST-NAME-PATTERN]...
#
# The tests are perf 6.1's (/usr/lib/perf-core/tests/shell, the same as the Linux tree's
# tools/perf/tests/shell) and, when they are unpacked here, perf 6.12's and 7.2's
# (/tmp/perf612/root/..., /opt/perf7/root/...: ../shared/tools/perf-newer-setup.sh), all run
# with perf 6.1; --dir adds or replaces (the first --dir drops the defaults) test folders.
# Only the tests that call `perf report`, `perf script` or `perf stat report` are run unless
# --all; a pattern keeps the tests whose path contains it.
#
# They record (perf record, perf stat record, probes), so they need root and a perf that can
# record here, and they are not part of scripts/test.sh. A test passes when it exits 0, is
# skipped when it exits 2 (perf's convention), fails otherwise. Prints one line per test
# (perf's result, readperf's), then the tests that pass with perf and not through readperf,
# with the last lines of their output; exits 1 if there are any.
set -uo pipefail
cd "$(dirname "$0")/.."

readperf=build/readperf
perf=/usr/bin/perf
timeout_s=600
all=0
dirs=()
patterns=()
while [ $# -gt 0 ]; do
  case "$1" in
    --readperf) readperf=$2; shift 2 ;;
    --perf) perf=$2; shift 2 ;;
    --timeout) timeout_s=$2; shift 2 ;;
    --all) all=1; shift ;;
    --dir) dirs+=("$2"); shift 2 ;;
    -h|--help) sed -n '2,/^set /p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) echo "perf-shell-tests: unknown option $1" >&2; exit 2 ;;
    *) patterns+=("$1"); shift ;;
  esac
done
readperf=$(readlink -f "$readperf")
[ -x "$readperf" ] || { echo "perf-shell-tests: no $readperf (build it first)" >&2; exit 2; }
if [ ${#dirs[@]} -eq 0 ]; then
  for d in /usr/lib/perf-core/tests/shell /tmp/perf612/root/usr/lib/perf-core/tests/shell \
           /opt/perf7/root/usr/lib/perf-core/tests/shell; do
    [ -d "$d" ] && dirs+=("$d")
  done
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Two folders put first on PATH: one where `perf` is the real perf, one with the wrapper.
mkdir -p "$work/perf-bin" "$work/wrap-bin"
ln -s "$perf" "$work/perf-bin/perf"
cat >"$work/wrap-bin/perf" <<EOF
#!/usr/bin/env bash
# perf with report, script and stat report answered by readperf.
# The command is the first word that is not one of perf's global options (perf.c).
i=1
while [ \$i -le \$# ]; do
  a=\${!i}
  case "\$a" in
    --buildid-dir|--debug|--debugfs-dir) i=\$((i + 2)); continue ;;
    -*) i=\$((i + 1)); continue ;;
  esac
  break
done
cmd=\${!i:-}
case "\$cmd" in
  report|script) exec "$readperf" "\$@" ;;
  stat)
    # \`perf stat [stat options] report ...\`: report is the first word after the options.
    j=\$((i + 1))
    while [ \$j -le \$# ]; do
      b=\${!j}
      case "\$b" in -*) j=\$((j + 1)); continue ;; esac
      [ "\$b" = report ] && exec "$readperf" "\$@"
      break
    done
    ;;
esac
exec "$perf" "\$@"
EOF
chmod +x "$work/wrap-bin/perf"

# Runs one test with `perf` from folder $2; prints pass, skip or fail (and keeps the output).
run_one() {
  local test=$1 bin=$2 log=$3 rc
  (cd "$(dirname "$test")" && PATH="$bin:$PATH" timeout "$timeout_s" bash "$test" \
     </dev/null >"$log" 2>&1)
  rc=$?
  case $rc in
    0) echo pass ;;
    2) echo skip ;;
    124) echo timeout ;;
    *) echo "fail($rc)" ;;
  esac
}

# How a test calls the commands readperf answers.
calls='perf (report|script)|perf stat (-[^ ]+ )*report|\$perf_tool (report|script)|\$CMD_PERF (report|script)'
regressions=()
n=0
for d in "${dirs[@]}"; do
  while IFS= read -r t; do
    # A perftool-testsuite_NAME.sh runs the tests of base_NAME/.
    suite=$(dirname "$t")/base_$(basename "$t" .sh | sed -n 's/^perftool-testsuite_//p')
    [ "$suite" = "$(dirname "$t")/base_" ] && suite=
    if [ "$all" -eq 0 ] &&
       ! grep -qrE "$calls" "$t" ${suite:+"$suite"} 2>/dev/null; then
      continue
    fi
    if [ ${#patterns[@]} -gt 0 ]; then
      keep=0
      for p in "${patterns[@]}"; do [[ "$t" == *"$p"* ]] && keep=1; done
      [ "$keep" -eq 1 ] || continue
    fi
    n=$((n + 1))
    with_perf=$(run_one "$t" "$work/perf-bin" "$work/perf.$n.log")
    with_readperf=$(run_one "$t" "$work/wrap-bin" "$work/readperf.$n.log")
    printf '%-8s %-8s %s\n' "$with_perf" "$with_readperf" "$t"
    if [ "$with_perf" = pass ] && [ "$with_readperf" != pass ]; then
      regressions+=("$t")
      cp "$work/readperf.$n.log" "$work/regression.${#regressions[@]}.log"
    fi
  done < <(find "$d" -maxdepth 1 -name '*.sh' | sort)
done

echo
echo "perf-shell-tests: $n tests; ${#regressions[@]} pass with perf and not through readperf"
i=0
for t in "${regressions[@]}"; do
  i=$((i + 1))
  echo "--- $t"
  tail -n 8 "$work/regression.$i.log" | sed 's/^/    /'
done
[ ${#regressions[@]} -eq 0 ]
