#!/usr/bin/env python3
"""Checks `readperf data convert` against the installed perf, on every case of a corpus.

For each case (a folder holding perf.data or a perf.data/ directory; perf 6.1 crashes on
pipe-mode input, so perf.data.pipe cases are left out) runs both tools and compares:

  json      `data convert --to-json`: byte for byte
  ctf       `data convert --to-ctf`: `babeltrace2 DIR` of both traces, line for line (the trace
            and clock UUIDs, which the writer draws at random, are not printed), less the time
            and process id of babeltrace2's own log lines (for the trace of no event babeltrace2
            refuses, its error, less addresses and paths)
  ctf-all   the same with --all

Symbols (json) come from the corpus's build-id cache, `buildid/` beside the cases, which perf
runs with `--buildid-dir`. A copy whose symbolic links were flattened into files holding the
link's target (as ../shared/corpus is) is given back its links in a temporary copy first:
perf reads the cache through them (readperf reads either form).

usage: check-data-convert.py [--readperf PATH] [--perf PATH] [--case NAME]... [--only KIND]...
                             CORPUS
Prints one line per check and a summary; exits 1 if any check failed.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

LOG_LINE = re.compile(rb"^\d\d-\d\d [\d:.]+ +\d+ +\d+ ", re.M)


def symlinked_cache(cache, tmp):
    """A copy of the build-id cache with its flattened .build-id links made links again."""
    copy = os.path.join(tmp, "buildid")
    shutil.copytree(cache, copy, symlinks=True)
    links = os.path.join(copy, ".build-id")
    for root, _, files in os.walk(links):
        for name in files:
            path = os.path.join(root, name)
            if os.path.islink(path) or os.path.getsize(path) > 512:
                continue
            with open(path, "rb") as f:
                head = f.read()
            if head.startswith(b"\x7fELF"):
                continue
            os.chmod(root, 0o755)
            os.unlink(path)
            os.symlink(head.decode().strip(), path)
    return copy


def babeltrace(trace):
    """babeltrace2's text of a trace; for one it refuses (a trace of no event, perf's too),
    its error less the log lines' times, the process id, the heap addresses and the path."""
    r = subprocess.run(["babeltrace2", trace], capture_output=True,
                       env=dict(os.environ, TZ="UTC", LC_ALL="C"))
    if r.returncode == 0:
        return r.stdout
    text = LOG_LINE.sub(b"LOG ", r.stdout + r.stderr).replace(trace.encode(), b"TRACE")
    return re.sub(rb"addr=0x[0-9a-f]+", b"addr=?", text)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--readperf", default="build/readperf")
    ap.add_argument("--perf", default="perf")
    ap.add_argument("--case", action="append", default=[])
    ap.add_argument("--only", action="append", default=[])
    ap.add_argument("corpus")
    args = ap.parse_args()
    readperf = os.path.abspath(args.readperf)
    kinds = args.only or ["json", "ctf", "ctf-all"]
    passed = failed = 0
    tmp = tempfile.mkdtemp(prefix="check-data-convert-")
    try:
        cache = os.path.join(args.corpus, "buildid")
        perf_cache = symlinked_cache(cache, tmp) if os.path.isdir(cache) else None
        for name in sorted(os.listdir(args.corpus)):
            case = os.path.join(args.corpus, name)
            if not os.path.exists(os.path.join(case, "perf.data")):
                continue
            if args.case and name not in args.case:
                continue
            for kind in kinds:
                out_p = os.path.join(tmp, "perf-" + kind)
                out_r = os.path.join(tmp, "readperf-" + kind)
                for out in (out_p, out_r):
                    shutil.rmtree(out, ignore_errors=True)
                    if os.path.exists(out):
                        os.unlink(out)
                opts = ["--to-json"] if kind == "json" else ["--to-ctf"]
                if kind == "ctf-all":
                    opts = ["--all"] + opts
                perf = [args.perf] + (["--buildid-dir", perf_cache] if perf_cache else [])
                mine = [readperf] + (["--buildid-dir", os.path.abspath(cache)]
                                     if perf_cache else [])
                rp = subprocess.run(perf + ["data", "convert"] + opts + [out_p, "-i", "perf.data"],
                                    cwd=case, capture_output=True)
                rr = subprocess.run(mine + ["data", "convert"] + opts + [out_r, "-i", "perf.data"],
                                    cwd=case, capture_output=True)
                if kind == "json":
                    want = open(out_p, "rb").read() if os.path.exists(out_p) else b""
                    got = open(out_r, "rb").read() if os.path.exists(out_r) else b""
                else:
                    want, got = babeltrace(out_p), babeltrace(out_r)
                label = "%s/%s" % (name, kind)
                if rp.returncode != 0:
                    print("SKIP %s: perf fails (rc %d)" % (label, rp.returncode))
                elif want == got and rr.returncode == 0:
                    passed += 1
                    print("PASS " + label)
                else:
                    failed += 1
                    print("FAIL %s (readperf rc %d)" % (label, rr.returncode))
    finally:
        shutil.rmtree(tmp)
    print("check-data-convert: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
