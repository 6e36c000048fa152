"""One session file shared by several snm processes (terminals, CI jobs on one account), against
the real local project, each process the built snm.

A refresh re-reads the file under its lock and took whatever session it found newer there: when
another process had signed in as someone else meanwhile, a pipe, `-c` or script signed in as one
user carried on as the other, without a word. Now such a run stops (exit 3) naming both users and
the file (a pipe, `-c` and a script file with the saved session alike: none is at a prompt);
the prompt says so once and stays signed in as it was, its session kept in memory, the
file left to the other user's sign-in (docs/language.md, "Sessions shared by processes").

The file is the last sign-in's. A prompt no longer the file's (another user signed in on it, or
a `logout` elsewhere removed it since the prompt read or wrote it) keeps its session in memory and
never writes the file until a sign-in at that prompt: its refresh wrote its session back into the
file a `logout` elsewhere had removed, and the next snm started signed in as it.

The prompt removed a damaged session file without the lock login and refresh take: a `login`
landing in between was deleted. It now removes the file under that lock, and only what is still
damaged there; while another holds the lock it leaves the file and says so, and tries again at
its next statement.
"""
import fcntl
import json
import os
import pathlib
import re
import subprocess

import pytest

from conftest import SNM, run_snm
from pty_screen import PtyScreen
from test_session_ended import env_for, prompt_env

SIGNED_IN = re.compile(r"signed in anonymously as ([0-9a-f-]{36})")


def session_file(env):
    [path] = list(pathlib.Path(env["XDG_STATE_HOME"]).rglob("session-*.json"))
    return path


def login_elsewhere(env):
    """Another process signs in (a new anonymous user) on the same session file; its user id."""
    other = run_snm("-c", "login", env=env)
    assert other.returncode == 0, other.stderr
    return SIGNED_IN.search(other.stdout).group(1)


def at_prompt(term, statement):
    """Types `statement` at the prompt and waits for the next prompt."""
    prompts = term.raw.count(b"@local>")
    term.type(statement + "\r")
    term.wait_for(lambda t: t.raw.count(b"@local>") > prompts and t.text().endswith("@local>"))


def stored_user(path):
    return json.loads(path.read_text())["session"]["user"]["id"].lower()


def read_line(stream):
    line = stream.readline()
    assert line, "snm ended early"
    return line


def test_a_pipe_signed_in_as_one_user_stops_when_another_signs_in_on_its_file(project, home):
    """A pipe signs in as one anonymous user; another process signs in as a second one on the
    same file; the pipe's next refresh (`session refresh`: an expired token's is the same) took
    the second user's session and `session show` went on as them, exit 0."""
    env = env_for(project, home)
    pipe = subprocess.Popen([SNM], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env={**os.environ, **env})
    try:
        pipe.stdin.write("login\n")
        pipe.stdin.flush()
        first = SIGNED_IN.search(read_line(pipe.stdout)).group(1)
        second = login_elsewhere(env)
        path = session_file(env)
        kept = path.read_text()
        out, err = pipe.communicate("session refresh\nsession show\n", timeout=60)
    finally:
        pipe.kill()
    assert pipe.returncode == 3, (out, err)
    assert (f"the saved session {path} now holds the session of anonymous user {second}, who "
            f"signed in elsewhere, where this run is signed in as anonymous user {first}: it "
            "stops rather than go on as another user") in err, err
    # Nothing after the login line: `session show` did not run, as either user.
    assert out == "", out
    # The other user's sign-in is left as it was.
    assert path.read_text() == kept
    assert json.loads(kept)["session"]["user"]["id"].lower() == second


