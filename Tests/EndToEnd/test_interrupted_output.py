"""Ctrl-C (SIGINT) or SIGTERM while snm prints a big answer to a reader that takes a few bytes a
second (a pipe, a terminal over a slow link) stops the output at once: what was printed stays,
the rest is not printed, and the run ends (130, 143) saying where it stopped. snm went on writing
the answer it had received until the reader had taken it all (its write waited on the reader:
half an hour for the 64 KiB the pipe or terminal would not take, then the rows up to the next
look at the signal); psql stops at once.

The answer comes from a loopback server (test_hostile_server's); the reader reads 8 bytes every
quarter of a second, so that a run that waits for it takes hours, and a stopped one ends in well
under the minute it is given.
"""
import fcntl
import os
import pathlib
import pty
import select
import signal
import struct
import subprocess
import termios
import threading
import time

import pytest

from conftest import SNM
from test_hostile_server import (HostileServer, json_answer, rows_body,
                                 wait_until_blocked_writing)

STATEMENT = "from big select *"


class SlowReader:
    """Reads `fd` 8 bytes every quarter of a second on a thread of its own, until `finish`,
    which then takes what is left at once (up to the end, or what is there now)."""

    def __init__(self, fd):
        self.fd = fd
        self.got = bytearray()
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self):
        while not self.stopping.wait(0.25):
            try:
                chunk = os.read(self.fd, 8)
            except OSError:  # a terminal whose other end has closed
                return
            if not chunk:
                return
            self.got += chunk

    def finish(self):
        self.stopping.set()
        self.thread.join()
        os.set_blocking(self.fd, False)
        while True:
            try:
                chunk = os.read(self.fd, 1 << 16)
            except (BlockingIOError, OSError):
                break
            if not chunk:
                break
            self.got += chunk
        return bytes(self.got)


def whole_answer(server, home, output_format):
    """What snm prints for the answer when nothing stops it."""
    whole = subprocess.run(
        [SNM, "--url", server.url, "--key", "k", "--format", output_format, "-c", STATEMENT],
        stdin=subprocess.DEVNULL, capture_output=True, env={**os.environ, **home}, timeout=60)
    assert whole.returncode == 0 and len(whole.stdout) > 1 << 18, whole.stderr
    return whole.stdout


def stopped_while_printing(server, home, output_format, sent, terminal=False):
    """Starts snm printing the answer to a slow reader (a pipe, or a terminal), sends `sent` once
    snm waits to write, and returns (exit code, what the reader got, standard error)."""
    if terminal:
        reading, writing = pty.openpty()
        fcntl.ioctl(writing, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 120, 0, 0))
    else:
        reading, writing = os.pipe()
    process = subprocess.Popen(
        [SNM, "--url", server.url, "--key", "k", "--format", output_format, "-c", STATEMENT],
        stdin=subprocess.DEVNULL, stdout=writing, stderr=subprocess.PIPE,
        env={**os.environ, **home})
    os.close(writing)
    got, stderr = signalled_while_writing(
        process, SlowReader(reading), reading, lambda: wait_until_blocked_writing(process.pid),
        sent, "snm still printed to the slow reader")
    return process.returncode, got, stderr


def signalled_while_writing(process, reader, reading, blocked, sent, stalled):
    """Sends `sent` to snm once `blocked()` returns (snm waits to write), gives it a minute to end
    (else fails: `stalled`, a minute after the signal) and returns (what `reader` got, standard
    error when piped); snm is killed if it is still there, and `reading` closed."""
    try:
        blocked()
        process.send_signal(sent)
        try:
            _, stderr = process.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            pytest.fail(f"{stalled} a minute after {sent.name} ({len(reader.got)} bytes taken)")
        return reader.finish(), (stderr or b"").decode()
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        reader.stopping.set()
        os.close(reading)


@pytest.mark.parametrize("output_format,sent,code,verb", [
    ("json", signal.SIGINT, 130, "interrupted"), ("ndjson", signal.SIGINT, 130, "interrupted"),
    ("csv", signal.SIGINT, 130, "interrupted"), ("table", signal.SIGINT, 130, "interrupted"),
    ("json", signal.SIGTERM, 143, "terminated"),
], ids=["json", "ndjson", "csv", "table", "json SIGTERM"])
def test_a_signal_stops_printing_to_a_slow_pipe_at_once(home, output_format, sent, code, verb):
    server = HostileServer(lambda head: json_answer(rows_body()))
    try:
        whole = whole_answer(server, home, output_format)
        exited, got, stderr = stopped_while_printing(server, home, output_format, sent)
        assert exited == code, (exited, stderr[-300:])
        assert stderr.endswith(f"snm: {verb} at -c:1:1: {STATEMENT}\n"), stderr[-300:]
        # What was printed stays, as it was; the rest is not printed.
        assert 0 < len(got) < len(whole) and whole.startswith(got), (len(got), len(whole))
    finally:
        server.stop()


