"""What the symbol-source checks share: the golden cases and their expected outputs, running
readperf on them, and the kallsyms each case's kernel needs."""
import gzip
import os
import shutil
import subprocess

# The golden kinds these checks compare: the ones that print symbols (golden/run's table).
COMMANDS = {
    "script": ["script"],
    "report": ["report", "--stdio", "--no-children", "--sort", "comm,dso,sym"],
    "report-children": ["report", "--stdio"],
    "collapsed": ["export", "--format", "collapsed"],
    "srcline": ["report", "--stdio", "--sort", "srcline"],
}


def expected(golden, case, kind):
    """perf's output for the case and kind, or None when the case has none."""
    base = os.path.join(golden, case, "expected", kind + ".txt")
    if os.path.exists(base + ".gz"):
        with gzip.open(base + ".gz", "rb") as f:
            return f.read()
    if os.path.exists(base):
        with open(base, "rb") as f:
            return f.read()
    return None


def restore_capture_times(golden):
    """A checkout does not keep the recordings' modification times, which headers print."""
    script = os.path.join(golden, "..", "..", "scripts", "restore-capture-time")
    subprocess.run([script] + [os.path.join(golden, c) for c in sorted(os.listdir(golden))],
                   check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def run(readperf, case_dir, args, env=None, timeout=120):
    """readperf ARGS -i perf.data inside the case folder: (returncode, stdout, stderr)."""
    full_env = dict(os.environ)
    # Only the servers a check names: never the one a login shell may set.
    full_env.pop("DEBUGINFOD_URLS", None)
    full_env.pop("READPERF_SYMBOLS", None)
    # The missing-symbols line, which readperf prints on a terminal only.
    full_env["READPERF_SYMBOL_NOTES"] = "1"
    full_env.update(env or {})
    p = subprocess.run([readperf] + args + ["-i", "perf.data"], cwd=case_dir, env=full_env,
                       stdin=subprocess.DEVNULL, capture_output=True, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def kernel_kallsyms(golden, case_dir):
    """The golden cache's kallsyms for the case's kernel: the one whose build-id the recording
    names (found with `report --header-only -I`'s build-id list... read from the file)."""
    with open(os.path.join(case_dir, "perf.data"), "rb") as f:
        data = f.read()
    root = os.path.join(golden, "buildid", "[kernel.kallsyms]")
    for bid in sorted(os.listdir(root)):
        if bytes.fromhex(bid) in data:
            return os.path.join(root, bid, "kallsyms")
    return None


def diff_head(want, got, lines=8):
    import difflib
    d = difflib.unified_diff(want.decode(errors="replace").splitlines(),
                             got.decode(errors="replace").splitlines(), "perf", "readperf",
                             lineterm="")
    return "\n".join(list(d)[:lines + 3])


def copy_elf_files(src_root, dst):
    """Every ELF file under src_root (a build-id cache) copied flat into dst, named uniquely."""
    os.makedirs(dst, exist_ok=True)
    n = 0
    for dirpath, _, files in os.walk(src_root):
        for name in sorted(files):
            path = os.path.join(dirpath, name)
            if os.path.islink(path):
                continue
            with open(path, "rb") as f:
                if f.read(4) != b"\x7fELF":
                    continue
            n += 1
            shutil.copyfile(path, os.path.join(dst, "%03d-%s" % (n, name)))
    return n
