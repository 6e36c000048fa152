"""Signals at the interactive prompt, in a real pseudo-terminal (pexpect), under a parent `sh -c`.

A shell without job control (`sh -c 'snm'`, a CI runner) keeps snm in its own process group, so a
signal snm passes on to its group reaches the parent too. snm must only end itself (SIGTERM: exit
143) or ignore the signal (SIGINT from elsewhere at the prompt), and leave the terminal as it was.
"""
import os
import pathlib
import pty
import re
import select
import shlex
import signal
import sys
import time

import pexpect
import pytest

from conftest import SNM
from test_shell_prompt import shell_env  # noqa: F401 (a fixture)
from tmux_shell import job_control_bash

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


def keys_at_the_password_prompt(parent, keys, said, instead):
    """Types `keys` at a login's password prompt in the shell, checks it says `said` (not
    `instead`) and goes on to its prompt, then exits it cleanly; the text after the exit."""
    parent.expect_exact("snm anon@local> ")
    parent.sendline("login email 'nobody@example.com'")
    parent.expect_exact("password for nobody@example.com: ")
    time.sleep(0.2)
    parent.send(keys)
    index = parent.expect_exact([said, instead])
    assert index == 0, parent.before
    parent.expect_exact("snm anon@local> ")
    parent.sendline("exit")
    parent.expect_exact("terminal as before")
    parent.expect_exact("parent survived, snm exited 0")
    parent.expect(pexpect.EOF)
    return parent.before


def test_ctrl_c_at_the_password_prompt_cancels_the_login(parent):
    """Ctrl-C at the password prompt says the statement was cancelled and the shell goes on;
    it said "login needs a password: type it at a terminal", at a terminal."""
    after = keys_at_the_password_prompt(parent, "hunter2\x03", "cancelled", "needs a password")
    assert "hunter2" not in after


def test_ctrl_d_at_an_empty_password_prompt_says_none_was_typed(parent):
    """Ctrl-D on an empty password prompt at a terminal: the login fails saying no password was
    typed, and the shell goes on; it said "type it at a terminal", at a terminal."""
    keys_at_the_password_prompt(parent, "\x04", "none was typed (Ctrl-D)", "type it at a terminal")


def test_ctrl_backslash_at_the_password_prompt_quits_and_keeps_nothing(parent, tmp_path):
    """Ctrl-\\ is the terminal's quit key (it ends snm by SIGQUIT during a request); at the
    password prompt it was read into the password. It quits there too: nothing sent or kept, the
    terminal as it was, the parent unharmed."""
    parent.expect_exact("snm anon@local> ")
    parent.sendline("login email 'alice@example.com'")
    parent.expect_exact("password for alice@example.com: ")
    time.sleep(0.2)
    parent.send("password123\x1c")
    index = parent.expect_exact(["terminal as before", "signed in", pexpect.TIMEOUT], timeout=10)
    assert index == 0, parent.before
    parent.expect_exact(f"parent survived, snm exited {128 + signal.SIGQUIT}")
    parent.expect(pexpect.EOF)
    state = tmp_path / "state"
    kept = [p.name for p in state.rglob("*") if p.is_file()] if state.exists() else []
    assert not [name for name in kept if "session" in name], kept


def test_ctrl_backslash_at_the_prompt_quits_as_psql_does(parent, tmp_path):
    """Ctrl-\\ at the prompt did nothing (libedit reads the key as a byte), while it quit snm
    during a request and at the password prompt; psql quits at its prompt (SIGQUIT). snm quits
    there too: exit 131, the line being typed not run, the terminal as it was, the parent
    unharmed, no core file."""
    parent.expect_exact("snm anon@local> ")
    parent.send("echo 'never ran'")
    time.sleep(0.2)
    parent.send("\x1c")
    index = parent.expect_exact(["terminal as before", "never ran\r\n", pexpect.TIMEOUT],
                                timeout=10)
    assert index == 0, parent.before
    parent.expect_exact(f"parent survived, snm exited {128 + signal.SIGQUIT}")
    parent.expect(pexpect.EOF)
    assert not list(pathlib.Path.cwd().glob("core*")), "a core file was left"


