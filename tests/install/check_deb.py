#!/usr/bin/env python3
"""`cpack -G DEB` (issue #15): the package's control fields (`dpkg-deb -I`), a Depends line
naming the Debian package of every library the binary links (dpkg-shlibdeps), its files
(`dpkg-deb -c`: the program, the man pages, the completion under /usr), and the program taken
out of it (`dpkg-deb -x`, never installed here) running.

usage: check_deb.py --build DIR --commands "report script ..."
"""

import argparse
import glob
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from checks import Checks  # noqa: E402


def run(*cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--commands", required=True)
    args = ap.parse_args()
    check = Checks("deb")
    build = os.path.abspath(args.build)

    with tempfile.TemporaryDirectory(prefix="readperf-deb-") as tmp:
        r = run("cpack", "-G", "DEB", "-B", tmp, "--config",
                os.path.join(build, "CPackConfig.cmake"), cwd=build)
        debs = glob.glob(os.path.join(tmp, "readperf_*.deb"))
        check("cpack -G DEB writes readperf_*.deb", r.returncode == 0 and len(debs) == 1,
              r.stdout + r.stderr)
        if not debs:
            return 1
        deb = debs[0]
        print(os.path.basename(deb))

        info = run("dpkg-deb", "-I", deb).stdout
        fields = dict(re.findall(r"^ ([A-Za-z-]+): (.*)$", info, re.M))
        check("Package: readperf", fields.get("Package") == "readperf", info)
        check("Version: the project's", re.fullmatch(r"\d+\.\d+\.\d+(-\S+)?",
                                                     fields.get("Version", "")), info)
        check("Architecture: this machine's",
              fields.get("Architecture") == run("dpkg", "--print-architecture").stdout.strip(),
              info)
        check("a Description", fields.get("Description", "").strip() != "", info)
        depends = fields.get("Depends", "")
        dep_names = {d.strip().split()[0] for d in depends.split(",") if d.strip()}

        contents = run("dpkg-deb", "-c", deb).stdout
        files = {line.split()[-1] for line in contents.splitlines() if line.strip()}
        expected = ["./usr/bin/readperf", "./usr/share/man/man1/readperf.1",
                    "./usr/share/bash-completion/completions/readperf"]
        expected += [f"./usr/share/man/man1/readperf-{c}.1" for c in args.commands.split()]
        missing = [f for f in expected if f not in files]
        check(f"dpkg-deb -c: the program, {len(expected) - 2} man pages, the completion",
              not missing, f"missing {missing} in:\n{contents}")
        check("nothing outside /usr", all(f.startswith("./usr/") or f == "./" for f in files),
              contents)

        x = os.path.join(tmp, "x")
        run("dpkg-deb", "-x", deb, x)
        readperf = os.path.join(x, "usr", "bin", "readperf")
        v = run(readperf, "--version")
        check("the packaged readperf runs: --version", v.returncode == 0 and
              v.stdout.startswith("readperf version "), v.stdout + v.stderr)

        # dpkg-shlibdeps: every shared library the binary needs comes from a package in Depends.
        needed = re.findall(r"\(NEEDED\)\s+Shared library: \[(.+?)\]",
                            run("readelf", "-d", readperf).stdout)
        check("the binary needs shared libraries", len(needed) > 3, needed)
        ldd = run("ldd", readperf).stdout
        for soname in needed:
            # The dynamic loader (needed by position-independent code's __tls_get_addr) is
            # listed by its path alone: "/lib64/ld-linux-x86-64.so.2 (0x...)".
            m = (re.search(rf"^\s*{re.escape(soname)} => (\S+)", ldd, re.M) or
                 re.search(rf"^\s*(/\S*/{re.escape(soname)}) \(", ldd, re.M))
            if not m:
                check(f"{soname} found by ldd", False, ldd)
                continue
            owner = run("dpkg", "-S", os.path.realpath(m.group(1))).stdout
            if not owner:  # /lib -> /usr/lib (merged /usr): dpkg knows one of the two paths
                owner = run("dpkg", "-S", m.group(1)).stdout
            pkg = owner.split(":")[0].strip()
            check(f"Depends names {pkg} ({soname})", pkg in dep_names, depends)

    return check.status()


if __name__ == "__main__":
    sys.exit(main())
