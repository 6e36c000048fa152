"""Signals at the interactive prompt, in a real pseudo-terminal (pexpect), under a parent `sh -c`.

A shell without job control (`sh -c 'snm'`, a CI runner) keeps snm in its own process group, so a
signal snm passes on to its group reaches the parent too. snm must only end itself (SIGTERM: exit
143) or ignore the signal (SIGINT from elsewhere at the prompt), and leave the terminal as it was.
"""
import os
import pathlib
import shlex
import signal
import time

import pexpect
import pytest

from conftest import SNM

# The parent: remembers the terminal's settings, runs snm, then says whether it survived and how.
PARENT = ('before=$(stty -g); {snm}; code=$?; after=$(stty -g); '
          'if [ "$before" = "$after" ]; then echo "terminal as before"; '
          'else echo "terminal changed"; fi; '
          'echo "parent survived, snm exited $code"')


@pytest.fixture
def parent(project, tmp_path):
    """`sh -c` running snm at a pty, as a shell without job control does."""
    env = dict(os.environ, TERM="xterm", SUPABASE_URL=project.url,
               SUPABASE_ANON_KEY=project.anon_key, XDG_STATE_HOME=str(tmp_path / "state"),
               XDG_CACHE_HOME=str(tmp_path / "cache"), XDG_CONFIG_HOME=str(tmp_path / "config"),
               PAGER="cat", NO_COLOR="1")
    child = pexpect.spawn("/bin/sh", ["-c", PARENT.format(snm=shlex.quote(SNM))], env=env,
                          encoding="utf-8", timeout=30, dimensions=(24, 120))
    yield child
    child.close(force=True)


def snm_pid(parent_pid):
    """The pid of snm, the parent shell's child."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        children = pathlib.Path(f"/proc/{parent_pid}/task/{parent_pid}/children").read_text().split()
        for pid in children:
            if pathlib.Path(f"/proc/{pid}/exe").resolve() == pathlib.Path(SNM).resolve():
                return int(pid)
        time.sleep(0.05)
    raise AssertionError("snm did not start under the parent shell")


def test_sigterm_at_the_prompt_ends_snm_alone_with_143(parent):
    parent.expect_exact("snm anon@local> ")
    pid = snm_pid(parent.pid)
    assert os.getpgid(pid) == os.getpgid(parent.pid)  # no job control: one process group
    parent.send("from user_info sel")  # a line half typed, the terminal in raw mode
    time.sleep(0.2)
    os.kill(pid, signal.SIGTERM)
    parent.expect_exact("terminal as before")
    parent.expect_exact("parent survived, snm exited 143")
    parent.expect(pexpect.EOF)
    parent.close()
    assert parent.exitstatus == 0 and parent.signalstatus is None


def test_sigint_from_elsewhere_at_the_prompt_is_ignored_and_reaches_no_one_else(parent):
    parent.expect_exact("snm anon@local> ")
    pid = snm_pid(parent.pid)
    os.kill(pid, signal.SIGINT)
    time.sleep(0.3)
    assert parent.isalive()
    parent.sendline("echo 'still here'")
    parent.expect_exact("still here")
    parent.sendline("exit")
    parent.expect_exact("terminal as before")
    parent.expect_exact("parent survived, snm exited 0")
    parent.expect(pexpect.EOF)


def test_sigterm_at_the_password_prompt_gives_the_echo_back(parent):
    parent.expect_exact("snm anon@local> ")
    pid = snm_pid(parent.pid)
    parent.sendline("login email 'nobody@example.com'")
    parent.expect_exact("password for nobody@example.com: ")
    time.sleep(0.2)
    os.kill(pid, signal.SIGTERM)
    parent.expect_exact("terminal as before")
    parent.expect_exact("parent survived, snm exited 143")
    parent.expect(pexpect.EOF)
