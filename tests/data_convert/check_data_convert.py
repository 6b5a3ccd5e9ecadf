#!/usr/bin/env python3
"""Checks how `readperf data convert` (and `export`) treat damaged input and their outputs.

usage: check_data_convert.py --readperf BIN --golden DIR

On copies of golden recordings in a temporary folder:
  damage      a recording with a record size broken in the middle of its data: --to-json and
              --to-ctf exit 1 naming the offset, and write what precedes the damage whole (a
              closed JSON document with as many samples as `script` prints for the same file; a
              trace babeltrace2 reads, with as many events), under the final name only.
  write error the output cannot be written (RLIMIT_FSIZE, SIGXFSZ ignored): exit 1, and
              neither the output nor a temporary file is left behind.
  existing    --to-json onto an existing file without --force is refused and leaves it as it
              was; with --force it is replaced. --to-ctf onto a directory that is not a trace
              is refused; onto a trace, only with --force.
  export      `export --format perf-json` writes what `data convert --to-json` writes.
Exits 0 when all hold, 1 otherwise.
"""
import argparse
import json
import os
import resource
import shutil
import signal
import struct
import subprocess
import sys
import tempfile

failures = []


def check(cond, what):
    print(("ok:   " if cond else "FAIL: ") + what)
    if not cond:
        failures.append(what)


def run(cmd, cwd, limit_size=None):
    def limit():
        if limit_size is not None:
            # The write past the limit fails with EFBIG instead of killing the process.
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit_size, limit_size))

    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, preexec_fn=limit)


def damage(src, dst, fraction):
    """Copies a little-endian perf.data file with the size of the record `fraction` of the way
    through its data section set to 4; returns that record's offset."""
    data = bytearray(open(src, "rb").read())
    offset, size = struct.unpack_from("<QQ", data, 40)
    starts, pos = [], offset
    while pos < offset + size:
        starts.append(pos)
        pos += struct.unpack_from("<IHH", data, pos)[2]
    at = starts[int(len(starts) * fraction)]
    struct.pack_into("<H", data, at + 6, 4)
    open(dst, "wb").write(data)
    return at


def script_samples(readperf, buildid, cwd, rec):
    out = run([readperf, "--buildid-dir", buildid, "script", "-G", "-F", "time", "-i", rec], cwd)
    return len(out.stdout.splitlines())


