"""The field pass as an attacker and a user at a job-control shell (field lane).

Another account on the machine: a data dir it can write in (its own folder, or one open to
everyone under /tmp) would let it swap the project's JWT secret (and mint service_role tokens) or
the gateway's pid file that `snm local stop` signals; snm refuses such a data dir. Ctrl-Z at the
password prompt stops the job as it does at snm's prompt, where it was read into the password."""
import contextlib
import json
import os
import pwd
import re
import socket
import struct
import subprocess
import time

import pexpect
import pytest

from accounts import shared_group
from conftest import SNM, free_port
from hardening import process_memory
from test_shell_prompt import shell_env  # noqa: F401 (a fixture)
from tmux_shell import TmuxShell, job_control_bash


def snm(*args, env=None):
    return subprocess.run([SNM, *args], capture_output=True, text=True, timeout=120,
                          env={**os.environ, **(env or {})})


@pytest.mark.skipif(os.geteuid() != 0, reason="making a folder another account owns needs root")
def test_a_data_dir_another_account_may_write_is_refused(tmp_path):
    nobody = pwd.getpwnam("nobody")
    with shared_group() as group:
        refused_data_dirs(tmp_path, nobody, group)
    # Its own folder, closed to others, is taken as ever (0755: others read, none writes).
    data = tmp_path / "mine"
    data.mkdir(mode=0o755)
    started = snm("local", "start", "--dir", str(data), "--port", str(free_port()))
    try:
        assert started.returncode == 0, started.stderr
        # Opened to others afterwards: stop refuses to read the pid file others could have written.
        os.chmod(data, 0o777)
        stopped = snm("local", "stop", "--dir", str(data))
        assert stopped.returncode != 0 and "refusing the data dir" in stopped.stderr, stopped.stderr
    finally:
        os.chmod(data, 0o755)
        snm("local", "destroy", "--dir", str(data), "--yes")


def refused_data_dirs(tmp_path, nobody, group):
    """`snm local start` in data dirs another account may write in: nobody's, one open to
    others, one a group another account is in may write in (root's own group, which no one else
    is in, is root's private group: test_private_group.py)."""
    for name, owner, mode, problem in [
            ("theirs", nobody.pw_uid, 0o700, "it belongs to nobody (uid"),
            ("open", 0, 0o777, "others may write in it (mode 777)"),
            ("group", 0, 0o770,
             f"its group {group.gr_name} may write in it (mode 770), a group not yours alone")]:
        data = tmp_path / name
        data.mkdir()
        os.chown(data, owner, group.gr_gid if name == "group" else -1)
        os.chmod(data, mode)
        started = snm("local", "start", "--dir", str(data), "--port", str(free_port()))
        try:
            assert started.returncode != 0, (name, started.stdout)
            assert f"snm local: refusing the data dir {data}: {problem}" in started.stderr, \
                (name, started.stderr)
            assert "it holds the project's JWT secret and keys" in started.stderr
            assert sorted(os.listdir(data)) == [], (name, os.listdir(data))
        finally:
            if started.returncode == 0:
                snm("local", "destroy", "--dir", str(data), "--yes")


@contextlib.contextmanager
def at_the_password_prompt(shell_env):
    """snm in a job-control bash, at login's password prompt for alice@example.com."""
    with job_control_bash({**shell_env, "NO_COLOR": "1"}) as bash:
        bash.type(SNM)
        bash.press("Enter")
        bash.wait_for_prompt()
        bash.type("login email 'alice@example.com'")
        bash.press("Enter")
        bash.wait_for_text("password for alice@example.com:")
        yield bash


def test_ctrl_z_at_the_password_prompt_stops_the_job_and_fg_asks_again(shell_env):
    with at_the_password_prompt(shell_env) as bash:
        bash.type("pass")
        bash.press("C-z")
        stopped = bash.wait_for(lambda s: re.search(r"Stopped.*\n?bash\$ ?$", s), timeout=5)
        assert "^Z" in stopped
        bash.type("fg")
        bash.press("Enter")
        # Asked again from the start: what was typed before the stop is dropped.
        bash.wait_for(lambda s: s.rstrip().endswith("password for alice@example.com:"), timeout=5)
        bash.type("password123")
        bash.press("Enter")
        bash.wait_for(lambda s: "signed in as alice@example.com" in s, timeout=10)


def test_arrow_home_and_end_at_the_password_prompt_are_refused_and_it_asks_again(shell_env):
    """An arrow, Home or End at the password prompt sent its escape sequence as part of the
    password (`pass` Left `word123` was sent as `pass\\e[Dword123`). The prompt names the key,
    clears what was typed and asks again; the password typed then signs in."""
    with at_the_password_prompt(shell_env) as bash:
        for key, name in [("Left", "the Left arrow key"), ("Home", "the Home key"),
                          ("End", "the End key"), ("Up", "the Up arrow key")]:
            prompts = bash.screen().count("password for alice@example.com:")
            bash.type("pass")
            bash.press(key)
            bash.type("word123")
            said = bash.wait_for(
                lambda s, p=prompts: s.count("password for alice@example.com:") > p, timeout=5)
            assert f"snm: {name} cannot edit a hidden answer; what was typed is cleared: " \
                "type it again" in said, said
        bash.press("C-u")  # the last `word123`, had it come after the prompt dropped the keys
        bash.type("password123")
        bash.press("Enter")
        screen = bash.wait_for(lambda s: "signed in as alice@example.com" in s, timeout=10)
        assert "Invalid login credentials" not in screen and "word123" not in screen


