#!/usr/bin/python3
"""`export --format pprof --no-symbolize` and `readperf symbolize` (issue #20).

For each golden case: the symbolized export (`export --format pprof` with the golden build-id
cache), the unsymbolized one (`--no-symbolize`: no functions, no lines, mappings with their
build-ids), and that one symbolized later, from the golden cache and from a symbol archive with
an empty cache: the profile bytes must equal the symbolized export's. Bad input (a profile with
functions already, garbage, a cut gzip) is an error, never a crash.

    check_symbolize.py --readperf build/readperf --golden tests/golden
"""
import argparse
import gzip
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402

CASES = ["spin-fp", "dwarf-cxx", "default", "threads-dir", "tracepoint",
         # a user-mode sample at a kernel address (no map): its "cpumodes" label
         "lost_samples-4.4", "raw_callgraph_branch-3.4", "group_desc-4.14"]


def varint(b, i):
    v = shift = 0
    while True:
        c = b[i]
        i += 1
        v |= (c & 0x7f) << shift
        shift += 7
        if not c & 0x80:
            return v, i


def fields(b):
    """(number, wire type, value or bytes) of each field of a protobuf message."""
    i = 0
    while i < len(b):
        tag, i = varint(b, i)
        num, wire = tag >> 3, tag & 7
        if wire == 0:
            v, i = varint(b, i)
        elif wire == 2:
            n, i = varint(b, i)
            v, i = b[i:i + n], i + n
        elif wire == 1:
            v, i = b[i:i + 8], i + 8
        else:
            v, i = b[i:i + 4], i + 4
        yield num, wire, v


def summary(profile):
    """What the unsymbolized profile must have and must not: counts of functions, lines,
    locations, mappings and mappings with a build-id."""
    strings = [v for n, _, v in fields(profile) if n == 6]
    out = {"functions": 0, "lines": 0, "locations": 0, "mappings": 0, "build_ids": 0}
    for n, _, v in fields(profile):
        if n == 5:
            out["functions"] += 1
        elif n == 4:
            out["locations"] += 1
            out["lines"] += sum(1 for m, _, _ in fields(v) if m == 4)
        elif n == 3:
            out["mappings"] += 1
            bid = [w for m, _, w in fields(v) if m == 6]
            if bid and strings[bid[0]]:
                out["build_ids"] += 1
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--readperf", required=True)
    ap.add_argument("--golden", required=True)
    a = ap.parse_args()
    readperf = os.path.abspath(a.readperf)
    golden = os.path.abspath(a.golden)
    cache = os.path.join(golden, "buildid")
    failures = []
    work = tempfile.mkdtemp(prefix="readperf-symbolize-")

    def fail(label, text):
        failures.append(label)
        print("FAIL %s: %s" % (label, text))

    def run(case_dir, args):
        rc, out, err = common.run(readperf, case_dir, args)
        return rc, err.decode(errors="replace")

    def symbolize(case_dir, args):
        env = dict(os.environ)
        env.pop("DEBUGINFOD_URLS", None)
        env.pop("READPERF_SYMBOLS", None)
        p = subprocess.run([readperf] + args, cwd=case_dir, env=env, capture_output=True, timeout=300)
        return p.returncode, p.stderr.decode(errors="replace")

    try:
        empty = os.path.join(work, "empty")
        os.makedirs(empty)
        for case in CASES:
            case_dir = os.path.join(golden, case)
            want_path = os.path.join(work, case + ".pb.gz")
            raw_path = os.path.join(work, case + ".raw.pb.gz")
            archive = os.path.join(work, case + ".tar.zst")
            rc1, e1 = run(case_dir, ["--buildid-dir", cache, "export", "--format", "pprof", "-o", want_path])
            rc2, e2 = run(case_dir, ["--buildid-dir", cache, "export", "--format", "pprof",
                                     "--no-symbolize", "-o", raw_path])
            rc3, e3 = run(case_dir, ["--buildid-dir", cache, "archive", "-o", archive])
            if rc1 or rc2 or rc3:
                fail(case, "export rc=%d/%d/%d: %s %s %s" % (rc1, rc2, rc3, e1, e2, e3))
                continue
            want = gzip.open(want_path).read()
            raw = gzip.open(raw_path).read()
            s = summary(raw)
            if s["functions"] or s["lines"] or not s["locations"] or s["build_ids"] == 0:
                fail(case + "/no-symbolize", "unsymbolized profile: %s" % s)
            else:
                print("PASS %s/no-symbolize: %s" % (case, s))
            for label, args in [("build-id cache", ["--buildid-dir", cache]),
                                ("archive", ["--buildid-dir", empty, "--symbols", archive])]:
                out_path = os.path.join(work, "%s.%s.pb.gz" % (case, label.replace(" ", "-")))
                rc, err = symbolize(case_dir, args + ["symbolize", raw_path, "-o", out_path])
                got = gzip.open(out_path).read() if rc == 0 and os.path.exists(out_path) else b""
                if got != want:
                    fail("%s/symbolize from the %s" % (case, label),
                         "rc=%d, %d bytes where the export has %d: %s" % (rc, len(got), len(want), err))
                else:
                    print("PASS %s/symbolize from the %s: the export's %d bytes" % (
                        case, label, len(want)))

        # Bad input: an error naming the file, never a crash.
        case_dir = os.path.join(golden, "spin-fp")
        good = open(os.path.join(work, "spin-fp.raw.pb.gz"), "rb").read()
        raw = gzip.decompress(good)
        bad = {
            "symbolized.pb.gz": open(os.path.join(work, "spin-fp.pb.gz"), "rb").read(),
            "garbage.pb.gz": b"\x0a\xff\xff\xff\xff\x0f" + b"x" * 40,
            "cut.pb.gz": good[:len(good) // 2],
            "cut-proto.pb": raw[:len(raw) // 2 + 1],
            "empty.pb.gz": b"",
        }
        for name, data in bad.items():
            path = os.path.join(work, name)
            with open(path, "wb") as f:
                f.write(data)
            rc, err = symbolize(case_dir, ["--buildid-dir", cache, "symbolize", path, "-o",
                                           os.path.join(work, "bad-out.pb.gz")])
            if rc != 1 or "Sanitizer" in err or name not in err:
                fail("bad input " + name, "rc=%d: %s" % (rc, err))
            else:
                print("PASS bad input %s: %s" % (name, err.strip().splitlines()[0]))
        if os.path.exists(os.path.join(work, "bad-out.pb.gz")):
            fail("bad input", "an output was left behind")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("symbolize: %d failed" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
