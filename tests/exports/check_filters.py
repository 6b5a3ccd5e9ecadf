#!/usr/bin/env python3
"""perf's sample filters in every export, against `readperf script` with the same filters.

`readperf script`'s filters are checked byte for byte against perf 6.1 (tests/options); the
exports share its SampleSelection through the one sample pipeline. For one case folder of
tests/golden and each filter that selects some but not all of its samples:
  count       the samples `script FILTER -G -F comm,pid,event` prints: collapsed --count sums to
              those of the first event,
              sqlite holds that many rows, perf-json that many samples, pprof's samples/count
              (when protoc is here) sums to it
  subset      collapsed FILTER is exactly the unfiltered collapsed's lines for the selected
              comms (--comms) or processes (--pid with --include-pid)
  errors      a bad --pid list or --time string exits 1 with perf's message, as does a filter
              the recording cannot take (-C without CPUs)
usage: check_filters.py --readperf PATH --golden DIR --case NAME
"""
import argparse
import collections
import gzip
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)


class Case:
    def __init__(self, readperf, golden, case):
        self.readperf = readperf
        self.folder = os.path.join(golden, case)
        self.buildid = os.path.join(golden, "buildid")
        self.pipe = os.path.join(self.folder, "perf.data.pipe")

    def run(self, args, check_rc=True):
        cmd = [self.readperf, "--buildid-dir", self.buildid] + args
        if os.path.exists(self.pipe):
            with open(self.pipe, "rb") as f:
                out = subprocess.run(cmd + ["-i", "-"], stdin=f, capture_output=True,
                                     cwd=self.folder)
        else:
            out = subprocess.run(cmd + ["-i", "perf.data"], capture_output=True, cwd=self.folder)
        if check_rc and out.returncode != 0:
            sys.exit(f"{' '.join(cmd)} failed:\n{out.stderr.decode()}")
        return out


def script_samples(case, flt):
    """One line per sample: comm, pid and the event (-G: no call chains); or the error."""
    out = case.run(["script", "-G", "-F", "comm,pid,event"] + flt, check_rc=False)
    if out.returncode != 0:
        return out.stderr.decode(errors="replace")
    return [l for l in out.stdout.decode(errors="replace").splitlines() if l.strip()]


def first_event(rows):
    """The samples of the first event seen: what collapsed folds (stackcollapse-perf.pl's
    default)."""
    if not rows:
        return []
    event = rows[0].split()[-1]
    return [r for r in rows if r.split()[-1] == event]


def collapsed(case, flt, *extra):
    out = case.run(["export", "--format", "collapsed", "--count"] + list(extra) + flt)
    lines = out.stdout.decode(errors="replace").splitlines()
    return lines, sum(int(line.rsplit(" ", 1)[1]) for line in lines)


def filters_for(case):
    """Filters that keep some samples and drop others, from what the recording holds."""
    rows = [line.split() for line in script_samples(case, [])]
    rows = [r for r in rows if len(r) >= 3]
    comms = collections.Counter(r[0] for r in rows if len(r) >= 3)
    pids = collections.Counter(r[1] for r in rows if len(r) >= 3)
    out = case.run(["script", "-G", "-F", "ip,sym,dso"]).stdout.decode(errors="replace")
    syms, dsos = collections.Counter(), collections.Counter()
    for line in out.splitlines():
        m = re.match(r"\s*[0-9a-f]+ (.*?) \((.*)\)$", line)
        if m:
            syms[m.group(1)] += 1
            dsos[os.path.basename(m.group(2))] += 1
    flts = [["--time", "0%-50%"], ["--time", "25%/2"]]
    if len(comms) > 1:
        flts.append(["--comms", comms.most_common()[-1][0]])
    if len(pids) > 1:
        flts.append(["--pid", ",".join(p for p, _ in pids.most_common(2))])
        flts.append(["--tid", pids.most_common(1)[0][0]])
    named = [s for s, _ in syms.most_common() if s != "[unknown]"]
    if len(named) > 1:
        flts.append(["-S", named[0]])
        flts.append(["--symbols", ",".join(named[1:3])])
    if len(dsos) > 1:
        flts.append(["--dsos", dsos.most_common()[-1][0]])
    flts.append(["-C", "0"])
    return flts, comms, pids


