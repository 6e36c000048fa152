"""What a person or a shared script typed reaches a terminal with its hidden characters escaped in
the shell's notes and echoes, as a server's text does: `\\o FILE`'s note, `N rows written to FILE`,
a statement `--echo` prints. A script from elsewhere ("run their.snm") whose file names hold
`ESC ] 0 ;` retitled the window, and U+202E reordered the note's line; `--echo` printed the
statement's bytes raw. Tabs and line ends stay as they are (a tab writes nothing over a line).
Into a pipe or `\\o`'s file an echoed statement is written as it is.
"""
import os
import pty
import select
import subprocess
import time

from conftest import SNM
from test_hostile_server import HostileServer, json_answer
from test_security_output import at_terminal

HIDDEN = "\x1b]0;owned\x07\u202e"
SHOWN = b"\\u{1B}]0;owned\\u{7}\\u{202E}"
RAW = [b"\x1b]0;", b"\x07", "\u202e".encode()]


def rows_server():
    return HostileServer(lambda head: json_answer(b'[{"id":1}]'))


def at_prompt(args, env, typed, until, timeout=60):
    """Runs snm at a pty, types `typed` at its prompt, reads until `until` (bytes) has been shown
    and the prompt is back, then ends it with Ctrl-D; returns everything shown."""
    pid, fd = pty.fork()
    if pid == 0:
        os.execve(SNM, [SNM, *args], {**os.environ, "TERM": "xterm", "PAGER": "cat",
                                      "NO_COLOR": "1", "COLUMNS": "200", **env})
    shown = b""
    deadline = time.monotonic() + timeout

    def read_until(predicate):
        nonlocal shown
        while not predicate(shown) and time.monotonic() < deadline:
            if select.select([fd], [], [], 1)[0]:
                try:
                    shown += os.read(fd, 65536)
                except OSError:
                    return

    try:
        read_until(lambda s: s.rstrip().endswith(b">"))
        os.write(fd, typed.encode() + b"\r")
        read_until(lambda s: until in s and s.rstrip().endswith(b">"))
        os.write(fd, b"\x04")
        read_until(lambda s: False if os.waitpid(pid, os.WNOHANG)[0] == 0 else True)
    finally:
        os.close(fd)
        try:
            os.waitpid(pid, 0)
        except ChildProcessError:
            pass
    return shown


def assert_nothing_raw(shown):
    for sequence in RAW:
        assert sequence not in shown, (sequence, shown[-2000:])


def test_notes_quoting_a_shared_scripts_file_names_are_escaped_at_the_prompt(home, tmp_path):
    results = tmp_path / f"r{HIDDEN}.txt"
    rows = tmp_path / f"d{HIDDEN}.csv"
    script = tmp_path / "their.snm"
    script.write_text(f"\\o '{results}'\n\\o\nfrom dogs select * > '{rows}'\n")
    server = rows_server()
    try:
        shown = at_prompt(["--url", server.url, "--key", "k"], home, f"run {script}",
                          until=b"written to")
    finally:
        server.stop()
    assert rows.exists() and results.exists()
    assert_nothing_raw(shown)
    folder = str(tmp_path).encode()
    assert b"results go to " + folder + b"/r" + SHOWN + b".txt" in shown, shown
    assert b"were going to " + folder + b"/r" + SHOWN + b".txt" in shown, shown
    assert b"1 row written to " + folder + b"/d" + SHOWN + b".csv" in shown, shown


def test_an_echoed_statement_is_escaped_at_a_terminal_and_kept_to_a_pipe(home, tmp_path):
    script = tmp_path / "their.snm"
    statement = f"echo\t'x{HIDDEN}y'"
    script.write_text(statement + "\n")
    shown, code = at_terminal(["--url", "http://127.0.0.1:9", "--key", "k", "--echo", str(script)],
                              home)
    assert code == 0, shown
    assert_nothing_raw(shown)
    # The statement as typed, its tab a tab (the pty writes LF as CRLF); then echo's own line.
    assert b"echo\t'x" + SHOWN + b"y'\r\n" in shown, shown
    assert shown.count(SHOWN) == 2, shown
    piped = subprocess.run([SNM, "--url", "http://127.0.0.1:9", "--key", "k", "--echo",
                            str(script)], capture_output=True, env={**os.environ, **home},
                           timeout=60)
    assert piped.returncode == 0, piped.stderr
    assert piped.stdout == (statement + "\n" + f"x{HIDDEN}y\n").encode(), piped.stdout