def test_ctrl_c_at_the_password_prompt_of_a_one_shot_login_exits_130(project, tmp_path):
    """`snm -c 'login ...'` at a terminal: Ctrl-C at its password prompt ends it with 130, as
    Ctrl-C during any statement does, and nothing is stored."""
    state = tmp_path / "state"
    env = dict(os.environ, TERM="xterm", SUPABASE_URL=project.url,
               SUPABASE_ANON_KEY=project.anon_key, XDG_STATE_HOME=str(state),
               XDG_CACHE_HOME=str(tmp_path / "cache"), XDG_CONFIG_HOME=str(tmp_path / "config"),
               PAGER="cat", NO_COLOR="1")
    child = pexpect.spawn(SNM, ["-c", "login email 'nobody@example.com'"], env=env,
                          encoding="utf-8", timeout=30, dimensions=(24, 120))
    child.expect_exact("password for nobody@example.com: ")
    time.sleep(0.2)
    child.send("\x03")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130, child.before
    assert "needs a password" not in child.before
    assert "interrupted" in child.before, child.before
    stored = [p for p in state.rglob("*") if p.is_file()] if state.exists() else []
    assert not [p for p in stored if "session" in p.name], stored


def test_keys_typed_as_soon_as_the_prompt_shows_are_not_lost(project, tmp_path):
    """The terminal is raw before the prompt is printed: a Ctrl-D sent the moment the prompt
    appears reaches the editor. libedit prints its prompt before leaving cooked mode; a Ctrl-D in
    that gap became a NUL the editor ignored, and snm sat at the prompt (one start in ten under
    load). A bare pty, not pexpect, so that the key follows the prompt without delay."""
    env = dict(os.environ, TERM="xterm", SUPABASE_URL=project.url,
               SUPABASE_ANON_KEY=project.anon_key, XDG_STATE_HOME=str(tmp_path / "state"),
               XDG_CACHE_HOME=str(tmp_path / "cache"), XDG_CONFIG_HOME=str(tmp_path / "config"),
               PAGER="cat", NO_COLOR="1")
    lost = 0
    for _ in range(40):
        pid, fd = pty.fork()
        if pid == 0:
            os.execve(SNM, [SNM], env)
        seen = b""
        try:
            while b"> " not in seen:
                ready, _, _ = select.select([fd], [], [], 10)
                assert ready, f"no prompt: {seen!r}"
                seen += os.read(fd, 4096)
            os.write(fd, b"\x04")
            deadline = time.monotonic() + 5
            while time.monotonic() < deadline and os.waitpid(pid, os.WNOHANG)[0] == 0:
                if select.select([fd], [], [], 0.05)[0]:
                    try:
                        os.read(fd, 4096)
                    except OSError:
                        pass
            else:
                if time.monotonic() >= deadline:
                    lost += 1
                    os.kill(pid, signal.SIGKILL)
                    os.waitpid(pid, 0)
        finally:
            os.close(fd)
    assert lost == 0, f"Ctrl-D at a fresh prompt was lost in {lost} of 40 starts"


# ---- Ctrl-Z at the prompt ------------------------------------------------------------------------
# libedit reads with the terminal's signal keys off, so the key reaches snm as a character; psql
# (readline) stops at it, and so must snm: the whole job, as the terminal itself would stop it.

