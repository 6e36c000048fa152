"""A stored session that is there but cannot be used (damaged, not a file, in a folder others may
write in): a script, `-c` or a pipe that goes on with it fails (exit 3, the
path and why, never a token) rather than sending its requests signed out with the project's key.
A CI job that signs in through the stored session and then checks row-level-security rows passed
on anon's empty answers (snm warned, then ran as anon, exit 0). At the prompt the warning stays
and the shell goes on signed out, which its prompt shows (README).

The server is test_hostile_server's: a sign-in gets a session, a read gets `[]`, and every request
head is kept to show that nothing went out signed out.
"""
import json
import os
import pathlib
import stat

import pytest

from conftest import run_snm
from test_hostile_server import HostileServer, json_answer, session_body

TOKEN = "header.eyJyb2xlIjoiYXV0aGVudGljYXRlZCJ9.sig"


class Recording(HostileServer):
    def __init__(self):
        self.heads = []
        super().__init__(self.answer_for)

    def answer_for(self, head):
        self.heads.append(head)
        if "/auth/v1/token" in head.split("\r\n", 1)[0]:
            return json_answer(session_body(access_token=TOKEN))
        return json_answer(b"[]")

    def reads(self):
        return [head for head in self.heads if "/rest/v1/" in head.split("\r\n", 1)[0]]


def signed_in(server, home, key="the-anon-key"):
    login = run_snm("--url", server.url, "--key", key, "-c",
                    "login email 'kim@example.com' password 'pw'", env=home)
    assert login.returncode == 0, login.stderr
    [path] = list(pathlib.Path(home["XDG_STATE_HOME"]).rglob("session-*.json"))
    return path


def damage(way, path):
    """Makes the stored session at `path` unusable `way`; the words the failure says why with."""
    if way == "not JSON":
        path.write_text('{"version": 1, "session": ')
        return f"the saved session {path} is unreadable (not a valid session: not JSON)"
    if way == "neither a session nor the mark":
        path.write_text(json.dumps({"version": 1, "project": json.loads(path.read_text())["project"]}))
        return (f"the saved session {path} is unreadable (not a valid session: it holds neither a "
                "session nor the mark that the server ended one)")
    if way == "a folder":
        path.unlink()
        path.mkdir()
        return f"the saved session {path} is unreadable (is a directory)"
    if way == "another project's":
        return (f"the saved session {path} was signed in to another project served at this URL "
                "before (its keys differ)")
    if way == "a folder others may write in":
        os.chmod(path.parent, 0o777)
        return f"refusing {path.parent}: others may write in it"
    raise AssertionError(way)


WAYS = ["not JSON", "neither a session nor the mark", "a folder", "a folder others may write in"]
MODES = ["-c", "--session shared FILE", "a pipe"]


def run_as(mode, server, home, tmp_path, key, text):
    base = ("--url", server.url, "--key", key)
    if mode == "-c":
        return run_snm(*base, "-c", text, env=home)
    if mode == "a pipe":
        return run_snm(*base, input=text + "\n", env=home)
    script = tmp_path / "rls.snm"
    script.write_text(text + "\n")
    return run_snm(*base, "--session", "shared", str(script), env=home)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("way", WAYS)
def test_a_stored_session_that_cannot_be_used_fails_the_script_not_runs_it_as_anon(
        home, tmp_path, way, mode):
    server = Recording()
    try:
        path = signed_in(server, home)
        why = damage(way, path)
        key = "another-anon-key" if way == "another project's" else "the-anon-key"
        run = run_as(mode, server, home, tmp_path, key, "from todos select id")
        assert run.returncode == 3, (run.returncode, run.stdout, run.stderr)
        assert why in run.stderr, run.stderr
        assert "error: the saved session could not be used" in run.stderr, run.stderr
        assert "nothing is sent signed out in its place" in run.stderr, run.stderr
        assert server.reads() == [], server.reads()
        assert TOKEN not in run.stdout + run.stderr and "refresh-1" not in run.stderr
    finally:
        if path.parent.exists():
            os.chmod(path.parent, 0o700)
        server.stop()