def test_ctrl_c_stops_printing_to_a_slow_terminal_at_once(home):
    """At a terminal snm renders the answer whole, then writes it in one go: that write stops."""
    server = HostileServer(lambda head: json_answer(rows_body()))
    try:
        code, got, stderr = stopped_while_printing(server, home, "json", signal.SIGINT,
                                                   terminal=True)
        assert code == 130, (code, stderr[-300:])
        assert stderr.endswith(f"snm: interrupted at -c:1:1: {STATEMENT}\n"), stderr[-300:]
        assert got.startswith(b"["), got[:100]
    finally:
        server.stop()


def read_until(fd, wanted, reader_pace=True, timeout=60):
    """Reads `fd` (8 bytes every quarter of a second, when `reader_pace`) until `wanted` has
    come; what came. Fails after `timeout` seconds or when the other end closed first."""
    got = b""
    deadline = time.monotonic() + timeout
    while wanted not in got:
        assert time.monotonic() < deadline, f"{wanted!r} never came: {got[-300:]!r}"
        if reader_pace:
            time.sleep(0.25)
        ready, _, _ = select.select([fd], [], [], 0.25)
        if not ready:
            continue
        try:
            chunk = os.read(fd, 8 if reader_pace else 1 << 16)
        except OSError:
            chunk = b""
        assert chunk, f"snm closed the terminal before {wanted!r}: {got[-300:]!r}"
        got += chunk
    return got


class Ended(Exception):
    """snm ended (the exit code), when it should not have."""