@pytest.mark.parametrize("wrapped", [False, True], ids=["snm", "under sh -c"])
def test_ctrl_z_under_job_control_stops_the_job_and_fg_takes_the_line_up(shell_env, wrapped):
    command = shlex.quote(SNM)
    if wrapped:  # snm a child of a shell in the same job, as a wrapper script runs it
        command = "sh -c " + shlex.quote(f"{command}; echo wrapper went on")
    with job_control_bash({**shell_env, "PS1": "bash$ "}) as bash:
        bash.type(command)
        bash.press("Enter")
        bash.wait_for_prompt()
        bash.type("from dog_profile select name")  # half a statement, in libedit's buffer
        bash.press("C-z")
        stopped = bash.wait_for(lambda s: re.search(r"Stopped.*\n?bash\$ ?$", s), timeout=5)
        assert "^Z" in stopped
        before = bash.prompt_count()
        bash.type("fg")
        bash.press("Enter")
        # The prompt comes back with the half line in it, and the statement goes on from there.
        bash.wait_for(lambda s: bash.prompt_count(s) > before
                      and s.rstrip().endswith("from dog_profile select name"), timeout=5)
        bash.type(" order by id limit 1")
        bash.press("Enter")
        screen = bash.wait_for(lambda s: "(1 row)" in s, timeout=10)
        assert re.search(r"^ Bori\s*$", screen, re.M), screen
        # Once only: the line is drawn again after `fg`, not before the stop.
        assert screen.count("from dog_profile select name order by id limit 1") == 1, screen
        if wrapped:
            bash.type("\\q")
            bash.press("Enter")
            bash.wait_for(lambda s: "wrapper went on" in s, timeout=10)


def test_ctrl_z_without_job_control_stops_nothing_and_the_prompt_goes_on(parent):
    parent.expect_exact("snm anon@local> ")
    pid = snm_pid(parent.pid)
    parent.send("from dog_profile select name")
    parent.sendcontrol("z")
    parent.expect_exact("^Z")
    time.sleep(0.3)
    state = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    assert state != "T", "snm was stopped where no shell can continue it"
    parent.send(" order by id limit 1\r")
    parent.expect_exact("(1 row)")
    parent.expect_exact("snm anon@local> ")
    parent.sendline("\\q")
    parent.expect_exact("parent survived, snm exited 0")


# ---- snm in the background of a job-control shell -----------------------------------------------
# A read or a mode change of the terminal from the background stops a job (SIGTTIN, SIGTTOU); snm's
# threads block both, so the kernel lets it change the foreground shell's terminal instead. psql
# (readline) stops at its first change and prints its banner only; so must snm.

