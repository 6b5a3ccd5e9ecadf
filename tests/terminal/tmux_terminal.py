"""A real terminal for the tests: a private tmux server (its own socket, killed at the end),
one window of a fixed size, a command typed into it, and the screen read back."""

import os
import shlex
import subprocess
import tempfile
import time


class Terminal:
    def __init__(self, width=100, height=30):
        self.tmp = tempfile.TemporaryDirectory(prefix="readperf-tmux-")
        self.socket = os.path.join(self.tmp.name, "tmux.sock")
        self.width, self.height = width, height
        self.session = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        subprocess.run(["tmux", "-S", self.socket, "kill-server"], capture_output=True)
        self.tmp.cleanup()

    def _tmux(self, *args):
        return subprocess.run(["tmux", "-S", self.socket, *args], check=True,
                              capture_output=True, text=True).stdout

    def run(self, command, env=None, cwd=None, log=None):
        """Starts `command` (a shell command line) in a new window of the terminal's size; the
        window stays open after it ends, with `DONE <status>` printed on its last line. With
        `log`, every byte written to the terminal from the command's start on is copied to that
        file (tmux pipe-pane), whatever the screen shows at the end."""
        # The new window's session starts before the old one ends: a server left without
        # sessions exits, and a new-session racing that exit fails.
        old = self.session
        self.runs = getattr(self, "runs", 0) + 1
        name = f"t{self.runs}"
        go = os.path.join(self.tmp.name, "go")
        if os.path.exists(go):
            os.unlink(go)
        script = os.path.join(self.tmp.name, "cmd.sh")
        with open(script, "w") as f:
            f.write("#!/bin/sh\n")
            # A clean environment: what the test gives and what a terminal has.
            f.write("unset PAGER READPERF_PAGER LESS DEBUGINFOD_URLS READPERF_SYMBOLS\n")
            f.write("export TERM=screen\n")
            for k, v in (env or {}).items():
                f.write(f"export {k}={shlex.quote(v)}\n")
            if cwd:
                f.write(f"cd {shlex.quote(cwd)}\n")
            if log:  # wait until the pane is logged
                f.write(f"while [ ! -e {shlex.quote(go)} ]; do sleep 0.05; done\n")
            f.write(f"{command}\n")
            f.write('echo "DONE $?"\n')
            f.write("exec sleep 600\n")
        os.chmod(script, 0o755)
        self._tmux("new-session", "-d", "-s", name, "-x", str(self.width), "-y",
                   str(self.height), script)
        self.session = name
        if old is not None:
            self._tmux("kill-session", "-t", old)
        if log:
            self._tmux("pipe-pane", "-t", name, "-o", f"cat >> {shlex.quote(log)}")
            open(go, "w").close()

    def screen(self):
        """The visible screen, one string per line (rows a long line wrapped onto joined)."""
        return self._tmux("capture-pane", "-p", "-J", "-t", self.session).rstrip("\n").split("\n")

    def keys(self, *keys):
        self._tmux("send-keys", "-t", self.session, *keys)

    def wait_for(self, predicate, timeout=60):
        """Polls the screen until predicate(rows) holds; returns the rows, or raises."""
        deadline = time.monotonic() + timeout
        rows = self.screen()
        while not predicate(rows):
            if time.monotonic() > deadline:
                raise TimeoutError("screen never matched:\n" + "\n".join(rows))
            time.sleep(0.1)
            rows = self.screen()
        return rows


def done_status(rows):
    """The exit status the window's DONE line shows, or None while the command runs."""
    for row in rows:
        if row.startswith("DONE "):
            return int(row.split()[1])
    return None