def test_the_prompt_says_so_and_stays_signed_in_as_it_was(project, home):
    """At the prompt the other user's sign-in is said once, and the shell stays signed in as its
    user (as a psql connection stays its user's whoever connects in another terminal); the file
    keeps the other user's session, which the next snm starts with, and the shell's `logout`
    removes none of it."""
    env = env_for(project, home)
    with PtyScreen([SNM], env=prompt_env(env), rows=50, columns=400) as term:
        term.wait_for(lambda t: t.text().endswith("snm anon@local>"))
        term.type("login\r")
        term.wait_for(lambda t: SIGNED_IN.search(t.text()) and t.text().endswith("@local>"))
        first = SIGNED_IN.search(term.text()).group(1)
        second = login_elsewhere(env)
        path = session_file(env)
        kept = path.read_text()
        for statement in ("session refresh", "session refresh", "session show", "logout"):
            prompts = term.raw.count(b"@local>")
            term.type(statement + "\r")
            term.wait_for(lambda t: t.raw.count(b"@local>") > prompts
                          and t.text().endswith("@local>"))
        term.type("\\q\r")
        term.settle()
        seen = term.raw.decode(errors="replace").replace("\r\n", "\n")
    warning = (f"snm: warning: the saved session {path} now holds the session of anonymous user "
               f"{second}, who signed in elsewhere: this shell stays signed in as anonymous user "
               f"{first}, its session kept in memory until it ends ('login' here to save one "
               f"again); a new snm starts as anonymous user {second}")
    assert seen.count(warning) == 1, seen
    shown = seen.rsplit("session show", 1)[1].split("logout", 1)[0]
    assert first in shown and second not in shown, shown
    # Its `logout` signs its own user out and leaves the other user's sign-in in the file.
    assert path.read_text() == kept
    after = run_snm("-c", "session show", env=env)
    assert after.returncode == 0 and second in after.stdout, after.stdout


def test_the_prompt_leaves_a_damaged_file_while_a_login_holds_the_lock(project, home):
    """The prompt met a damaged file and removed it at once, lock or no lock, so a `login` in
    another process that had just written its session lost it. While another holds the session
    lock the file is left (and said so); the next prompt, the lock free, removes it."""
    env = env_for(project, home)
    assert run_snm("-c", "login", env=env).returncode == 0
    path = session_file(env)
    path.write_text('{"version": 1, "session": ')
    lock = os.open(path.with_suffix(".lock"), os.O_RDWR)
    try:
        fcntl.flock(lock, fcntl.LOCK_EX)
        with PtyScreen([SNM], env=prompt_env(env), rows=50, columns=400) as term:
            term.wait_for(lambda t: t.text().endswith("snm anon@local>"))
            seen = term.raw.decode(errors="replace")
            assert path.exists()
            term.type("\\q\r")
            term.settle()
    finally:
        os.close(lock)
    assert (f"snm: warning: the saved session {path} is unreadable (not a valid session: not "
            "JSON; not removed: another snm holds its lock); sign in again with 'login'"
            in seen), seen
    with PtyScreen([SNM], env=prompt_env(env), rows=50, columns=400) as term:
        term.wait_for(lambda t: t.text().endswith("snm anon@local>"))
        seen = term.raw.decode(errors="replace")
        term.type("\\q\r")
        term.settle()
    assert "(not a valid session: not JSON; removed); sign in again" in seen, seen
    assert not path.exists()


@pytest.mark.parametrize("warned", [True, False], ids=["after-the-other-sign-in-was-said",
                                                       "before-the-prompt-saw-it"])