def protoc_total(path):
    """pprof's first sample value (samples/count) summed, decoded with protoc if here."""
    protoc = shutil.which("protoc")
    proto = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "pprof", "profile.proto")
    if not protoc or not os.path.exists(proto):
        return None
    raw = gzip.open(path).read()
    out = subprocess.run([protoc, "--decode=perftools.profiles.Profile",
                          "-I" + os.path.dirname(proto), proto], input=raw, capture_output=True)
    total, in_sample = 0, False
    for line in out.stdout.decode().splitlines():
        if line.startswith("sample {"):
            in_sample, first = True, True
        elif in_sample and line.strip().startswith("value:") and first:
            total += int(line.split(":")[1])
            first = False
        elif line.startswith("}"):
            in_sample = False
    return total


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--readperf", required=True)
    ap.add_argument("--golden", required=True)
    ap.add_argument("--case", required=True)
    a = ap.parse_args()
    case = Case(os.path.abspath(a.readperf), os.path.abspath(a.golden), a.case)
    all_rows = script_samples(case, [])
    all_samples = len(all_rows)
    all_lines, all_total = collapsed(case, [])
    # stackcollapse-perf.pl folds only samples with call chain lines.
    folds = all_total > 0
    check(not folds or all_total == len(first_event(all_rows)),
          f"unfiltered: collapsed {all_total} != script {len(first_event(all_rows))}")
    flts, comms, pids = filters_for(case)
    tmp = tempfile.mkdtemp()
    try:
        selective = 0
        for flt in flts:
            what = " ".join(flt)
            want = script_samples(case, flt)
            if isinstance(want, str):
                # The recording cannot be filtered so (no CPU, no sample times): the exports
                # refuse as script does, with its message.
                for fmt in ("collapsed", "sqlite", "pprof", "perf-json", "chrome"):
                    out = case.run(["export", "--format", fmt, "-o", os.path.join(tmp, "x")]
                                   + flt, check_rc=False)
                    check(out.returncode == 1 and want.strip() in out.stderr.decode(),
                          f"{what}: export --format {fmt} does not refuse as script does")
                continue
            want_first = len(first_event(want))
            want = len(want)
            if 0 < want < all_samples:
                selective += 1
            lines, total = collapsed(case, flt)
            check(not folds or total == want_first,
                  f"{what}: collapsed --count {total} != script's {want_first} samples")
            db = os.path.join(tmp, "f.db")
            case.run(["export", "--format", "sqlite", "-o", db] + flt)
            rows = sqlite3.connect(db).execute("select count(*) from samples").fetchone()[0]
            check(rows == want, f"{what}: sqlite {rows} rows != {want}")
            js = os.path.join(tmp, "f.json")
            case.run(["export", "--format", "perf-json", "-o", js] + flt)
            n = len(json.load(open(js)).get("samples", []))
            check(n == want, f"{what}: perf-json {n} samples != {want}")
            pb = os.path.join(tmp, "f.pb.gz")
            case.run(["export", "--format", "pprof", "-o", pb] + flt)
            t = protoc_total(pb)
            check(t is None or t == want, f"{what}: pprof samples/count {t} != {want}")
            if flt[0] == "--comms":
                sub = [l for l in all_lines if l.split(";", 1)[0] == flt[1]]
                check(lines == sub, f"{what}: not the unfiltered lines of that comm")
            if flt[0] == "--pid":
                by_pid, _ = collapsed(case, [], "--include-pid")
                keep = flt[1].split(",")
                sub = [l for l in by_pid if l.split(";", 1)[0].rsplit("-", 1)[-1] in keep]
                got, _ = collapsed(case, flt, "--include-pid")
                check(got == sub, f"{what}: not the unfiltered lines of those processes")
        check(selective >= 2, f"only {selective} filters select part of the samples")
    finally:
        shutil.rmtree(tmp)
    bad = case.run(["export", "--format", "collapsed", "--pid", "x"], check_rc=False)
    check(bad.returncode == 1 and b"invalid pid/tid list" in bad.stderr, "--pid x accepted")
    bad = case.run(["export", "--format", "collapsed", "--time", "x,y"], check_rc=False)
    check(bad.returncode == 1 and b"Invalid time string" in bad.stderr, "--time x,y accepted")
    for f in failures:
        print("FAIL:", f)
    print(f"{a.case}: {len(flts)} filters, {len(failures)} failures")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