@pytest.mark.skipif(os.geteuid() != 0, reason="making a folder another account owns needs root")
def test_a_session_folder_another_account_may_write_is_refused(project, tmp_path):
    """Whoever can write in snm's session folder can plant a session of their own there (the
    victim's next statements then act as the planter's user) or remove one: refused, and nothing
    is written there."""
    nobody = pwd.getpwnam("nobody")
    for name, owner, mode, problem in [("theirs", nobody.pw_uid, 0o700, "it belongs to uid "),
                                       ("open", 0, 0o777, "others may write in it (mode 777)")]:
        state = tmp_path / name
        folder = state / "snm"
        folder.mkdir(parents=True)
        os.chown(folder, owner, -1)
        os.chmod(folder, mode)
        env = {"SUPABASE_URL": project.url, "SUPABASE_ANON_KEY": project.anon_key,
               "XDG_STATE_HOME": str(state), "XDG_CACHE_HOME": str(tmp_path / "cache"),
               "XDG_CONFIG_HOME": str(tmp_path / "config"), "NO_COLOR": "1"}
        login = snm("-c", "login email 'alice@example.com' password 'password123'", env=env)
        # Signed in for this run only (as with any session folder that cannot be written), and
        # said so: nothing is kept where another account could read or swap it.
        assert f"refusing {folder}: {problem}" in login.stderr, (name, login.stderr)
        assert not [p for p in os.listdir(folder) if p.endswith(".json")], os.listdir(folder)


@pytest.mark.skipif(os.geteuid() != 0, reason="a folder another account owns needs root")
def theirs_and_mine(tmp_path):
    """A folder nobody owns (`theirs`) and one of yours closed to others (`mine`), in `tmp_path`."""
    nobody = pwd.getpwnam("nobody")
    theirs = tmp_path / "theirs"
    theirs.mkdir()
    os.chown(theirs, nobody.pw_uid, -1)
    mine = tmp_path / "mine"
    mine.mkdir(mode=0o700)
    return nobody, theirs, mine


def login_refusing(project, tmp_path, state, refused, theirs, nobody):
    """Signs in with XDG_STATE_HOME `state`; the login says it keeps nothing in `refused`, which
    `theirs` (nobody's) may swap. Returns the environment."""
    env = {"SUPABASE_URL": project.url, "SUPABASE_ANON_KEY": project.anon_key,
           "XDG_STATE_HOME": str(state), "XDG_CACHE_HOME": str(tmp_path / "cache"),
           "XDG_CONFIG_HOME": str(tmp_path / "config"), "NO_COLOR": "1"}
    login = snm("-c", "login email 'alice@example.com' password 'password123'", env=env)
    assert login.returncode == 0, login.stderr
    assert (f"snm: warning: refusing {refused}: {theirs} is uid {nobody.pw_uid}'s, who may put "
            "a folder of theirs in its place; snm reads and keeps nothing there") in login.stderr, \
        login.stderr
    return env


def test_a_folder_of_snms_that_another_account_may_swap_is_refused(project, tmp_path):
    """snm's own folders were held to be yours and closed to others, but not the folder they are
    in: `snm` in a folder another account owns (XDG_STATE_HOME there), a link of theirs to a
    folder of yours, had snm write your session (and history) into your folder of their choosing,
    and a data dir there would be theirs to swap for one with a JWT secret they know. Refused, as
    the clusters folder already was, saying who may swap it; nothing is written through it."""
    nobody, theirs, mine = theirs_and_mine(tmp_path)
    (mine / "history").write_text("precious\n")
    (theirs / "snm").symlink_to(mine)
    os.lchown(theirs / "snm", nobody.pw_uid, -1)
    env = login_refusing(project, tmp_path, theirs, f"{theirs}/snm", theirs, nobody)
    assert sorted(os.listdir(mine)) == ["history"], os.listdir(mine)
    with TmuxShell([SNM], env=env) as shell:
        shell.wait_for_prompt()
        shell.run("echo 'typed'")
        shell.press("C-d")
        shell.wait_for(lambda s: "[snm exited 0]" in s)
    assert (mine / "history").read_text() == "precious\n"
    # A data dir in their folder: refused before anything is read or made there.
    data = theirs / "project"
    data.mkdir(mode=0o700)
    for command in (["status"], ["start", "--port", str(free_port())]):
        result = snm("local", *command, "--dir", str(data))
        assert result.returncode != 0, (command, result.stdout)
        assert (f"snm local: refusing the data dir {data}: {theirs} is nobody (uid "
                f"{nobody.pw_uid})'s, who may put a folder of theirs in its place") \
            in result.stderr, (command, result.stderr)
        assert os.listdir(data) == [], (command, os.listdir(data))