def test_a_logout_elsewhere_is_not_undone_by_the_prompts_refresh(project, home, warned):
    """The prompt signs in (the first user); another process signs in as a second on the same
    file, and logs out (the file removed). The prompt's next refresh wrote its session back into
    the file, and the next snm started as the first user, whom no one had signed in there since.
    Now the prompt stays signed in, its session kept in memory, and the file stays gone, whether
    the prompt had met the other sign-in (`warned`: a refresh between) or not (then it says so);
    a `login` at the prompt makes the file its own again, which its refreshes then keep."""
    env = env_for(project, home)
    with PtyScreen([SNM], env=prompt_env(env), rows=50, columns=400) as term:
        term.wait_for(lambda t: t.text().endswith("snm anon@local>"))
        at_prompt(term, "login")
        first = SIGNED_IN.search(term.text()).group(1)
        second = login_elsewhere(env)
        path = session_file(env)
        if warned:
            at_prompt(term, "session refresh")
        logout = run_snm("-c", "logout", env=env)
        assert logout.returncode == 0, logout.stderr
        assert not path.exists()
        for statement in ("session refresh", "session refresh", "session show"):
            at_prompt(term, statement)
        shown = term.raw.decode(errors="replace").rsplit("session show", 1)[1]
        # Nothing written back: a new snm starts signed out, as the logout left it.
        assert not path.exists(), stored_user(path)
        after = run_snm("-c", "session show", env=env)
        assert after.returncode == 0 and after.stdout.startswith("not signed in"), after.stdout
        # A sign-in at the prompt is the file's again, and its refresh is kept there.
        at_prompt(term, "login")
        third = SIGNED_IN.findall(term.text())[-1]
        signed_in = json.loads(path.read_text())["session"]
        at_prompt(term, "session refresh")
        refreshed = json.loads(path.read_text())["session"]
        term.type("\\q\r")
        term.settle()
        seen = term.raw.decode(errors="replace").replace("\r\n", "\n")
    assert first in shown and second not in shown, shown
    assert third not in (first, second)
    assert signed_in["user"]["id"].lower() == third == refreshed["user"]["id"].lower()
    assert refreshed["refresh_token"] != signed_in["refresh_token"]
    other = (f"snm: warning: the saved session {path} now holds the session of anonymous user "
             f"{second}, who signed in elsewhere")
    removed = (f"snm: warning: the saved session {path} was removed (a 'logout' elsewhere) since "
               f"this shell read it: it stays signed in as anonymous user {first}, its session "
               "kept in memory until it ends ('login' here to save one again); a new snm starts "
               "signed out")
    assert (seen.count(other), seen.count(removed)) == ((1, 0) if warned else (0, 1)), seen


def test_the_prompt_removes_a_damaged_file_it_left_once_the_lock_is_free(project, home):
    """Started while another snm held the session lock, the prompt left a damaged file (rightly:
    the holder may be writing it) until the next start, every new snm meanwhile warned of it, a
    script failing on it. Its next statement tries again, under the lock and only if still
    damaged: removed then, and said; a sign-in elsewhere that replaced it meanwhile is left as
    it is, and the prompt stays signed out as it said."""
    env = env_for(project, home)
    assert run_snm("-c", "login", env=env).returncode == 0
    path = session_file(env)
    for elsewhere in (False, True):
        path.write_text('{"version": 1, "session": ')
        lock = os.open(path.with_suffix(".lock"), os.O_RDWR)
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            with PtyScreen([SNM], env=prompt_env(env), rows=50, columns=400) as term:
                term.wait_for(lambda t: t.text().endswith("snm anon@local>"))
                # Still held: left, and not said again.
                at_prompt(term, "session show")
                assert path.exists()
                os.close(lock)
                lock = None
                if elsewhere:
                    other = login_elsewhere(env)
                at_prompt(term, "session show")
                term.type("\\q\r")
                term.settle()
                seen = term.raw.decode(errors="replace").replace("\r\n", "\n")
        finally:
            if lock is not None:
                os.close(lock)
        left = (f"snm: warning: the saved session {path} is unreadable (not a valid session: not "
                "JSON; not removed: another snm holds its lock); sign in again with 'login'")
        removed = (f"snm: warning: the saved session {path} is unreadable (not a valid session: "
                   "not JSON; removed); sign in again with 'login'")
        assert seen.count(left) == 1, seen
        last = seen.rsplit("session show", 1)[1]
        assert "not signed in" in last, last
        if elsewhere:
            assert removed not in seen, seen
            assert stored_user(path) == other
            assert other not in last, last
        else:
            assert seen.count(removed) == 1 and removed in last, seen
            assert not path.exists()
