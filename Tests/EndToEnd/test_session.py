"""Sign-in and the session, end to end: the built snm against real local projects.

Each test gets its own XDG state/config/cache directories, so sessions never leak between tests or
into the user's home. The projects are this module's own (free ports, fresh data), started with
`--refresh-reuse-interval 0`, so a refresh token spent twice is an error the test sees instead of
something the server quietly forgives.
"""
import io
import json
import os
import pathlib
import re
import stat
import subprocess
import time
import uuid

import pytest

from conftest import SNM, WORKDIR, free_port, run_snm, start_on_port, start_project

UUID_RE = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"


def start_session_project(name, *flags):
    """A project of this module's own (conftest's start_project), warmed by one request."""
    project = start_project(name, "--refresh-reuse-interval", "0", *flags)
    # One request first: a gateway whose very first requests arrive eight at once has been
    # seen to answer none of them (a local-gateway problem, reported; not what this tests).
    scratch = str(project.data_dir) + "-client"
    warm = run_snm("-c", "from user_info select id limit 1",
                   env={"SUPABASE_URL": project.url, "SUPABASE_ANON_KEY": project.anon_key,
                        "XDG_STATE_HOME": scratch, "XDG_CACHE_HOME": scratch,
                        "XDG_CONFIG_HOME": scratch})
    assert warm.returncode == 0, warm.stderr
    return project


def sql(project, query):
    """Runs `query` with psql as the cluster's superuser (LocalProject.sql)."""
    return project.sql(query)


class StatementLog:
    """Counts statements the project's Postgres runs, from its own log: `log_statement = all`
    for the duration, then the lines written meanwhile."""

    def __init__(self, project):
        self.project = project
        self.path = pathlib.Path(project.status["cluster_dir"]) / "postgres.log"

    def __enter__(self):
        sql(self.project, "alter system set log_statement = 'all'")
        sql(self.project, "select pg_reload_conf()")
        self.offset = self.path.stat().st_size
        return self

    def __exit__(self, *exc):
        sql(self.project, "alter system reset log_statement")
        sql(self.project, "select pg_reload_conf()")

    def count(self, *fragments):
        with open(self.path, "rb") as log:
            log.seek(self.offset)
            lines = log.read().decode(errors="replace").splitlines()
        return sum(1 for line in lines if all(f in line for f in fragments))


class Client:
    """snm runs against one project with private XDG directories; remembers every output."""

    def __init__(self, project, home):
        self.project = project
        self.home = home
        self.outputs = []
        self.env = {
            "SUPABASE_URL": project.url, "SUPABASE_ANON_KEY": project.anon_key,
            "XDG_STATE_HOME": str(home / "state"), "XDG_CONFIG_HOME": str(home / "config"),
            "XDG_CACHE_HOME": str(home / "cache"), "HOME": str(home), "NO_COLOR": "1",
        }

    def run(self, statements, env=None, timeout=60):
        result = run_snm("-c", statements, env={**self.env, **(env or {})}, timeout=timeout)
        self.outputs += [result.stdout, result.stderr]
        return result

    def spawn(self, statements):
        full = dict(os.environ, **self.env)
        return subprocess.Popen([SNM, "-c", statements], env=full, text=True,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)

    @property
    def state_dir(self):
        return self.home / "state" / "snm"

    def session_files(self):
        return sorted(self.state_dir.glob("session-*.json")) if self.state_dir.exists() else []

    def stored(self):
        files = self.session_files()
        assert len(files) == 1, files
        return json.loads(files[0].read_text())["session"]

    def assert_no_secret_leaked(self, *secrets):
        """No token or password in any output, nor in any file but the session file itself."""
        session_files = set(self.session_files())
        for secret in secrets:
            assert secret
            for text in self.outputs:
                assert secret not in text
            for path in self.home.rglob("*"):
                if path.is_file() and path not in session_files:
                    assert secret.encode() not in path.read_bytes(), path


@pytest.fixture(scope="module")
def basic_project(snm_bin):
    """Tokens that live an hour, as on Supabase."""
    project = start_session_project("session-basic")
    yield project
    project.stop()


@pytest.fixture
def client(basic_project, tmp_path):
    return Client(basic_project, tmp_path)


@pytest.fixture(scope="module")
def short_project(snm_bin):
    """Tokens that live 5 s; a spent refresh token is never forgiven."""
    project = start_session_project("session-short", "--jwt-expiry", "5")
    yield project
    project.stop()