def wait_until_done_writing(pid):
    """Until no thread of `pid`, which must not end meanwhile, waits in write(2) to the
    terminal, while nothing reads it."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        ended, status = os.waitpid(pid, os.WNOHANG)
        if ended:
            raise Ended(os.waitstatus_to_exitcode(status))
        calls = [pathlib.Path(f"/proc/{pid}/task/{tid}/syscall").read_text().split()
                 for tid in os.listdir(f"/proc/{pid}/task")]
        if not any(call[0] == "1" and int(call[1], 16) in (1, 2) for call in calls):
            return
        time.sleep(0.01)
    raise AssertionError("snm still writes to the terminal a minute after Ctrl-C")


def test_ctrl_c_while_rows_print_at_the_prompt_cancels_them_and_the_prompt_comes_back(home):
    """At the prompt, Ctrl-C while an answer prints to a slow terminal stops it and the prompt
    comes back, as Ctrl-C during the request does. It ended snm (exit 130: nothing watched for
    the signal once the answer had come), the session and its history with it."""
    server = HostileServer(lambda head: json_answer(rows_body()))
    env = {**os.environ, **home, "TERM": "xterm", "SNM_PAGER": "off"}
    pid, terminal = pty.fork()
    if pid == 0:
        os.execve(SNM, [SNM, "--url", server.url, "--key", "k", "--format", "json"], env)
    try:
        fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 120, 0, 0))
        read_until(terminal, b"snm anon@local> ", reader_pace=False)
        os.write(terminal, f"{STATEMENT}\r".encode())
        read_until(terminal, b'"id": 2')
        wait_until_blocked_writing(pid)
        os.write(terminal, b"\x03")
        # The terminal holds more than the reader takes in minutes: snm stops writing first.
        try:
            wait_until_done_writing(pid)
        except Ended as ended:
            pid = None
            pytest.fail(f"Ctrl-C ended snm (exit {ended}) instead of the statement")
        after = read_until(terminal, b"snm anon@local> ", reader_pace=False)
        assert b"snm: cancelled\r\n" in after, after
        os.write(terminal, b"echo 'still here'\r")
        read_until(terminal, b"still here\r\n", reader_pace=False)
        os.write(terminal, b"exit\r")
        _, status = os.waitpid(pid, 0)
        pid = None
        assert os.waitstatus_to_exitcode(status) == 0
    finally:
        if pid is not None:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        os.close(terminal)
        server.stop()


def fifo_reader(tmp_path):
    """A FIFO and a slow reader of it (opened first, so that snm's `\\o` opens it at once)."""
    fifo = tmp_path / "results.fifo"
    os.mkfifo(fifo)
    reading = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    os.set_blocking(reading, True)
    return fifo, reading, SlowReader(reading)


def wait_until_blocked_writing_to(pid, path):
    """Until a thread of `pid` waits in write(2) to the file at `path`."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        for tid in os.listdir(f"/proc/{pid}/task"):
            call = pathlib.Path(f"/proc/{pid}/task/{tid}/syscall").read_text().split()
            if call[0] != "1":
                continue
            try:
                if os.readlink(f"/proc/{pid}/fd/{int(call[1], 16)}") == str(path):
                    return
            except OSError:
                continue
        time.sleep(0.01)
    raise AssertionError(f"snm never waited to write to {path}")


def test_a_signal_stops_printing_to_a_slow_results_file_at_once(home, tmp_path):
    """`\\o` sends the rows to a FIFO whose reader takes 8 bytes a quarter second: SIGINT stopped
    standard output only, and snm went on writing to the FIFO until its reader had taken it all
    (hours). It stops at once: 130, saying where; the reader got a strict prefix of the rows."""
    server = HostileServer(lambda head: json_answer(rows_body()))
    whole = whole_answer(server, home, "json")
    fifo, reading, reader = fifo_reader(tmp_path)
    process = subprocess.Popen(
        [SNM, "--url", server.url, "--key", "k", "--format", "json", "-c",
         f"\\o '{fifo}'\n{STATEMENT}"],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        env={**os.environ, **home})
    try:
        got, stderr = signalled_while_writing(
            process, reader, reading, lambda: wait_until_blocked_writing_to(process.pid, fifo),
            signal.SIGINT, "snm still wrote to the slow FIFO")
        assert process.returncode == 130, (process.returncode, stderr[-300:])
        assert stderr.endswith(f"snm: interrupted at -c:2:1: {STATEMENT}\n"), stderr
        # What was written stays, as it was; the rest is not written.
        assert 0 < len(got) < len(whole) and whole.startswith(got), (len(got), len(whole))
    finally:
        server.stop()


def test_ctrl_c_while_rows_print_to_a_results_file_at_the_prompt_says_cancelled(home, tmp_path):
    """At the prompt with `\\o` to a FIFO whose reader is slow, Ctrl-C while the rows wait on it:
    the FIFO's write went on (only standard output was stopped) and nothing said the rows were
    cut. They stop at once, `cancelled` is said, and the prompt comes back."""
    server = HostileServer(lambda head: json_answer(rows_body()))
    whole = whole_answer(server, home, "json")
    fifo, reading, reader = fifo_reader(tmp_path)
    env = {**os.environ, **home, "TERM": "xterm", "SNM_PAGER": "off"}
    pid, terminal = pty.fork()
    if pid == 0:
        os.execve(SNM, [SNM, "--url", server.url, "--key", "k", "--format", "json"], env)
    try:
        fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 120, 0, 0))
        read_until(terminal, b"snm anon@local> ", reader_pace=False)
        os.write(terminal, f"\\o '{fifo}'\r".encode())
        read_until(terminal, b"snm anon@local> ", reader_pace=False)
        os.write(terminal, f"{STATEMENT}\r".encode())
        wait_until_blocked_writing_to(pid, fifo)
        os.write(terminal, b"\x03")
        after = read_until(terminal, b"snm anon@local> ", reader_pace=False)
        assert b"snm: cancelled\r\n" in after, after
        os.write(terminal, b"\\o\r")
        read_until(terminal, b"snm anon@local> ", reader_pace=False)
        os.write(terminal, b"echo 'still here'\r")
        read_until(terminal, b"still here\r\n", reader_pace=False)
        os.write(terminal, b"exit\r")
        _, status = os.waitpid(pid, 0)
        pid = None
        assert os.waitstatus_to_exitcode(status) == 0
        got = reader.finish()
        assert 0 < len(got) < len(whole) and whole.startswith(got), (len(got), len(whole))
    finally:
        if pid is not None:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        reader.stopping.set()
        os.close(reading)
        os.close(terminal)
        server.stop()


def test_a_signal_ends_snm_when_standard_error_is_the_same_stalled_pipe(home):
    """`2>&1` into a reader that takes 8 bytes a quarter second: SIGINT stopped the rows, then
    `snm: interrupted at ...` waited on the same full pipe, for as long as its reader took to
    make room (minutes: the signal had come, and snm did not end). It now goes out only if the
    pipe takes it at once, and is dropped here (the exit code says it): 130 at once."""
    server = HostileServer(lambda head: json_answer(rows_body()))
    whole = whole_answer(server, home, "json")
    reading, writing = os.pipe()
    process = subprocess.Popen(
        [SNM, "--url", server.url, "--key", "k", "--format", "json", "-c", STATEMENT],
        stdin=subprocess.DEVNULL, stdout=writing, stderr=writing, env={**os.environ, **home})
    os.close(writing)
    try:
        got, _ = signalled_while_writing(
            process, SlowReader(reading), reading, lambda: wait_until_blocked_writing(process.pid),
            signal.SIGINT, "snm had not ended (standard error a full pipe)")
        assert process.returncode == 130, process.returncode
        assert 0 < len(got) < len(whole) and whole.startswith(got), (len(got), len(whole))
    finally:
        server.stop()