def job_pid(bash):
    """The pid of the job the interactive bash started last, its newest child (the pane's
    process is TmuxShell's wrapper `bash -c`, whose child is the interactive bash)."""
    def children(pid):
        return [int(c) for c in
                pathlib.Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    wrapper = int(bash._tmux("display-message", "-p", "-t", "0", "#{pane_pid}").strip())
    shells = children(wrapper)
    assert len(shells) == 1, f"the pane's wrapper has children {shells}"
    jobs = children(shells[0])
    assert jobs, "bash has no job running"
    return jobs[-1]


def wait_until_stopped(bash, pid):
    """Waits (a generous deadline) until `pid` is stopped by a signal; fails if it ended."""
    deadline = time.monotonic() + 30
    state = "?"
    while time.monotonic() < deadline:
        try:
            state = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except FileNotFoundError:
            raise AssertionError("snm ended instead of waiting stopped; screen:\n"
                                 + bash.screen()) from None
        if state == "T":
            return
        time.sleep(0.05)
    raise AssertionError(f"snm never stopped (state {state}); screen:\n" + bash.screen())


def test_snm_started_in_the_background_leaves_the_shell_s_line_as_it_was(shell_env):
    """`snm &`, then `fg` typed at bash's next prompt, showed `fg` twice: libedit set the terminal
    up as snm started (el_init: echo and line mode on) while bash's own editor was reading, so the
    terminal echoed the line and bash drew it again. snm waits stopped before it touches the
    terminal; `fg` shows once and brings the prompt."""
    with job_control_bash({**shell_env, "NO_COLOR": "1"}) as bash:
        bash.type(f"{SNM} &")
        bash.press("Enter")
        # Its banner, then stopped: nothing typed at bash's prompt meanwhile.
        bash.wait_for(lambda s: 'Type "help" for help' in s)
        wait_until_stopped(bash, job_pid(bash))
        bash.type("fg")
        bash.press("Enter")
        screen = bash.wait_for(lambda s: s.rstrip().endswith("snm anon@local>"))
        assert [line for line in screen.splitlines() if line.strip() == "fg"] == ["fg"], screen
        bash.type("echo 'in front'")
        bash.press("Enter")
        bash.wait_for(lambda s: "\nin front" in s)


def test_ctrl_z_then_bg_waits_stopped_until_fg_takes_the_line_up(shell_env):
    """Ctrl-Z, then `bg`: snm set the terminal raw from the background, drew its half line on
    bash's prompt, failed its read and ended as at Ctrl-D (`Done`). It stops again, as psql
    does, and `fg` takes the line up where it was."""
    with job_control_bash({**shell_env, "NO_COLOR": "1"}) as bash:
        bash.type(SNM)
        bash.press("Enter")
        bash.wait_for_prompt()
        pid = job_pid(bash)
        bash.type("from dog_profile select name")
        bash.press("C-z")
        bash.wait_for(lambda s: re.search(r"Stopped.*\n?bash\$ ?$", s))
        bash.type("bg")
        bash.press("Enter")
        bash.wait_for(lambda s: re.search(r"\nbash\$ bg\n.*&\nbash\$ ?$", s))
        wait_until_stopped(bash, pid)
        assert bash.screen().count("from dog_profile select name") == 1, bash.screen()
        bash.type("fg")
        bash.press("Enter")
        bash.wait_for(lambda s: s.rstrip().endswith("from dog_profile select name")
                      and s.count("from dog_profile select name") == 2)
        bash.type(" order by id limit 1")
        bash.press("Enter")
        screen = bash.wait_for(lambda s: "(1 row)" in s)
        assert re.search(r"^ Bori\s*$", screen, re.M), screen


# ---- the terminal taken from snm: no shell to give it back, or one that does ---------------------
# A read of the terminal from the background fails (EIO: snm's threads block SIGTTIN). Where no
# shell can bring snm to the front (its process group orphaned: no job control) that is said once,
# and snm ends with exit 2; where one can, snm waits stopped until it does, as a job reading from
# the background does, and takes its line up again.

# The terminal's session leader: starts snm through a middle process in a process group of its own
# and gives that group the terminal; at SIGUSR1 takes it back, at the next gives it again and
# continues the group (as `fg` does). How: "orphaned from the start" (the middle leaves before snm
# starts, the group never has the terminal), "orphaned at the prompt" (the middle leaves once snm
# has the terminal), "job" (the middle stays: a parent in the session, the group is a job).
LEADER = r'''
import os, signal, sys, time
snm, how = sys.argv[1], sys.argv[2]
signal.signal(signal.SIGTTOU, signal.SIG_IGN)
signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGUSR1})

def run_snm():
    pid = os.fork()
    if pid == 0:
        signal.signal(signal.SIGTTOU, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGUSR1})
        os.execv(snm, [snm])
    status = os.waitpid(pid, 0)[1]
    os.write(1, b"[snm exited %d]\r\n" % os.waitstatus_to_exitcode(status))

middle = os.fork()
if middle == 0:
    os.setpgid(0, 0)
    if how != "orphaned from the start":
        while os.tcgetpgrp(0) != os.getpgrp():
            time.sleep(0.01)
    if how == "job":
        run_snm()
    elif os.fork() == 0:
        while os.getppid() == middle:  # until the middle is gone: the group is orphaned
            time.sleep(0.01)
        run_snm()
    os._exit(0)
try:
    os.setpgid(middle, middle)
except OSError:
    pass  # it did so itself, and may have left
if how != "orphaned from the start":
    os.tcsetpgrp(0, middle)
    signal.sigwait({signal.SIGUSR1})
    os.tcsetpgrp(0, os.getpgrp())
    os.write(1, b"[terminal taken]\r\n")
    if how == "job":
        signal.sigwait({signal.SIGUSR1})
        os.tcsetpgrp(0, middle)
        os.killpg(middle, signal.SIGCONT)
time.sleep(600)
'''

NOT_READABLE = ("snm: cannot read standard input: snm is in the background of its terminal and no "
                "shell can bring it to the front (no job control); run snm in the foreground, or "
                "give it its statements with -c, a file or a pipe")


def session_members(sid):
    """The pids in session `sid`."""
    members = []
    for entry in pathlib.Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if os.getsid(int(entry.name)) == sid:
                    members.append(int(entry.name))
            except OSError:
                pass
    return members


def snm_in_session(sid):
    """The pid of snm in session `sid`, once it started."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        for pid in session_members(sid):
            try:
                if pathlib.Path(f"/proc/{pid}/exe").resolve() == pathlib.Path(SNM).resolve():
                    return pid
            except OSError:
                pass
        time.sleep(0.05)
    raise AssertionError("snm did not start in the leader's session")


@pytest.fixture
def leader(project, tmp_path):
    """Starts LEADER at a pty in one of its ways (a session of its own); at the end every process
    of that session is killed."""
    env = dict(os.environ, TERM="xterm", SUPABASE_URL=project.url,
               SUPABASE_ANON_KEY=project.anon_key, XDG_STATE_HOME=str(tmp_path / "state"),
               XDG_CACHE_HOME=str(tmp_path / "cache"), XDG_CONFIG_HOME=str(tmp_path / "config"),
               PAGER="cat", NO_COLOR="1")
    children = []

    def start(how):
        child = pexpect.spawn(sys.executable, ["-c", LEADER, SNM, how], env=env,
                              encoding="utf-8", timeout=30, dimensions=(24, 120))
        children.append(child)
        return child
    yield start
    for child in children:
        for pid in session_members(child.pid):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        child.close(force=True)


def test_snm_started_where_no_shell_can_give_it_the_terminal_says_so_once(leader):
    """It printed "no line editing here (...); reading plainly", then failed the plain read with
    "input/output error: the disk or device failed (EIO)": two messages, the second not true."""
    child = leader("orphaned from the start")
    child.expect(r"\[snm exited (\d+)\]")
    said = child.before
    assert child.match.group(1) == "2", said
    assert said.count("snm: ") == 1 and NOT_READABLE in said.replace("\r\n", "\n"), said
    assert "EIO" not in said and "plainly" not in said, said


def test_the_terminal_taken_from_snm_at_the_prompt_with_no_shell_to_give_it_back(leader):
    """The terminal taken while snm waits at its prompt, by a leader that never gives it back:
    snm said "input/output error: the disk or device failed (EIO), at line 1" (no disk failed and
    no line 1 was read)."""
    child = leader("orphaned at the prompt")
    child.expect_exact("snm anon@local> ")
    snm_in_session(child.pid)
    child.send("from dog_profile")
    child.expect_exact("from dog_profile")
    os.kill(child.pid, signal.SIGUSR1)
    child.expect_exact("[terminal taken]")
    child.send(" select name\r")
    child.expect(r"\[snm exited (\d+)\]")
    said = child.before
    assert child.match.group(1) == "2", said
    assert NOT_READABLE in said.replace("\r\n", "\n"), said
    assert "EIO" not in said and "line 1" not in said and "(0 rows)" not in said, said


def test_the_terminal_taken_and_given_back_by_a_shell_leaves_snm_stopped_then_reading_on(leader):
    """The same under a leader that gives the terminal back (job control): snm failed the read and
    ended with exit 2. It stops, as a job that reads from the background does, and once it has the
    terminal again the line comes back as it was and the keys typed meanwhile go on it."""
    child = leader("job")
    child.expect_exact("snm anon@local> ")
    pid = snm_in_session(child.pid)
    child.send("from dog_profile select name")
    child.expect_exact("from dog_profile select name")
    os.kill(child.pid, signal.SIGUSR1)
    child.expect_exact("[terminal taken]")
    child.send(" order by id limit 1")
    deadline = time.monotonic() + 20
    state = "?"
    while time.monotonic() < deadline and state != "T":
        try:
            state = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except FileNotFoundError:
            state = "gone"
            break
        time.sleep(0.05)
    assert state == "T", f"snm did not stop ({state}): {child.before!r}"
    os.kill(child.pid, signal.SIGUSR1)
    child.expect_exact("from dog_profile select name")
    child.send("\r")
    child.expect_exact("(1 row)")
    assert re.search(r"^ Bori\s*$", child.before, re.M), child.before
    child.expect_exact("snm anon@local> ")
    child.sendline("\\q")
    child.expect(r"\[snm exited (\d+)\]")
    assert child.match.group(1) == "0", child.before
