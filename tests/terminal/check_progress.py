#!/usr/bin/env python3
"""The progress line (issue #15), in a real terminal (tmux): on a file over 64 MiB, with
standard error a terminal, one line redrawn in place (bytes read of the total, records per
second, time left) at most 10 times a second and erased at the end; none with -q/--quiet,
none when standard error is not a terminal, none on a small file, none while script prints
to the terminal.

usage: check_progress.py --readperf PATH --make-recording PATH
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from checks import Checks  # noqa: E402

from tmux_terminal import Terminal, done_status

# One drawing of the line: "\rreadperf: big.data: 12 of 80 MiB (15%), 2.1M records/s, 0:01 left"
DRAW = re.compile(rb"\rreadperf: big\.data: (\d+) of (\d+) MiB \((\d+)%\)"
                  rb"(?:, [\d.]+[kM]? records/s, \d+:\d\d left)?\x1b\[K")
ERASE = b"\r\x1b[K"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--readperf", required=True)
    ap.add_argument("--make-recording", required=True)
    args = ap.parse_args()
    readperf = os.path.abspath(args.readperf)
    check = Checks("progress")

    with tempfile.TemporaryDirectory(prefix="readperf-progress-") as tmp, \
            Terminal(width=150, height=40) as term:
        subprocess.run([args.make_recording, os.path.join(tmp, "big.data"), "80"], check=True)
        size = os.path.getsize(os.path.join(tmp, "big.data"))
        print(f"big.data: {size >> 20} MiB")
        small = os.path.join(tmp, "small.data")
        subprocess.run([args.make_recording, small, "8"], check=True)

        def run(name, command):
            """Runs in the terminal; returns (bytes written to it, status, seconds taken)."""
            log = os.path.join(tmp, name + ".log")
            term.run(f"s=$(date +%s%N); {command}; st=$?; e=$(date +%s%N); "
                     f"echo; echo TOOK $(( (e - s) / 1000000 )); sh -c \"exit $st\"",
                     cwd=tmp, log=log)
            rows = term.wait_for(lambda r: done_status(r) is not None, timeout=240)
            took = next(int(r.split()[1]) for r in rows if r.startswith("TOOK ")) / 1000
            with open(log, "rb") as f:
                return f.read(), done_status(rows), took, rows

        # report: the line while reading, at most 10 drawings a second, erased before the
        # histogram is printed.
        out, st, took, rows = run("report", f"{readperf} report --stdio --no-pager -i big.data")
        draws = DRAW.findall(out)
        check("report on 80 MiB: the progress line is drawn", st == 0 and len(draws) >= 1, out[-2000:])
        check(f"at most 10 drawings a second ({len(draws)} in {took:.2f} s)",
              len(draws) <= 10 * took + 1, took)
        check("the totals are the file's", all(int(t) == size >> 20 for _, t, _ in draws), draws)
        check("bytes read only grow", [int(d) for d, _, _ in draws] ==
              sorted(int(d) for d, _, _ in draws), draws)
        last = out.rfind(b"\rreadperf: big.data")
        hist = out.find(b"# Samples:")
        check("erased before the report is printed",
              last >= 0 and out.find(ERASE, last) != -1 and hist > out.find(ERASE, last),
              out[max(0, last - 100):last + 400])
        check("nothing of it left on the screen", not any("MiB (" in r for r in rows), rows)
        if took > 0.5:
            check("records/s and time left shown", any(b"records/s" in m.group(0) for m in
                                                       DRAW.finditer(out)), out[:2000])

        # script to a file: the terminal sees the progress line; the file only the samples.
        out, st, took, _ = run("script", f"{readperf} script -i big.data > script.txt")
        check("script > file: the progress line is drawn", st == 0 and DRAW.search(out), out[-500:])
        with open(os.path.join(tmp, "script.txt"), "rb") as f:
            head = f.read(1 << 20)
        check("script > file: the file has no progress line", b"MiB (" not in head, head[:300])
        # script to the terminal: its lines would be broken by the progress line.
        out, st, _, _ = run("script-tty",
                            f"{readperf} script --no-pager -i big.data --time 0,0.00001")
        check("script printing on the terminal: no progress line",
              st == 0 and b"cpu-clock" in out and not DRAW.search(out), out[:500])

        for label, command in [
            ("-q", f"{readperf} -q report --stats -i big.data"),
            ("--quiet", f"{readperf} --quiet report --stdio --no-pager -i big.data"),
            ("stderr to a file", f"{readperf} report --stats -i big.data 2> err.txt"),
            ("stderr to a pipe", f"{readperf} report --stats -i big.data 2>&1 | cat"),
            ("a file of 8 MiB", f"{readperf} report --stats -i small.data"),
        ]:
            out, st, _, _ = run("quiet", command)
            check(f"{label}: no progress line", st == 0 and b"MiB (" not in out and
                  (b"TOTAL events" in out or b"# Samples" in out), out[:800])
        with open(os.path.join(tmp, "err.txt"), "rb") as f:
            err = f.read()
        check("stderr to a file: the file has no progress line", b"MiB (" not in err, err[:300])

    return check.status()


if __name__ == "__main__":
    sys.exit(main())