def test_a_link_of_yours_through_a_folder_another_account_owns_is_refused(project, tmp_path):
    """A link of your own is trusted, but the way it leads was not looked at: stat follows every
    link, so XDG_STATE_HOME a link of yours to a folder of yours inside another account's folder
    (where they may swap it, here already for a link of theirs to your folder) showed only the
    folder at the end, yours, and snm kept your session and history where they chose. The way a
    link leads is walked as the path itself is. (A data dir is refused so already: `snm local`
    resolves its links before the check.)"""
    nobody, theirs, mine = theirs_and_mine(tmp_path)
    (mine / "snm").mkdir(mode=0o700)
    (mine / "snm" / "history").write_text("precious\n")
    # Theirs: a link to your folder, in their folder. Yours: a link to theirs.
    (theirs / "state").symlink_to(mine)
    os.lchown(theirs / "state", nobody.pw_uid, -1)
    state = tmp_path / "state"
    state.symlink_to(theirs / "state")
    login_refusing(project, tmp_path, state, f"{state}/snm", theirs, nobody)
    assert sorted(os.listdir(mine / "snm")) == ["history"], os.listdir(mine / "snm")
    assert (mine / "snm" / "history").read_text() == "precious\n"
    # Your link to a folder of yours in their folder (no link of theirs): theirs to swap.
    (theirs / "state").unlink()
    (theirs / "state").mkdir(mode=0o700)
    login_refusing(project, tmp_path, state, f"{state}/snm", theirs, nobody)
    assert os.listdir(theirs / "state") == [], os.listdir(theirs / "state")


def folder_open_to_all(path):
    path.mkdir(parents=True, exist_ok=True)
    os.chmod(path, 0o777)
    return path


def test_an_open_session_folder_is_said_once_and_nothing_in_it_is_read_or_kept(project, tmp_path):
    """A session folder others may write in: one warning says what is not kept there and why
    (a login said it twice, once for the session it could not read and once for the one it could
    not save), and the history planted there is not offered at the prompt, nor written to."""
    state = tmp_path / "state"
    folder = folder_open_to_all(state / "snm")
    planted = "from user_info delete where id is not null\n"
    (folder / "history").write_text(planted)
    env = {"SUPABASE_URL": project.url, "SUPABASE_ANON_KEY": project.anon_key,
           "XDG_STATE_HOME": str(state), "XDG_CACHE_HOME": str(tmp_path / "cache"),
           "XDG_CONFIG_HOME": str(tmp_path / "config"), "NO_COLOR": "1"}
    login = snm("-c", "login email 'alice@example.com' password 'password123'", env=env)
    assert login.returncode == 0, login.stderr
    said = f"snm: warning: refusing {folder}: others may write in it (mode 777); snm reads and " \
        "keeps nothing there this run (sessions, history, cached schemas): a sign-in lasts " \
        f"until snm ends. Make it yours and closed to others: chmod go-w {folder}"
    assert login.stderr.count(str(folder)) == 2 and said in login.stderr, login.stderr
    with TmuxShell([SNM], env={**env, "PAGER": "cat"}) as shell:
        shell.wait_for_prompt()
        shell.run("echo 'typed'")
        shell.press("Up")
        shell.press("Up")
        screen = shell.wait_for(lambda s: s.splitlines()[-1].startswith("snm anon@local> "))
        time.sleep(0.3)
        screen = shell.screen()
        assert "delete" not in screen, screen
        assert screen.count(f"refusing {folder}") == 1, screen
    assert (folder / "history").read_text() == planted


def test_a_schema_cache_folder_others_may_write_in_is_not_read(project, tmp_path):
    """A schema planted in a cache folder others may write in named the tables `snm check`
    suggested (`did you mean 'planted_walks'?`): it is not read, and the refusal is said."""
    env = {"SUPABASE_URL": project.url, "SUPABASE_ANON_KEY": project.anon_key,
           "XDG_STATE_HOME": str(tmp_path / "state"), "XDG_CACHE_HOME": str(tmp_path / "cache"),
           "XDG_CONFIG_HOME": str(tmp_path / "config"), "NO_COLOR": "1"}
    assert snm("-c", "tables", env=env).returncode == 0
    folder = tmp_path / "cache" / "snm" / "schema"
    [cached] = list(folder.iterdir())
    cached.write_text(cached.read_text().replace("walk_request", "planted_walks"))
    script = tmp_path / "a.snm"
    script.write_text("from planted_walk select id\n")
    checked = snm("check", str(script), env=env)
    assert "did you mean 'planted_walks'?" in checked.stderr, checked.stderr  # its own folder
    os.chmod(folder, 0o777)
    checked = snm("check", str(script), env=env)
    assert "planted_walks" not in checked.stderr, checked.stderr
    assert f"snm: warning: refusing {folder}: others may write in it (mode 777)" in checked.stderr


