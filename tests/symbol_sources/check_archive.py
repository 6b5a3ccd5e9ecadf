#!/usr/bin/python3
"""`readperf archive` and `--symbols` (issue #20): another machine reads the recording with its
archive and prints what the recording machine printed.

For each golden case: `readperf --buildid-dir golden/buildid archive` writes the archive; then
every symbol-printing kind, read with an empty build-id cache and `--symbols ARCHIVE` (before
the command, after it, as --symbols=), must equal perf's golden output. The archive holds only
what the samples hit (spin-fp's static binary needs no libc), extracts with tar into a build-id
cache that gives the same reports, and a damaged or foreign archive gives a warning and the
unresolved addresses.

    check_archive.py --readperf build/readperf --golden tests/golden
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402

CASES = ["spin-fp", "dwarf-cxx", "default", "threads-dir", "tracepoint"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--readperf", required=True)
    ap.add_argument("--golden", required=True)
    a = ap.parse_args()
    readperf = os.path.abspath(a.readperf)
    golden = os.path.abspath(a.golden)
    common.restore_capture_times(golden)
    failures = []
    work = tempfile.mkdtemp(prefix="readperf-archive-")

    def fail(label, text):
        failures.append(label)
        print("FAIL %s: %s" % (label, text))

    try:
        empty = os.path.join(work, "empty")
        os.makedirs(empty)
        for case in CASES:
            case_dir = os.path.join(golden, case)
            archive = os.path.join(work, case + ".tar.zst")
            rc, _, err = common.run(readperf, case_dir, [
                "--buildid-dir", os.path.join(golden, "buildid"), "archive", "-o", archive])
            if rc != 0 or not os.path.exists(archive):
                fail(case + "/archive", "rc=%d %s" % (rc, err.decode(errors="replace")))
                continue
            print("%s: %s" % (case, err.decode(errors="replace").strip().splitlines()[-1]))
            kinds = [k for k in common.COMMANDS if common.expected(golden, case, k) is not None]
            for i, kind in enumerate(kinds):
                cmd = common.COMMANDS[kind]
                # The option's three places, in turn.
                args = [["--buildid-dir", empty, "--symbols", archive] + cmd,
                        ["--buildid-dir", empty] + cmd + ["--symbols", archive],
                        ["--buildid-dir", empty, cmd[0], "--symbols=" + archive] + cmd[1:]][i % 3]
                rc, got, err = common.run(readperf, case_dir, args)
                want = common.expected(golden, case, kind)
                if rc != 0 or got != want:
                    fail("%s/%s" % (case, kind), "rc=%d\n%s\n    stderr: %s" % (
                        rc, common.diff_head(want, got), err.decode(errors="replace")[-300:]))
                else:
                    print("PASS %s/%s (%s)" % (case, kind, " ".join(args[:4])))

            # The archive is a build-id cache once extracted, perf's layout.
            if shutil.which("tar") and shutil.which("zstd"):
                listing = subprocess.run(["tar", "--zstd", "-tf", archive], capture_output=True)
                names = listing.stdout.decode().split()
                if listing.returncode != 0:
                    fail(case + "/tar", listing.stderr.decode())
                    continue
                if case == "spin-fp":
                    # A static binary, the vdso and the kernel: no libc, libm or ld.so.
                    if any("libc.so" in n or "ld-linux" in n for n in names) or \
                            not any(n.startswith("tmp/gold/spin/") for n in names):
                        fail(case + "/members", " ".join(names))
                    else:
                        print("PASS %s/members: %s" % (case, " ".join(sorted(names))))
                extracted = os.path.join(work, case + "-extracted")
                os.makedirs(extracted)
                subprocess.run(["tar", "--zstd", "-xf", archive, "-C", extracted], check=True)
                kind = kinds[0]
                rc, got, _ = common.run(readperf, case_dir,
                                        ["--buildid-dir", extracted] + common.COMMANDS[kind])
                if got != common.expected(golden, case, kind):
                    fail(case + "/extracted", common.diff_head(common.expected(golden, case, kind), got))
                else:
                    print("PASS %s/%s with the archive extracted as --buildid-dir" % (case, kind))

        # The line for samples in binaries found nowhere: the same counts from script and from
        # report (whose repeat cache resolves a sample once), none once the archive has them.
        case_dir = os.path.join(golden, "spin-fp")
        line = (b"readperf: 280 of 280 samples (100.00%) fell in 2 binaries whose symbols were "
                b"not found: /tmp/gold/spin (build-id 30f110c4ba7a42424ce5a830f159053c61f21cf7, "
                b"279 samples), [kernel.kallsyms] (build-id "
                b"4a5a9b0affb66c437abcd455d2738af879985fa9, 1 sample)\n")
        # An empty kallsyms: one that cannot be read is refused, as by perf ("Invalid file").
        no_kallsyms = os.path.join(work, "empty-kallsyms")
        open(no_kallsyms, "w").close()
        for cmd in (["script"], ["report", "--stdio"], ["export", "--format", "collapsed"]):
            # An empty --symfs too: the recording's own path (/tmp/gold/spin) may exist here.
            nowhere = ["--buildid-dir", empty] + cmd + ["--symfs", empty, "--kallsyms", no_kallsyms]
            _, _, err = common.run(readperf, case_dir, nowhere)
            _, _, err2 = common.run(readperf, case_dir,
                                    ["--symbols", os.path.join(work, "spin-fp.tar.zst"),
                                     "--buildid-dir", empty] + cmd)
            if not err.endswith(line) or b"were not found" in err2:
                fail("summary line " + cmd[0], "%s / %s" % (err.decode(errors="replace"),
                                                            err2.decode(errors="replace")))
            else:
                print("PASS summary line (%s): %s" % (cmd[0], line.decode().strip()))
        # Standard error not a terminal and no READPERF_SYMBOL_NOTES: perf's stderr, no line.
        quiet_env = {k: v for k, v in os.environ.items()
                     if k not in ("READPERF_SYMBOL_NOTES", "DEBUGINFOD_URLS", "READPERF_SYMBOLS")}
        p = subprocess.run([readperf] + nowhere + ["-i", "perf.data"], cwd=case_dir, env=quiet_env,
                           stdin=subprocess.DEVNULL, capture_output=True, timeout=120)
        if b"were not found" in p.stderr:
            fail("summary line off a terminal", p.stderr.decode(errors="replace"))
        else:
            print("PASS no summary line off a terminal")

        # Damaged and foreign archives: a warning, the addresses unresolved, no crash.
        case_dir = os.path.join(golden, "spin-fp")
        base = ["--buildid-dir", empty, "script"]
        _, unresolved, _ = common.run(readperf, case_dir, base)
        good = open(os.path.join(work, "spin-fp.tar.zst"), "rb").read()
        bad = {
            "cut.tar.zst": good[:len(good) // 3],
            "flipped.tar.zst": good[:len(good) // 2] + bytes([good[len(good) // 2] ^ 0xff]) +
            good[len(good) // 2 + 1:],
            "text.tar.zst": b"not an archive\n" * 10,
            "empty.tar": b"",
        }
        for name, data in bad.items():
            path = os.path.join(work, name)
            with open(path, "wb") as f:
                f.write(data)
            rc, got, err = common.run(readperf, case_dir, base + ["--symbols", path])
            # A cut or flipped archive may still hold some members whole: those resolve.
            if rc != 0 or b"Sanitizer" in err or (name in ("text.tar.zst", "empty.tar") and
                                                  (got != unresolved or b"warning" not in err)):
                fail("bad archive " + name, "rc=%d stderr: %s" % (rc, err.decode(errors="replace")))
            else:
                print("PASS bad archive %s: %s" % (
                    name, (err.decode(errors="replace").strip().splitlines() or [""])[0]))
        rc, _, err = common.run(readperf, case_dir, base + ["--symbols", os.path.join(work, "no.tar.zst")])
        if rc != 0 or b"no.tar.zst" not in err:
            fail("missing archive", err.decode(errors="replace"))
        else:
            print("PASS missing archive: " + err.decode(errors="replace").strip().splitlines()[0])
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("archive: %d failed" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
