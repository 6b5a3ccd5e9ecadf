#!/usr/bin/env python3
"""The pager (issue #15), in a real terminal (tmux): report, script, -D and header output
typed in a terminal go through $PAGER (default `less -FRSX`); --no-pager and PAGER=cat turn
it off; never when standard output is a pipe or a file.

usage: check_pager.py --readperf PATH --golden DIR
"""

import argparse
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from checks import Checks  # noqa: E402

from tmux_terminal import Terminal, done_status

# A pager that marks every line it shows, so the screen tells whether it ran.
MARKING_PAGER = "sed 's/^/paged| /'"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--readperf", required=True)
    ap.add_argument("--golden", required=True)
    args = ap.parse_args()
    readperf = os.path.abspath(args.readperf)
    case = os.path.join(os.path.abspath(args.golden), "default")
    buildid = os.path.join(os.path.abspath(args.golden), "buildid")
    rp = f"{readperf} --buildid-dir {buildid}"
    check = Checks("pager")

    def finished(rows):
        return done_status(rows) is not None

    with Terminal(width=120, height=40) as term:
        # Each paged view: every row on the screen came through the pager (but the DONE line
        # and readperf's own notes on standard error, which is not paged). -D fills the screen
        # many times over.
        for view in ["report --stats", "report --stdio", "report -D", "report --header-only -I",
                     "script"]:
            term.run(f"{rp} {view} -i perf.data", env={"PAGER": MARKING_PAGER}, cwd=case)
            rows = term.wait_for(finished)
            body = [r for r in rows
                    if r.strip() and not r.startswith("DONE ") and not r.startswith("readperf:")]
            check(f"{view}: through $PAGER", done_status(rows) == 0 and len(body) > 2 and
                  all(r.startswith("paged|") for r in body), rows)

        # Turned off: --no-pager (the command's or the global one), PAGER=cat, empty PAGER.
        for label, cmd, env in [
            ("report --no-pager", f"{rp} report --stats --no-pager -i perf.data",
             {"PAGER": MARKING_PAGER}),
            ("global --no-pager", f"{rp} --no-pager script -i perf.data",
             {"PAGER": MARKING_PAGER}),
            ("PAGER=cat", f"{rp} report --stats -i perf.data", {"PAGER": "cat"}),
            ("PAGER=''", f"{rp} report --stats -i perf.data", {"PAGER": ""}),
            ("piped", f"{rp} report --stats -i perf.data | cat", {"PAGER": MARKING_PAGER}),
        ]:
            term.run(cmd, env=env, cwd=case)
            rows = term.wait_for(finished)
            check(f"{label}: not paged",
                  done_status(rows) == 0 and not any("paged|" in r for r in rows)
                  and sum(1 for r in rows if r.strip() and not r.startswith("DONE ")) > 2, rows)

        # Into a file: the file has the plain output, nothing paged.
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "out.txt")
            term.run(f"{rp} report --stats -i perf.data > {out}", env={"PAGER": MARKING_PAGER},
                     cwd=case)
            rows = term.wait_for(finished)
            with open(out) as f:
                text = f.read()
            expected = subprocess.run([readperf, "--buildid-dir", buildid, "report", "--stats",
                                       "-i", "perf.data"], cwd=case, capture_output=True,
                                      text=True).stdout
            check("redirected to a file: not paged", text == expected and "paged|" not in text,
                  rows)

        # The default pager, less -FRSX: a screenful of -D, less's prompt, then q; the shell
        # gets its status after less quits.
        term.run(f"{rp} report -D -i perf.data", cwd=case)
        rows = term.wait_for(lambda r: r[-1].startswith(":") or finished(r))
        check("default pager: less holds the screen", not finished(rows) and
              rows[-1].startswith(":") and any("PERF_RECORD" in r for r in rows), rows)
        term.keys("q")
        rows = term.wait_for(finished)
        # Quitting before the end: readperf's next write gets SIGPIPE (141), as git and perf do.
        check("default pager: q quits, readperf ends after it", done_status(rows) in (0, 141),
              rows)
        # Output that fits on the screen: less -F prints it and exits at once.
        term.run(f"{rp} report --stats -i perf.data", cwd=case)
        rows = term.wait_for(finished, timeout=20)
        check("default pager: short output printed as is",
              done_status(rows) == 0 and any("TOTAL events" in r for r in rows), rows)

    return check.status()


if __name__ == "__main__":
    sys.exit(main())