def test_a_refused_folder_is_named_with_its_control_characters_escaped(tmp_path):
    """The warning about a folder others may write in names it as every message names a path:
    an XDG_CACHE_HOME holding ESC ]0;... BEL was written raw to the terminal (retitling its
    window), twice."""
    cache = tmp_path / "cache\x1b]0;owned\x07x"
    folder = folder_open_to_all(cache / "snm" / "schema")
    script = tmp_path / "a.snm"
    script.write_text('echo "a"\n')
    env = {"SUPABASE_URL": "http://127.0.0.1:9", "SUPABASE_ANON_KEY": "sb_publishable_x",
           "XDG_STATE_HOME": str(tmp_path / "state"), "XDG_CACHE_HOME": str(cache),
           "XDG_CONFIG_HOME": str(tmp_path / "config"), "NO_COLOR": "1"}
    checked = snm("check", str(script), env=env)
    assert checked.returncode == 0, checked.stderr
    shown = str(folder).replace("\x1b", "\\u{1B}").replace("\x07", "\\u{7}")
    assert checked.stderr == (
        f"snm: warning: refusing {shown}: others may write in it (mode 777); snm reads and keeps "
        "nothing there this run (sessions, history, cached schemas): a sign-in lasts until snm "
        f"ends. Make it yours and closed to others: chmod go-w {shown}\n")


def test_a_session_file_that_cannot_be_kept_is_named_with_its_control_characters_escaped(
        project, tmp_path):
    """A session that could not be read or kept is warned of with its path, which comes from
    XDG_STATE_HOME: one holding ESC ]0;... BEL (a file in the way of snm's folder) was written
    raw to standard error, retitling the terminal's window, on each warning."""
    state = tmp_path / "state\x1b]0;owned\x07x"
    state.write_text("a file where the folder would be\n")
    env = {"SUPABASE_URL": project.url, "SUPABASE_ANON_KEY": project.anon_key,
           "XDG_STATE_HOME": str(state), "XDG_CACHE_HOME": str(tmp_path / "cache"),
           "XDG_CONFIG_HOME": str(tmp_path / "config"), "NO_COLOR": "1"}
    login = snm("-c", "login email 'alice@example.com' password 'password123'", env=env)
    assert login.returncode == 0, login.stderr
    shown = str(state).replace("\x1b", "\\u{1B}").replace("\x07", "\\u{7}")
    warnings = login.stderr.splitlines()
    assert warnings and all(line.startswith("snm: warning: ") for line in warnings), warnings
    assert "\x1b" not in login.stderr and "\x07" not in login.stderr, login.stderr
    assert f"could not save the session to {shown}/snm/session-" in login.stderr, login.stderr
    assert f"(cannot create {shown}/snm: not a directory)" in login.stderr, login.stderr


def test_a_profile_file_others_may_write_in_is_refused(project, tmp_path):
    """`--profile prod` read config.json from a folder (or a file) another account may write in:
    a profile planted there sends the statements, the password typed at `login` and the keys to
    their server. Refused, saying what and how to fix it; the same file closed to others works."""
    config = folder_open_to_all(tmp_path / "config" / "snm")
    profile = config / "config.json"
    profile.write_text(json.dumps(
        {"profiles": {"prod": {"url": project.url, "anon_key": project.anon_key}}}))
    env = {"XDG_STATE_HOME": str(tmp_path / "state"), "XDG_CACHE_HOME": str(tmp_path / "cache"),
           "XDG_CONFIG_HOME": str(tmp_path / "config"), "NO_COLOR": "1",
           "SUPABASE_URL": "", "SUPABASE_ANON_KEY": ""}
    for place, mode, problem in [(config, 0o777, "others may write in it (mode 777)"),
                                 (profile, 0o666, "others may write in it (mode 666)")]:
        os.chmod(config, 0o700)
        os.chmod(profile, 0o600)
        os.chmod(place, mode)
        run = snm("--profile", "prod", "-c", "echo 'sent'", env=env)
        assert run.returncode == 2 and "sent" not in run.stdout, (place, run.stdout, run.stderr)
        assert f"refusing {place}: {problem}; a profile planted there would send your " \
            f"statements, password and keys to another server" in run.stderr, run.stderr
    os.chmod(profile, 0o600)
    run = snm("--profile", "prod", "-c", "echo 'sent'", env=env)
    assert run.returncode == 0 and "sent" in run.stdout, run.stderr


