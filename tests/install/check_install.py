#!/usr/bin/env python3
"""`cmake --install` into a temporary DESTDIR (issue #15): readperf, readperf(1) and one man
page per command, the bash completion, the Python package (issue #17); every option each
command's --help lists is in its man page; the installed completion completes commands and
options.

usage: check_install.py --build DIR --commands "report script ..."
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from checks import Checks  # noqa: E402

PREFIX = "/usr/local"


def help_options(readperf, command):
    """The options `readperf COMMAND --help` lists: -x and --long-name words."""
    out = subprocess.run([readperf, *command, "--help"], capture_output=True, text=True)
    text = out.stdout + out.stderr
    opts = set()
    for line in text.splitlines():
        if not line.lstrip().startswith("-"):
            continue
        # "    -i, --input <str>   input file" (perf's layout) or CLI11's "  --buildid-dir TEXT"
        head = re.split(r"\s{2,}", line.strip())[0]
        for word in re.findall(r"(?<![\w-])(--?[A-Za-z0-9][\w-]*)", head):
            opts.add(word)
    return opts


def man_text(path):
    """A man page's text with roff's escapes for '-' and fonts taken out."""
    with open(path) as f:
        text = f.read()
    text = text.replace("\\-", "-").replace("\\(hy", "-")
    return re.sub(r"\\f[BIRP]|\\f\(..|\\&", "", text)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--commands", required=True)
    args = ap.parse_args()
    check = Checks("install")
    commands = args.commands.split()

    with tempfile.TemporaryDirectory(prefix="readperf-install-") as dest:
        env = dict(os.environ, DESTDIR=dest)
        r = subprocess.run(["cmake", "--install", args.build, "--prefix", PREFIX], env=env,
                           capture_output=True, text=True)
        check("cmake --install succeeds", r.returncode == 0, r.stdout + r.stderr)
        root = dest + PREFIX
        readperf = os.path.join(root, "bin", "readperf")
        check("bin/readperf installed and executable", os.access(readperf, os.X_OK))
        v = subprocess.run([readperf, "--version"], capture_output=True, text=True)
        check("installed readperf --version", v.returncode == 0 and
              v.stdout.startswith("readperf version "), v.stdout + v.stderr)

        pages = {"readperf": []}
        for c in commands:
            pages[f"readperf-{c}"] = {"stat": ["stat", "report"],
                                      "data": ["data", "convert"]}.get(c, [c])
        for page, command in pages.items():
            path = os.path.join(root, "share", "man", "man1", page + ".1")
            if not os.path.isfile(path):
                check(f"{page}(1) installed", False, path)
                continue
            text = man_text(path)
            check(f"{page}(1) installed, titled {page.upper()}",
                  re.search(rf'^\.TH "?{re.escape(page.upper())}"? "?1"? ', text, re.M) is not None,
                  text[:300])
            opts = help_options(readperf, command)
            missing = sorted(o for o in opts
                             if not re.search(rf"(?<![\w-]){re.escape(o)}(?![\w-])", text))
            check(f"{page}(1) has every option of `readperf {' '.join(command)} --help` "
                  f"({len(opts)})", len(opts) > 0 and not missing, f"missing: {missing}")
        # No page for a command that does not exist, and none missing: the pages are the
        # commands readperf --help lists.
        listed = subprocess.run([readperf, "--help"], capture_output=True, text=True).stdout
        sub_section = listed.split("Subcommands:")[-1]
        listed_cmds = set(re.findall(r"^\s{2}(\w+)\s", sub_section, re.M))
        check("a page for each command readperf --help lists",
              listed_cmds and listed_cmds == set(commands),
              f"--help: {sorted(listed_cmds)}, pages: {sorted(commands)}")

        completion = os.path.join(root, "share", "bash-completion", "completions", "readperf")
        check("bash completion installed", os.path.isfile(completion))

        def complete(*words):
            script = (f"source {completion}\nCOMP_WORDS=({readperf} {' '.join(words)})\n"
                      f"COMP_CWORD={len(words)}\n_readperf\nprintf '%s\\n' \"${{COMPREPLY[@]}}\"\n")
            r = subprocess.run(["bash", "--norc", "--noprofile", "-c", script],
                               capture_output=True, text=True)
            return r.stdout.split()

        got = complete("rep")
        check("completes `readperf rep` to report", got == ["report"], str(got))
        got = complete("report", "--no-ch")
        check("completes `readperf report --no-ch` to --no-children", got == ["--no-children"],
              str(got))
        got = complete("script", "--show-mm")
        check("completes `readperf script --show-mm`", got == ["--show-mmap-events"], str(got))
        got = complete("stat", "")
        check("completes `readperf stat` to report", got == ["report"], str(got))

        # The Python package (when the build made it): the modules, the extension, the type
        # stubs with PEP 561's marker, importable from where Debian's python3 looks.
        if os.path.isdir(os.path.join(args.build, "python", "readperf")):
            site = os.path.join(root, "lib", "python3", "dist-packages")
            pkg = os.path.join(site, "readperf")
            files = set(os.listdir(pkg)) if os.path.isdir(pkg) else set()
            want = {"__init__.py", "dask.py", "__init__.pyi", "dask.pyi", "py.typed"}
            check("the readperf package installed with its type stubs",
                  want <= files and any(f.startswith("_readperf") and f.endswith(".so")
                                        for f in files), str(sorted(files)))
            r = subprocess.run(["/usr/bin/python3", "-c",
                                "import readperf, readperf.dask; print(readperf.__file__)"],
                               env=dict(os.environ, PYTHONPATH=site), capture_output=True,
                               text=True)
            check("the installed package imports", r.returncode == 0 and
                  r.stdout.strip() == os.path.join(pkg, "__init__.py"), r.stdout + r.stderr)

    return check.status()


if __name__ == "__main__":
    sys.exit(main())