def leftovers(folder, keep):
    return sorted(set(os.listdir(folder)) - set(keep))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--readperf", required=True)
    ap.add_argument("--golden", required=True)
    args = ap.parse_args()
    readperf = os.path.abspath(args.readperf)
    buildid = os.path.join(os.path.abspath(args.golden), "buildid")
    tmp = tempfile.mkdtemp(prefix="readperf-data-convert-")
    try:
        # What perf delivers before the damage: the records up to the last FINISHED_ROUND ahead of
        # it (perf never flushes its queue past a read error); in tracepoint's, none.
        for case, fraction, some in (("dwarf-cxx", 0.8, True), ("tracepoint", 0.9, False)):
            work = os.path.join(tmp, case)
            os.mkdir(work)
            at = damage(os.path.join(args.golden, case, "perf.data"),
                        os.path.join(work, "bad.data"), fraction)
            expected = script_samples(readperf, buildid, work, "bad.data")
            if some:
                check(expected > 0, "%s: script prints samples before the damage at %#x"
                      % (case, at))
            r = run([readperf, "--buildid-dir", buildid, "data", "convert", "--to-json",
                     "out.json", "-i", "bad.data"], work)
            check(r.returncode == 1, "%s: --to-json exits 1 on damage (rc %d)" % (case, r.returncode))
            check("offset %#x" % at in r.stderr, "%s: --to-json names offset %#x" % (case, at))
            try:
                doc = json.load(open(os.path.join(work, "out.json")))
                got = len(doc["samples"])
            except (OSError, ValueError, KeyError) as e:
                got = "unreadable: %s" % e
            check(got == expected, "%s: JSON has the %d samples before the damage (%s)"
                  % (case, expected, got))
            r = run([readperf, "data", "convert", "--to-ctf", "trace", "-i", "bad.data"], work)
            check(r.returncode == 1, "%s: --to-ctf exits 1 on damage (rc %d)" % (case, r.returncode))
            check("offset %#x" % at in r.stderr, "%s: --to-ctf names offset %#x" % (case, at))
            check(os.path.exists(os.path.join(work, "trace", "metadata")),
                  "%s: the trace is written" % case)
            # (A trace of no event is one babeltrace2 refuses, as it refuses perf's.)
            if expected and shutil.which("babeltrace2"):
                bt = subprocess.run(["babeltrace2", "trace"], cwd=work, capture_output=True,
                                    text=True)
                events = len(bt.stdout.splitlines())
                check(bt.returncode == 0 and events == expected,
                      "%s: babeltrace2 reads the %d samples before the damage (%d)"
                      % (case, expected, events))
            check(leftovers(work, ["bad.data", "out.json", "trace"]) == [],
                  "%s: no temporary left behind" % case)

        work = os.path.join(tmp, "outputs")
        shutil.copytree(os.path.join(args.golden, "default"), work)
        base = [readperf, "--buildid-dir", buildid]
        # A write error: nothing under the final name, no temporary.
        r = run(base + ["data", "convert", "--to-json", "big.json", "-i", "perf.data"], work,
                limit_size=64 * 1024)
        check(r.returncode == 1 and "big.json" in r.stderr,
              "write error: exit 1 naming the output (rc %d: %s)" % (r.returncode, r.stderr.strip()))
        check(leftovers(work, ["perf.data", "expected"]) == [],
              "write error: no output or temporary left (%s)"
              % leftovers(work, ["perf.data", "expected"]))
        r = run(base + ["data", "convert", "--to-ctf", "big.ctf", "-i", "perf.data"], work,
                limit_size=16 * 1024)
        # babeltrace's writer abort()s when a write fails (ctf.c ctf_packet_seek's assertion).
        check(r.returncode != 0, "CTF write error: fails (rc %d)" % r.returncode)
        check(leftovers(work, ["perf.data", "expected"]) == [],
              "CTF write error: no trace or temporary left (%s)"
              % leftovers(work, ["perf.data", "expected"]))
        # Existing outputs.
        with open(os.path.join(work, "out.json"), "w") as f:
            f.write("keep")
        r = run(base + ["data", "convert", "--to-json", "out.json", "-i", "perf.data"], work)
        check(r.returncode != 0 and open(os.path.join(work, "out.json")).read() == "keep",
              "--to-json onto an existing file without --force is refused")
        r = run(base + ["data", "convert", "--force", "--to-json", "out.json", "-i", "perf.data"],
                work)
        converted = open(os.path.join(work, "out.json")).read()
        check(r.returncode == 0 and converted.startswith("{"), "--force replaces it")
        r = run(base + ["export", "--format", "perf-json", "-o", "export.json", "-i",
                        "perf.data"], work)
        check(r.returncode == 0 and open(os.path.join(work, "export.json")).read() == converted,
              "export --format perf-json writes what data convert --to-json writes")
        os.mkdir(os.path.join(work, "notes"))
        with open(os.path.join(work, "notes", "todo.txt"), "w") as f:
            f.write("keep")
        r = run(base + ["data", "convert", "--force", "--to-ctf", "notes", "-i", "perf.data"], work)
        check(r.returncode != 0 and os.listdir(os.path.join(work, "notes")) == ["todo.txt"],
              "--to-ctf onto a directory that is not a trace is refused, even with --force")
        r = run(base + ["data", "convert", "--to-ctf", "ctf", "-i", "perf.data"], work)
        check(r.returncode == 0, "--to-ctf into a new directory")
        r = run(base + ["data", "convert", "--to-ctf", "ctf", "-i", "perf.data"], work)
        check(r.returncode != 0, "--to-ctf onto a trace without --force is refused")
        r = run(base + ["data", "convert", "--force", "--to-ctf", "ctf", "-i", "perf.data"], work)
        check(r.returncode == 0 and "metadata" in os.listdir(os.path.join(work, "ctf")),
              "--to-ctf --force replaces a trace")
        check(leftovers(work, ["perf.data", "expected", "out.json", "export.json", "notes", "ctf"])
              == [], "no temporary left behind")
    finally:
        shutil.rmtree(tmp)
    if failures:
        print("%d check(s) failed" % len(failures))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