def test_a_file_on_standard_input_is_checked_whole_first_and_a_pipe_as_it_comes(project, tmp_path):
    """`snm < a.snm` ran a statement at a time, so a `$env.NAME` the environment lacks on line 2
    was found after line 1 was sent. A file is there whole: it is checked first, nothing sent.
    A pipe is read as it comes (a program may wait for each answer), as psql and sh read one:
    line 1 runs, line 2 stops it with the same error (docs/language.md says so)."""
    script = tmp_path / "a.snm"
    script.write_text("echo 'first'\necho $env.SNM_FIELD_NOT_SET\necho 'third'\n")
    env = {**os.environ, "SUPABASE_URL": project.url, "SUPABASE_ANON_KEY": project.anon_key,
           "XDG_STATE_HOME": str(tmp_path / "state"), "XDG_CACHE_HOME": str(tmp_path / "cache"),
           "XDG_CONFIG_HOME": str(tmp_path / "config"), "NO_COLOR": "1"}
    env.pop("SNM_FIELD_NOT_SET", None)
    error = "stdin:2:6: error: the environment variable 'SNM_FIELD_NOT_SET' is not set"
    with open(script) as stdin:
        redirected = subprocess.run([SNM], stdin=stdin, capture_output=True, text=True,
                                    timeout=60, env=env)
    assert redirected.returncode == 2 and redirected.stdout == "", redirected.stdout
    assert error in redirected.stderr, redirected.stderr
    piped = subprocess.run([SNM], input=script.read_text(), capture_output=True, text=True,
                           timeout=60, env=env)
    assert piped.returncode == 2 and piped.stdout == "first\n", piped.stdout
    assert error in piped.stderr, piped.stderr
    # A file read part way already (`{ read -r first; snm; } < a.snm`) is checked from there on.
    partial = subprocess.run(["sh", "-c", f"{{ read -r first; {SNM}; }} < {script}"],
                             capture_output=True, text=True, timeout=60, env=env)
    assert partial.returncode == 2 and partial.stdout == "", partial.stdout
    assert "stdin:1:6: error: the environment variable" in partial.stderr, partial.stderr

    # A directory or bytes that are not UTF-8 on standard input are refused as `snm -` refuses
    # them: a directory read as empty input ended with exit 0, and the bytes went on as U+FFFD.
    folder = os.open(tmp_path, os.O_RDONLY)
    try:
        refused = subprocess.run([SNM], stdin=folder, capture_output=True, text=True,
                                 timeout=60, env=env)
    finally:
        os.close(folder)
    assert refused.returncode == 2, refused.stderr
    assert "snm: standard input is a directory" in refused.stderr, refused.stderr
    script.write_bytes(b"echo 'caf\xe9'\n")
    with open(script) as stdin:
        refused = subprocess.run([SNM], stdin=stdin, capture_output=True, timeout=60, env=env)
    assert refused.returncode == 2 and refused.stdout == b"", refused.stdout
    assert b"snm: standard input is not UTF-8 text" in refused.stderr, refused.stderr


def test_the_password_prompt_shows_the_email_escaped(project, tmp_path):
    """The e-mail of `login email $env.E` (or of a server's answer bound with `let`) went raw
    into the password prompt, where its escape sequences drove the terminal (a new window
    title, a cleared screen). It is shown escaped, as every text from outside is."""
    env = {**os.environ, "SUPABASE_URL": project.url, "SUPABASE_ANON_KEY": project.anon_key,
           "XDG_STATE_HOME": str(tmp_path / "state"), "XDG_CACHE_HOME": str(tmp_path / "cache"),
           "XDG_CONFIG_HOME": str(tmp_path / "config"), "NO_COLOR": "1",
           "E": "evil\x1b]0;owned\x07\x1b[2J@example.com"}
    child = pexpect.spawn(SNM, ["-c", "login email $env.E"], env=env, timeout=30)
    child.expect_exact(b"password for ")
    child.expect_exact(b": ")
    shown = child.before
    child.send(b"\x03")
    child.expect(pexpect.EOF)
    child.close()
    assert b"\x1b" not in shown and b"\x07" not in shown, shown
    assert shown == b"evil\\u{1B}]0;owned\\u{7}\\u{1B}[2J@example.com", shown


def at_a_bare_password_prompt(project, tmp_path):
    """`snm -c 'login ...'` at a terminal of its own (pexpect's), at the password prompt."""
    env = {**os.environ, "SUPABASE_URL": project.url, "SUPABASE_ANON_KEY": project.anon_key,
           "XDG_STATE_HOME": str(tmp_path / "state"), "XDG_CACHE_HOME": str(tmp_path / "cache"),
           "XDG_CONFIG_HOME": str(tmp_path / "config"), "NO_COLOR": "1"}
    child = pexpect.spawn(SNM, ["-c", "login email 'alice@example.com'"], env=env, timeout=30)
    child.expect_exact(b"password for alice@example.com: ")
    return child


@pytest.mark.skipif(os.geteuid() != 0, reason="reading another process's memory needs root")
def test_what_was_typed_at_the_password_prompt_leaves_no_copy_in_memory(project, tmp_path):
    """The password prompt wiped what was typed when it ended or was cleared, but not the copies
    an Array leaves as it grows (each growth freed the old room as it was: the answer's start),
    nor a character erased with Backspace or Ctrl-W (left in the room past the end, where the
    wipe did not reach). At the prompt, after a long answer cleared with Ctrl-U and another
    erased with Backspace and Ctrl-W, no piece of either is anywhere in snm's memory. An answer
    past 4096 bytes is refused (Supabase Auth takes 72)."""
    child = at_a_bare_password_prompt(project, tmp_path)
    try:
        cleared = b"".join(b"Cleared-%03d-" % n for n in range(40))  # 480 bytes
        child.send(cleared)
        child.send(b"\x15")  # Ctrl-U
        erased = b"Erased-wQ7z-by-backspace Gone-kV3x-by-ctrl-w"
        child.send(erased)
        child.send(b"\x17")  # Ctrl-W: the last word
        child.send(b"\x7f" * len(erased.split(b" ")[0] + b" "))
        child.send(b"pw")
        # Every key read: Ctrl-\ would quit, so a key that names itself shows the prompt read on.
        child.send(b"\x1b[D")
        child.expect_exact(b"the Left arrow key cannot edit a hidden answer")
        memory = process_memory(child.pid)
        assert len(memory) > 1 << 20, len(memory)
        pieces = [b"Cleared-000-", b"Cleared-007-Cleared-008", b"Cleared-039-", b"wQ7z-by-backspace",
                  b"Gone-kV3x"]
        left = [piece for piece in pieces if piece in memory]
        assert left == [], left
        # Its room never grows (a growth's copy is what was left): past a page, it asks again.
        child.send(b"y" * 5000)
        child.expect_exact(b"snm: the answer is longer than 4096 bytes, more than a password may "
                           b"be; it was cleared: type it again")
    finally:
        child.send(b"\x03")
        child.expect(pexpect.EOF)
        child.close()