@pytest.fixture(scope="module")
def crowd_project(snm_bin):
    """Tokens that live 20 s (inside the 30 s margin from the start); no reuse forgiven."""
    project = start_session_project("session-crowd", "--jwt-expiry", "20")
    yield project
    project.stop()


def test_login_then_session_show_in_a_second_process(client):
    login = client.run("login")
    assert login.returncode == 0, login.stderr
    user_id = re.fullmatch(rf"signed in anonymously as ({UUID_RE})\n", login.stdout).group(1)

    show = client.run("session show")
    assert show.returncode == 0, show.stderr
    assert f"user_id     {user_id}\n" in show.stdout
    assert "role        authenticated\n" in show.stdout
    assert "anonymous   yes\n" in show.stdout
    assert re.search(r"expires_at  \S+Z \(in \d+m \d+s\)", show.stdout)

    shown = run_snm("--format", "json", "-c", "session show", env=client.env)
    client.outputs += [shown.stdout, shown.stderr]
    as_json = json.loads(shown.stdout)
    assert as_json["user_id"] == user_id and as_json["is_anonymous"] is True
    assert "access_token" not in as_json

    stored = client.stored()
    path = client.session_files()[0]
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(client.state_dir.stat().st_mode) == 0o700
    client.assert_no_secret_leaked(stored["access_token"], stored["refresh_token"])


def test_signup_then_password_login_from_the_environment(client):
    email = f"e2e-{uuid.uuid4().hex[:8]}@example.com"
    password = "pw-" + uuid.uuid4().hex
    signup = client.run(f"signup email '{email}' password $env.SNM_PW", env={"SNM_PW": password})
    assert signup.returncode == 0, signup.stderr
    assert signup.stdout == f"signed up and signed in as {email}\n"

    assert client.run("logout").stdout == "signed out\n"
    assert client.session_files() == []
    assert "not signed in" in client.run("session show").stdout

    wrong = client.run(f"login email '{email}' password 'not-{password}'")
    assert wrong.returncode == 3
    assert "Invalid login credentials (invalid_credentials)" in wrong.stderr

    login = client.run(f"login email '{email}' password $env.SNM_PW", env={"SNM_PW": password})
    assert login.returncode == 0, login.stderr
    assert login.stdout == f"signed in as {email}\n"
    check = client.run("session check")
    assert re.fullmatch(
        rf"signed in as {re.escape(email)} \(authenticated\) with email, aal1, \d+m \d+s left\n",
        check.stdout)
    stored = client.stored()
    client.assert_no_secret_leaked(password, stored["access_token"], stored["refresh_token"])


def test_a_corrupt_session_file_is_reported_then_login_works(client):
    assert client.run("login").returncode == 0
    path = client.session_files()[0]
    path.write_text('{"version": 1, "session": ')
    show = client.run("session show")
    assert show.returncode == 0
    assert f"the saved session {path} is unreadable" in show.stderr
    assert "not signed in" in show.stdout
    again = client.run("login")
    assert again.returncode == 0, again.stderr
    assert "anonymous   yes" in client.run("session show").stdout


def test_a_project_started_on_a_port_another_used_is_not_signed_in_as_its_user(tmp_path):
    """Local projects served in turn on one port are different projects: the session stored for
    the first is not the second's (issue 43: keyed by the URL alone, the second project's shell
    showed the first project's user as signed in and sent its token). The file stays named by the
    URL and keeps SHA-256 marks of the keys it was signed in with."""
    first = start_on_port(WORKDIR / "projects" / "session-port-first", free_port())
    try:
        client = Client(first, tmp_path)
        login = client.run("login")
        assert login.returncode == 0, login.stderr
        user_id = re.fullmatch(rf"signed in anonymously as ({UUID_RE})\n", login.stdout).group(1)
    finally:
        first.stop()
    second = start_on_port(WORKDIR / "projects" / "session-port-second", first.port)
    try:
        assert second.url == first.url and second.anon_key != first.anon_key
        other = Client(second, tmp_path)
        show = other.run("session show")
        assert show.returncode == 0 and show.stderr == "", show.stderr
        assert show.stdout.startswith("not signed in"), show.stdout
        # The file is still the first project's, kept with marks of its keys, never the keys.
        assert f"user_id     {user_id}\n" in client.run("session show").stdout
        [stored] = other.session_files()
        assert stat.S_IMODE(stored.stat().st_mode) == 0o600
        assert first.anon_key not in stored.read_text() and second.anon_key not in stored.read_text()
        login = other.run("login")
        assert login.returncode == 0, login.stderr
        assert user_id not in login.stdout
        second_id = re.fullmatch(rf"signed in anonymously as ({UUID_RE})\n", login.stdout).group(1)
        # One file per URL: the second project's session replaced the first's, which the first
        # project's keys do not load as theirs.
        assert len(other.session_files()) == 1
        assert f"user_id     {second_id}\n" in other.run("session show").stdout
        assert client.run("session show").stdout.startswith("not signed in")
    finally:
        second.stop()