@pytest.mark.parametrize("way", ["not JSON", "neither a session nor the mark"])
def test_a_damaged_session_fails_every_run_until_logout_not_the_first_alone(
        project, home, tmp_path, way):
    """The first run that met a damaged session file failed (exit 3) and removed it, so the same
    script run again went on signed out as anon and passed (exit 0) on what anon may read. The
    file stays where a script met it: every run fails on it until `logout` removes it (or
    `login` replaces it); then a run goes on signed out, on purpose. Against the local project,
    signed in as a seeded user."""
    env = {**home, "SUPABASE_URL": project.url, "SUPABASE_ANON_KEY": project.anon_key}
    login = run_snm("-c", "login email 'alice@example.com' password 'password123'", env=env)
    assert login.returncode == 0, login.stderr
    [path] = list(pathlib.Path(home["XDG_STATE_HOME"]).rglob("session-*.json"))
    why = damage(way, path)
    damaged = path.read_text()
    script = tmp_path / "rls.snm"
    script.write_text("from dog_profile select id\n")
    runs = {"-c": ["-c", "from dog_profile select id"], "a pipe": [],
            "--session shared FILE": ["--session", "shared", str(script)]}
    seen = []
    for mode in MODES * 2:
        run = run_snm(*runs[mode], input="from dog_profile select id\n" if mode == "a pipe"
                      else None, env=env)
        assert run.returncode == 3, (len(seen) + 1, mode, run.returncode, run.stdout, run.stderr)
        assert run.stdout == "", (mode, run.stdout)
        seen.append(run)
    for run in seen:
        assert why in run.stderr and "; removed" not in run.stderr, run.stderr
    assert path.read_text() == damaged
    out = run_snm("-c", "logout", env=env)
    assert out.returncode == 0, out.stderr
    assert not path.exists()
    after = run_snm("-c", "from dog_profile select id", env=env)
    assert after.returncode == 0 and "warning" not in after.stderr, after.stderr
    assert "rows)" in after.stdout or "(1 row)" in after.stdout, after.stdout


@pytest.mark.parametrize("way", WAYS)
def test_session_show_and_check_in_a_script_say_why_requests_fail(home, tmp_path, way):
    """`session show` in a script said `not signed in (requests use the project's API key, role
    anon)` over a stored session that could not be used, and `session check` said `not signed
    in; use 'login' ...`, where the script's next request fails (exit 3) rather than go as anon:
    both say why, and that nothing is sent signed out in its place (json too)."""
    server = Recording()
    try:
        path = signed_in(server, home)
        why = damage(way, path)
        stops = "nothing is sent signed out in its place (run 'logout' first to go on signed out)"
        shown = run_as("-c", server, home, tmp_path, "the-anon-key", "session show")
        assert shown.returncode == 0, shown.stderr
        assert shown.stdout.startswith("not signed in: " + why), shown.stdout
        assert shown.stdout.endswith(stops + "\n"), shown.stdout
        line = shown.stdout[len("not signed in: "):-1]
        base = ("--url", server.url, "--key", "the-anon-key")
        shown = run_snm(*base, "--format", "json", "-c", "session show", env=home)
        assert shown.returncode == 0, shown.stderr
        assert json.loads(shown.stdout) == {
            "signed_in": False, "role": "anon", "stored_session_unusable": line}, shown.stdout
        checked = run_as("-c", server, home, tmp_path, "the-anon-key", "session check")
        assert checked.returncode == 3, checked.stderr
        assert why in checked.stderr and stops in checked.stderr, checked.stderr
        assert server.reads() == [], server.reads()
    finally:
        if path.parent.exists():
            os.chmod(path.parent, 0o700)
        server.stop()


def test_logout_or_login_first_lets_the_script_go_on(home, tmp_path):
    """What the message says to do works: `logout` goes on signed out on purpose, and a script
    that signs in itself is not stopped by the damaged file it replaces."""
    server = Recording()
    try:
        path = signed_in(server, home)
        path.write_text("{")
        first = run_as("-c", server, home, tmp_path, "the-anon-key", "from todos select id")
        assert first.returncode == 3, first.stderr
        path.write_text("{")
        out = run_as("-c", server, home, tmp_path, "the-anon-key",
                     "logout\nfrom todos select id")
        assert out.returncode == 0, out.stderr
        assert len(server.reads()) == 1 and TOKEN not in server.reads()[0]
        path.write_text("{")
        again = run_as("--session shared FILE", server, home, tmp_path, "the-anon-key",
                       "login email 'kim@example.com' password 'pw'\nfrom todos select id")
        assert again.returncode == 0, again.stderr
        assert f"Bearer {TOKEN}" in server.reads()[-1]
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
    finally:
        server.stop()