def test_alt_with_a_key_past_ascii_at_the_password_prompt_is_named(project, tmp_path):
    """Alt-é sends Esc and é's two bytes: the prompt said 'the Esc key cannot edit a hidden
    answer'. It names the key the user pressed, its hidden characters escaped (Alt with a key
    that types U+202E shows it as \\u{202E}), as it names Alt-x."""
    child = at_a_bare_password_prompt(project, tmp_path)
    try:
        for sent, name in [(b"\x1b\xc3\xa9", "Alt-\u00e9".encode()),
                           (b"\x1b\xe2\x80\xae", b"Alt-\\u{202E}"),
                           (b"\x1b ", b"Alt-Space"), (b"\x1bx", b"Alt-x")]:
            child.send(b"pass" + sent)
            child.expect_exact(b" cannot edit a hidden answer")
            assert child.before.endswith(b"snm: " + name), (sent, child.before)
            child.expect_exact(b"password for alice@example.com: ")
    finally:
        child.send(b"\x03")
        child.expect(pexpect.EOF)
        child.close()



def test_standard_input_that_fails_to_be_read_is_a_failure_not_its_end(project, tmp_path):
    """A read error on standard input read as it comes (a socket reset, a device's error, a
    descriptor closed at start) ended the input as if it had ended: snm exited 0 having run a
    part of it, and a CI step passed. It is a failure now, saying why and where, exit 2, and the
    statement it cut short is not run. A line that is not UTF-8 is refused as a file's is."""
    env = {**os.environ, "SUPABASE_URL": project.url, "SUPABASE_ANON_KEY": project.anon_key,
           "XDG_STATE_HOME": str(tmp_path / "state"), "XDG_CACHE_HOME": str(tmp_path / "cache"),
           "XDG_CONFIG_HOME": str(tmp_path / "config"), "NO_COLOR": "1"}
    stopped = "nothing from there on ran"

    # A socket (`snm < /dev/tcp/...`, socat, inetd) whose peer resets after the first line.
    with socket.create_server(("127.0.0.1", 0)) as server:
        client = socket.create_connection(server.getsockname())
        peer, _ = server.accept()
        with client, peer:
            reader = subprocess.Popen([SNM], stdin=client, stdout=subprocess.PIPE,
                                      stderr=subprocess.PIPE, text=True, env=env)
            peer.sendall(b"echo 'first'\necho 'cut short'")
            assert reader.stdout.readline() == "first\n"
            peer.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            peer.close()
            out, err = reader.communicate(timeout=60)
    assert reader.returncode == 2 and out == "", (reader.returncode, out, err)
    assert "snm: cannot read standard input: connection reset by peer" in err, err
    assert f", at line 2: {stopped}" in err, err

    # A standard input closed at start (`snm <&-`).
    closed = subprocess.run(["sh", "-c", f'exec "{SNM}" <&-'], capture_output=True, text=True,
                            timeout=60, env=env)
    assert closed.returncode == 2, (closed.stdout, closed.stderr)
    assert f"snm: cannot read standard input: not open (EBADF), at line 1: {stopped}" \
        in closed.stderr, closed.stderr

    # A pipe's line that is not UTF-8 (it went on with U+FFFD in its place).
    latin1 = subprocess.run([SNM], input=b"echo 'a'\necho 'caf\xe9'\necho 'c'\n",
                            capture_output=True, timeout=60, env=env)
    assert latin1.returncode == 2 and latin1.stdout == b"a\n", latin1.stdout
    assert b"snm: standard input is not UTF-8 text, at line 2: " + stopped.encode() \
        in latin1.stderr, latin1.stderr