def test_a_statement_after_the_token_expired_works_through_a_refresh(short_project, tmp_path):
    client = Client(short_project, tmp_path)
    assert client.run("login").returncode == 0
    before = client.stored()
    time.sleep(6)  # the 5 s token is now expired
    query = client.run("from user_info select id limit 1")
    assert query.returncode == 0, query.stderr
    assert "(1 row)" in query.stdout
    after = client.stored()
    assert after["refresh_token"] != before["refresh_token"]
    assert after["user"]["id"] == before["user"]["id"]
    client.assert_no_secret_leaked(before["access_token"], before["refresh_token"],
                                   after["access_token"], after["refresh_token"])


def test_a_spent_refresh_token_signs_out_with_a_clear_message(short_project, tmp_path):
    client = Client(short_project, tmp_path)
    assert client.run("login").returncode == 0
    path = client.session_files()[0]
    old = path.read_bytes()
    for _ in range(2):  # two refreshes: the first token is now two generations old
        time.sleep(4.2)  # under 1 s left: refreshed before use
        check = client.run("session check")
        assert check.returncode == 0, check.stderr
        assert "(refreshed)" in check.stdout
    path.write_bytes(old)  # as if an old copy of the file came back
    check = client.run("session check")
    assert check.returncode == 3
    assert "session ended on the server (refresh_token_already_used)" in check.stderr
    assert "sign in again with 'login'" in check.stderr
    # The file is the mark that the server ended the session (test_session_ended.py), no token.
    [marked] = client.session_files()
    assert json.loads(marked.read_text())["ended"]["code"] == "refresh_token_already_used"
    assert "not signed in" in client.run("session show").stdout


def test_eight_processes_on_one_expiring_session_refresh_once(crowd_project, tmp_path):
    client = Client(crowd_project, tmp_path)
    assert client.run("login").returncode == 0
    first = client.stored()
    time.sleep(10.5)  # 20 s token, 9.5 s left: inside the margin and no longer fresh
    with StatementLog(crowd_project) as log:
        processes = [client.spawn("from user_info select id limit 1") for _ in range(8)]
        results = [(p.wait(timeout=120), *p.communicate()) for p in processes]
        time.sleep(0.5)  # let the log catch up
        # Every refresh_token grant locks its token row first (SNMLocal AuthGateway+Token).
        grants = log.count("from auth.refresh_tokens", "for update")
    for code, out, err in results:
        client.outputs += [out, err]
        assert code == 0, err
        assert "(1 row)" in out
    assert grants == 1
    last = client.stored()
    assert last["refresh_token"] != first["refresh_token"]
    tokens = sql(crowd_project, 
        "select count(*) from auth.refresh_tokens where user_id = '%s'" % first["user"]["id"])
    assert tokens == "2", tokens  # the sign-in's token and the one refresh
    client.assert_no_secret_leaked(first["access_token"], first["refresh_token"],
                                   last["access_token"], last["refresh_token"])


def test_at_a_terminal_the_password_is_asked_without_echo(client):
    import pexpect

    email = f"tty-{uuid.uuid4().hex[:8]}@example.com"
    password = "pw-" + uuid.uuid4().hex
    assert client.run(f"signup email '{email}' password $env.SNM_PW",
                      env={"SNM_PW": password}).returncode == 0
    assert client.run("logout").returncode == 0

    transcript = io.StringIO()
    shell = pexpect.spawn(SNM, env=dict(os.environ, **client.env, TERM="xterm"),
                          encoding="utf-8", timeout=30, dimensions=(24, 120))
    shell.logfile_read = transcript
    shell.expect_exact("snm anon@local> ")
    shell.sendline(f"login email '{email}'")
    shell.expect_exact(f"password for {email}: ")
    shell.sendline(password)
    shell.expect_exact(f"signed in as {email}")
    shell.expect_exact(f"snm {email.split('@')[0]}@local> ")
    shell.sendline("session show")
    shell.expect_exact("anonymous   no")
    shell.sendline("exit")
    shell.expect(pexpect.EOF)
    shell.close()
    assert shell.exitstatus == 0
    client.outputs.append(transcript.getvalue())
    stored = client.stored()
    client.assert_no_secret_leaked(password, stored["access_token"], stored["refresh_token"])
