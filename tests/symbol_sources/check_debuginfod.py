#!/usr/bin/python3
"""readperf against a real debuginfod server (issue #20).

Starts Debian's `debuginfod -F DIR -p PORT` on loopback, serving the ELF files of the golden
build-id cache, and checks that with a build-id cache holding no binaries (only the kernels'
kallsyms, which debuginfod does not serve) and an empty debuginfod client cache, readperf's
reports equal perf's goldens; with --symfs of an empty folder every binary must come from the
server. Then the bad cases: a server that refuses, one that never answers, one that serves the
wrong file: each gives the unresolved addresses, a warning, and ends in bounded time. The server
is always stopped.

    check_debuginfod.py --readperf build/readperf --golden tests/golden

Exits 0 when every check passes, 1 otherwise, 77 (skip) when debuginfod is not installed
(scripts/setup.sh installs it).
"""
import argparse
import http.server
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402

CASES = ["spin-fp", "dwarf-cxx", "default", "threads-dir", "tracepoint"]
# Cases whose binaries are all in the golden cache: with an empty --symfs, every one of them
# comes from the server.
HERMETIC = ["spin-fp", "dwarf-cxx"]
SPIN_ID = "30f110c4ba7a42424ce5a830f159053c61f21cf7"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Debuginfod:
    """debuginfod -F DIR on a free loopback port, stopped by stop() whatever happens."""

    def __init__(self, files, work):
        self.proc = None
        for _ in range(3):
            self.port = free_port()
            log = open(os.path.join(work, "debuginfod.log"), "wb")
            self.proc = subprocess.Popen(
                ["debuginfod", "-F", files, "-p", str(self.port), "-d",
                 os.path.join(work, "debuginfod.sqlite"), "-t", "0", "-g", "0", "-c", "1"],
                stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
            if self.wait_ready():
                return
            self.stop()
        raise RuntimeError("debuginfod did not start; see " + os.path.join(work, "debuginfod.log"))

    def url(self):
        return "http://127.0.0.1:%d" % self.port

    def wait_ready(self, seconds=90):
        # Ready once the scan has indexed the files: the spin binary is served.
        deadline = time.time() + seconds
        while time.time() < deadline:
            if self.proc.poll() is not None:
                return False
            try:
                with urllib.request.urlopen(self.url() + "/buildid/%s/executable" % SPIN_ID,
                                            timeout=5) as r:
                    if r.status == 200:
                        return True
            except Exception:
                pass
            time.sleep(0.5)
        return False

    def stop(self):
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()


class SilentServer:
    """Accepts connections and never answers: a server that hangs."""

    def __init__(self):
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(64)
        self.port = self.sock.getsockname()[1]
        self.held = []
        self.thread = threading.Thread(target=self.serve, daemon=True)
        self.thread.start()

    def serve(self):
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.held.append(conn)

    def stop(self):
        self.sock.close()
        for c in self.held:
            c.close()


class WrongFileServer:
    """Answers every build-id with the same ELF file, whose build-id is another."""

    def __init__(self, elf_path):
        body = open(elf_path, "rb").read()

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                self.send_response(200)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def stop(self):
        self.httpd.shutdown()
        self.httpd.server_close()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--readperf", required=True)
    ap.add_argument("--golden", required=True)
    a = ap.parse_args()
    if not shutil.which("debuginfod"):
        print("SKIP: debuginfod is not installed (scripts/setup.sh installs it)")
        return 77
    readperf = os.path.abspath(a.readperf)
    golden = os.path.abspath(a.golden)
    common.restore_capture_times(golden)
    failures = []
    work = tempfile.mkdtemp(prefix="readperf-debuginfod-")
    server = None
    try:
        files = os.path.join(work, "files")
        n = common.copy_elf_files(os.path.join(golden, "buildid"), files)
        print("serving %d ELF files" % n)
        # A build-id cache with no binaries: the kernels' kallsyms only.
        cache = os.path.join(work, "buildid")
        shutil.copytree(os.path.join(golden, "buildid", "[kernel.kallsyms]"),
                        os.path.join(cache, "[kernel.kallsyms]"))
        empty = os.path.join(work, "empty")
        os.makedirs(empty)
        server = Debuginfod(files, work)

        def check(label, case, kind, args, env):
            want = common.expected(golden, case, kind)
            rc, got, err = common.run(readperf, os.path.join(golden, case), args, env)
            if rc != 0 or got != want:
                failures.append(label)
                print("FAIL %s rc=%d\n%s\n    stderr: %s" % (
                    label, rc, common.diff_head(want, got), err.decode(errors="replace")[-400:]))
            else:
                print("PASS " + label)
            return err

        # 1. Reports equal perf's with the binaries and debug files from the server.
        client_cache = os.path.join(work, "client-cache")
        env = {"DEBUGINFOD_URLS": server.url(), "DEBUGINFOD_CACHE_PATH": client_cache}
        for case in CASES:
            for kind, cmd in common.COMMANDS.items():
                if common.expected(golden, case, kind) is None:
                    continue
                check("%s/%s" % (case, kind), case, kind, ["--buildid-dir", cache] + cmd, env)
        fetched = sorted(os.listdir(client_cache)) if os.path.isdir(client_cache) else []
        if SPIN_ID not in fetched:
            failures.append("fetched")
            print("FAIL the client cache has no %s: %s" % (SPIN_ID, fetched))

        # 2. Nothing of this machine: an empty --symfs, the kernel from --kallsyms, a fresh
        # client cache; --debuginfod given on the command line, after the command.
        for case in HERMETIC:
            kallsyms = common.kernel_kallsyms(golden, os.path.join(golden, case))
            for kind, cmd in common.COMMANDS.items():
                if common.expected(golden, case, kind) is None:
                    continue
                args = ["--buildid-dir", empty] + cmd + ["--symfs", empty]
                if kallsyms:
                    args += ["--kallsyms", kallsyms]
                args += ["--debuginfod", server.url()]
                check("%s/%s --symfs" % (case, kind), case, kind, args,
                      {"DEBUGINFOD_CACHE_PATH": os.path.join(work, "client-cache-2")})

        # 3. Bad servers: what readperf prints without any, a warning, a bounded time.
        case_dir = os.path.join(golden, "spin-fp")
        base = ["--buildid-dir", empty, "script", "--symfs", empty]
        rc, unresolved, _ = common.run(readperf, case_dir, base)
        refused = free_port()  # nothing listens there
        silent = SilentServer()
        wrong = WrongFileServer(os.path.join(files, sorted(os.listdir(files))[0]))
        try:
            for label, url, extra, limit in [
                    ("refused", "http://127.0.0.1:%d" % refused, {}, 30),
                    ("silent", "http://127.0.0.1:%d" % silent.port, {"DEBUGINFOD_TIMEOUT": "2"}, 60),
                    ("wrong build-id", "http://127.0.0.1:%d" % wrong.port, {}, 30)]:
                env = {"DEBUGINFOD_URLS": url,
                       "DEBUGINFOD_CACHE_PATH": os.path.join(work, "cache-" + label.replace(" ", "-"))}
                env.update(extra)
                start = time.time()
                try:
                    rc, got, err = common.run(readperf, case_dir, base, env, timeout=limit + 60)
                except subprocess.TimeoutExpired:
                    failures.append(label)
                    print("FAIL %s: still running after %d s" % (label, limit + 60))
                    continue
                took = time.time() - start
                warned = b"warning: debuginfod" in err and b"symbols were not found" in err
                if rc != 0 or got != unresolved or took > limit or not warned:
                    failures.append(label)
                    print("FAIL %s: rc=%d, %.1f s, same as without symbols: %s, stderr: %s" % (
                        label, rc, took, got == unresolved, err.decode(errors="replace")[-300:]))
                else:
                    print("PASS %s server: unresolved, %.1f s, stderr: %s" % (
                        label, took, err.decode(errors="replace").strip().splitlines()[0]))
        finally:
            silent.stop()
            wrong.stop()
    finally:
        if server:
            server.stop()
        shutil.rmtree(work, ignore_errors=True)
    print("debuginfod: %d failed" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