def test_a_line_on_standard_input_longer_than_a_script_may_be_is_refused(tmp_path):
    """A line with no end piped to snm (`snm < /dev/zero`) was read on until the memory ran out:
    100 MB of NUL bytes took 3.3 GB and five minutes, and wrote 524 MB to standard error (the
    line quoted, each byte escaped); a larger one got snm killed. A line past a script's limit
    (64 MiB) is refused, exit 2, read no further; the lines before it ran."""
    env = {**os.environ, "SUPABASE_URL": "http://127.0.0.1:9", "SUPABASE_ANON_KEY": "x",
           "XDG_STATE_HOME": str(tmp_path / "state"), "XDG_CACHE_HOME": str(tmp_path / "cache"),
           "XDG_CONFIG_HOME": str(tmp_path / "config"), "NO_COLOR": "1"}
    feeder = subprocess.Popen(["sh", "-c", "echo \"echo 'before'\"; head -c 100M /dev/zero"],
                              stdout=subprocess.PIPE)
    try:
        result = subprocess.run([SNM], stdin=feeder.stdout, capture_output=True, timeout=120,
                                env=env)
    finally:
        feeder.stdout.close()
        feeder.kill()
        feeder.wait()
    assert (result.returncode, result.stdout) == (2, b"before\n"), result.stderr[:300]
    assert result.stderr.startswith(
        b"snm: standard input gave more than 64 MiB, more than a script may be (a fixed limit), "
        b"and was read no further; "), result.stderr[:300]
    assert result.stderr.endswith(b", at line 2: nothing from there on ran\n"), \
        result.stderr[-300:]
    assert len(result.stderr) < 1000, len(result.stderr)


def stopped_in_the_background(bash, command, shown):
    """Runs `command &` in a job-control bash and waits until bash says the job (`shown`, a
    regular expression) stopped; the screen then. bash tells a job's change at its next prompt,
    so `jobs` is asked until it does."""
    bash.type(f"{command} &")
    bash.press("Enter")

    def stopped(screen):
        if re.search(rf"Stopped.*{shown}", screen):
            return True
        bash.type("jobs")
        bash.press("Enter")
        return False
    return bash.wait_for(stopped, timeout=15, interval=0.3)


def test_the_password_prompt_asks_at_the_terminal_whatever_stderr_and_stdin_are(
        project, shell_env, tmp_path):
    """The password prompt wrote to standard error: `snm 2>/dev/null` hid it while snm waited
    (`2>log` wrote it into the log), and statements piped in at a terminal could not ask at all.
    It asks at the controlling terminal and reads the answer from it, as sudo, ssh and psql do;
    a pipe is never read for a password (its next line is a statement). With no controlling
    terminal it says so and how to give one."""
    log = tmp_path / "log"
    with job_control_bash({**shell_env, "NO_COLOR": "1"}) as bash:
        bash.type(f"{SNM} 2>/dev/null")
        bash.press("Enter")
        bash.wait_for_prompt()
        bash.type("login email 'alice@example.com'")
        bash.press("Enter")
        bash.wait_for_text("password for alice@example.com:")
        bash.type("password123")
        bash.press("Enter")
        bash.wait_for(lambda s: s.rstrip().endswith("snm alice@local>"))
        bash.type("exit")
        bash.press("Enter")
        bash.wait_for(lambda s: s.rstrip().endswith("bash$"))
        bash.type(f"printf \"login email 'alice@example.com'\\nsession show\\n\" | {SNM} "
                  f"--format json 2>{log}; echo \"snm exited $?\"")
        bash.press("Enter")
        bash.wait_for(lambda s: s.count("password for alice@example.com:") == 2)
        bash.type("password123")
        bash.press("Enter")
        screen = bash.wait_for(lambda s: re.search(r"^snm exited \d+$", s, re.M))
        assert "snm exited 0" in screen, (screen, log.read_text())
        assert '"email":"alice@example.com"' in screen.replace(" ", ""), screen
        # A background job stops before it asks (its threads block SIGTTOU and SIGTTIN: it
        # turned the foreground's echo off, then failed the read); `fg` brings the prompt.
        bash.type("clear")
        bash.press("Enter")
        bash.wait_for(lambda s: "snm exited" not in s and s.rstrip().endswith("bash$"))
        screen = stopped_in_the_background(
            bash, f"{SNM} -c \"login email 'alice@example.com'\" 2>{log}", "login email")
        assert "password for" not in screen, screen
        bash.type("fg")
        bash.press("Enter")
        bash.wait_for(lambda s: s.rstrip().endswith("password for alice@example.com:"))
        bash.type("password123")
        bash.press("Enter")
        bash.wait_for(lambda s: s.rstrip().endswith("bash$"))
        bash.type('echo "snm exited $?"')
        bash.press("Enter")
        screen = bash.wait_for(lambda s: re.search(r"^snm exited \d+$", s, re.M))
        assert "snm exited 0" in screen, (screen, log.read_text())
    assert "password for" not in log.read_text(), log.read_text()

    refused = subprocess.run(
        [SNM, "-c", "login email 'alice@example.com'"], stdin=subprocess.DEVNULL,
        capture_output=True, text=True, timeout=60, start_new_session=True,
        env={**os.environ, **shell_env, "NO_COLOR": "1"})
    assert refused.returncode == 3, (refused.stdout, refused.stderr)
    assert "login needs a password, and there is no terminal to ask for it at (snm asks at its " \
        "controlling terminal, /dev/tty, and never reads one from standard input): write " \
        "`password $env.NAME`" in refused.stderr, refused.stderr


