"""Drive a program in a bare pseudo-terminal and read its screen through a terminal model (pyte)
that keeps its rows as they were drawn when the window changes size, as xterm and the Linux console
do (tmux, VTE and most others wrap their lines again: tmux_shell.py drives one of those).

    with PtyScreen([SNM], env=env, columns=80) as term:
        term.wait_for(lambda t: t.prompt_rows())
        term.type("from user_info select name")
        term.resize(columns=20)          # TIOCSWINSZ: the kernel sends SIGWINCH to the foreground
        term.wait_for(lambda t: ...)

Every byte the program wrote is kept (`raw`), so a test can also ask how often something was drawn.
"""
import fcntl
import os
import pty
import select
import signal
import struct
import termios
import time

import pyte


class PtyScreen:
    def __init__(self, argv, env, rows=24, columns=80):
        self.screen = pyte.Screen(columns, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.raw = b""
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            try:
                os.execve(argv[0], argv, env)
            finally:
                os._exit(127)
        self._set_size(rows, columns)

    def _set_size(self, rows, columns):
        fcntl.ioctl(self.fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))

    def pump(self, wait=0.05):
        """Feeds what the program wrote so far (waiting up to `wait` for the first byte)."""
        while select.select([self.fd], [], [], wait)[0]:
            try:
                chunk = os.read(self.fd, 65536)
            except OSError:  # the program ended: the pty is gone
                return
            if not chunk:
                return
            self.raw += chunk
            self.stream.feed(chunk)
            wait = 0.05

    def wait_for(self, predicate, timeout=30.0):
        """Feeds output until predicate(self) is true; raises with the screen if it never is. A wait
        only ends early on success: how fast snm answers is the benchmarks' to measure."""
        deadline = time.monotonic() + max(timeout, 30.0)
        while time.monotonic() < deadline:
            self.pump()
            if predicate(self):
                return self
        raise AssertionError("timed out; screen:\n" + self.text() + f"\nraw tail: {self.raw[-600:]!r}")

    def settle(self, quiet=0.5):
        """Feeds output until the program has written nothing for `quiet` seconds."""
        last = len(self.raw)
        deadline = time.monotonic() + quiet
        while time.monotonic() < deadline:
            self.pump()
            if len(self.raw) != last:
                last = len(self.raw)
                deadline = time.monotonic() + quiet

    def type(self, text):
        os.write(self.fd, text.encode() if isinstance(text, str) else text)

    def resize(self, rows=None, columns=None):
        """Changes the window's size: the model first (rows kept as drawn, the cursor held inside
        the window as xterm holds it), then the pty's, which signals the foreground group."""
        self.pump()
        rows = rows or self.screen.lines
        columns = columns or self.screen.columns
        self.screen.resize(rows, columns)
        self.screen.cursor.x = min(self.screen.cursor.x, columns - 1)
        self._set_size(rows, columns)

    def lines(self):
        """The screen's rows, each as wide as the window."""
        return list(self.screen.display)

    def text(self):
        return "\n".join(line.rstrip() for line in self.lines()).rstrip("\n")

    @property
    def cursor(self):
        return self.screen.cursor.y, self.screen.cursor.x

    def close(self):
        # The program and everything in its session (a shell's jobs, stopped ones too).
        for entry in os.listdir("/proc"):
            if entry.isdigit() and int(entry) != self.pid:
                try:
                    if os.getsid(int(entry)) == self.pid:
                        os.kill(int(entry), signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass
        try:
            os.kill(self.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        try:
            os.waitpid(self.pid, 0)
        except ChildProcessError:
            pass
        os.close(self.fd)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