def test_output_that_cannot_be_written_is_a_failure_not_a_pass(project, tmp_path):
    """Rows printed to a full disk (`> /dev/full`) or a closed standard output (`>&-`) were
    dropped without a word and snm exited 0: a CI step saving a report passed with the report
    missing. snm says what was lost and exits 1. A reader that stops reading (`| head -1`)
    still ends the output quietly, exit 0."""
    env = {**os.environ, "SUPABASE_URL": project.url, "SUPABASE_ANON_KEY": project.anon_key,
           "XDG_STATE_HOME": str(tmp_path / "state"), "XDG_CACHE_HOME": str(tmp_path / "cache"),
           "XDG_CONFIG_HOME": str(tmp_path / "config"), "NO_COLOR": "1"}
    with open("/dev/full", "w") as full:
        run = subprocess.run([SNM, "-c", "from user_info select id"], stdout=full,
                             stderr=subprocess.PIPE, text=True, timeout=60, env=env)
    assert run.returncode == 1, run.stderr
    assert "snm: cannot write standard output: no space left on the device (ENOSPC); what " \
        "snm printed there is incomplete" in run.stderr, run.stderr
    closed = subprocess.run(["sh", "-c", f"exec \"{SNM}\" -c \"echo 'x'\" >&-"],
                            capture_output=True, text=True, timeout=60, env=env)
    assert closed.returncode == 1, closed.stderr
    assert "snm: cannot write standard output: not open (EBADF)" in closed.stderr, closed.stderr
    many = tmp_path / "many.snm"
    many.write_text("".join(f"echo '{n}'\n" for n in range(100_000)))
    head = subprocess.run(["bash", "-c", f"\"{SNM}\" \"{many}\" | head -1; "
                           "echo \"snm exited ${PIPESTATUS[0]}\""],
                          capture_output=True, text=True, timeout=120, env=env)
    assert head.stdout == "0\nsnm exited 0\n", (head.stdout, head.stderr)
    assert "cannot write" not in head.stderr, head.stderr


def test_snm_started_in_the_background_waits_stopped_until_fg(shell_env):
    """`snm &` at a job-control shell printed its prompt, set the foreground shell's terminal
    raw (its threads block SIGTTIN and SIGTTOU, so the kernel let it), failed its read and ended
    as at Ctrl-D, exit 0. It stops as psql does (SIGTTIN) until `fg` brings it to the front."""
    with job_control_bash({**shell_env, "NO_COLOR": "1"}) as bash:
        screen = stopped_in_the_background(bash, SNM, "snm")
        assert "Done" not in screen, screen
        bash.type("fg")
        bash.press("Enter")
        bash.wait_for(lambda s: s.rstrip().endswith("snm anon@local>"))
        bash.type("echo 'in front'")
        bash.press("Enter")
        bash.wait_for(lambda s: "\nin front" in s)
        bash.type("exit")
        bash.press("Enter")
        bash.wait_for(lambda s: s.rstrip().endswith("bash$"))
        bash.type('echo "snm exited $?"')
        bash.press("Enter")
        screen = bash.wait_for(lambda s: re.search(r"^snm exited \d+$", s, re.M))
        assert "snm exited 0" in screen, screen


def test_a_folder_above_snm_s_own_that_others_may_write_in_is_not_fixed_by_chmod_of_snm_s(
        tmp_path):
    """A state or config folder whose parent others may write in (mode 777, no sticky bit) was
    refused with the advice `chmod go-w` of snm's own folder, which is 0700 already: following
    it changed nothing. The advice is about the folder the reason names, or another place. (A
    group that may write is test_private_group.py's: the user's own private group is taken.)"""
    for parent in (tmp_path / "state", tmp_path / "config"):
        parent.mkdir()
        os.chmod(parent, 0o777)
    (tmp_path / "config" / "snm").mkdir(mode=0o700)
    (tmp_path / "config" / "snm" / "config.json").write_text(json.dumps(
        {"profiles": {"dev": {"url": "http://127.0.0.1:9", "anon_key": "sb_publishable_x"}}}))
    env = {"XDG_STATE_HOME": str(tmp_path / "state"), "XDG_CACHE_HOME": str(tmp_path / "cache"),
           "XDG_CONFIG_HOME": str(tmp_path / "config"), "NO_COLOR": "1",
           "SUPABASE_URL": "http://127.0.0.1:9", "SUPABASE_ANON_KEY": "sb_publishable_x"}
    shown = snm("-c", "session show", env=env)
    assert f"others may write in {tmp_path / 'state'} (mode 777)" in shown.stderr, shown.stderr
    profile = snm("--profile", "dev", "-c", "echo 'x'", env=env)
    assert profile.returncode == 2, profile.stderr
    assert f"others may write in {tmp_path / 'config'} (mode 777)" in profile.stderr
    for said, place in ((shown.stderr, "state"), (profile.stderr, "config")):
        assert f"chmod go-w {tmp_path / place}/snm" not in said, said
        assert "Close the folder named to others (chmod go-w, or the sticky bit /tmp has: chmod " \
               "+t), or keep snm's files in a folder of yours" in said, said
