"""Output habits a psql or pandas user brings (issue 34): CSV lines end in LF (CRLF on request),
`\\x` cycles as psql's does from snm's default of auto, and `\\timing` leaves the pager's time out;
reports keep the failing exchange with its error code. The prompt's habits run at a real terminal
(tmux's pty).
"""
import json
import os
import re
import subprocess
import time
from xml.etree import ElementTree

import pytest

from conftest import SNM, run_snm
from test_hostile_server import HostileServer, json_answer
from test_shell_prompt import shell_env  # noqa: F401 (a fixture)
from tmux_shell import TmuxShell

QUERY = "from dog_profile select id, name order by id"


@pytest.fixture
def env(shell_env):
    return {**shell_env, "NO_COLOR": "1"}


def snm_bytes(env, *args):
    """Runs snm; returns (exit code, stdout bytes as written: text mode would turn CRLF into LF)."""
    result = subprocess.run([SNM, *args], capture_output=True, env={**os.environ, **env},
                            timeout=60)
    assert result.returncode == 0, result.stderr.decode()
    return result.stdout


def after(screen, typed):
    """What the screen shows after the last prompt line that typed `typed`."""
    return screen.rsplit("> " + typed, 1)[-1]


def test_csv_lines_end_in_lf_as_psql_and_pandas_write_them(env, tmp_path):
    stdout = snm_bytes(env, "--format", "csv", "-c", QUERY, "-c", QUERY)
    assert stdout == b"id,name\n1,Bori\n4,Max\n\nid,name\n1,Bori\n4,Max\n"
    out = tmp_path / "out.csv"
    result = run_snm("-c", f"{QUERY} > '{out}'", env=env)
    assert result.returncode == 0, result.stderr
    assert out.read_bytes() == b"id,name\n1,Bori\n4,Max\n"


def test_csv_crlf_gives_rfc_4180_line_ends_when_asked_for(env, tmp_path):
    stdout = snm_bytes(env, "--format", "csv", "--csv-crlf", "-c", QUERY, "-c", QUERY)
    assert stdout == b"id,name\r\n1,Bori\r\n4,Max\r\n\r\nid,name\r\n1,Bori\r\n4,Max\r\n"
    out = tmp_path / "out.csv"
    result = run_snm("--csv-crlf", "-c", f"{QUERY} > '{out}'", env=env)
    assert result.returncode == 0, result.stderr
    assert out.read_bytes() == b"id,name\r\n1,Bori\r\n4,Max\r\n"


def test_a_csv_field_that_reads_as_end_of_data_is_quoted_as_psql_quotes_it(env, project, tmp_path):
    # `\.` alone on a line ends the data for COPY ... FROM STDIN and psql's \copy: written bare,
    # a one-column file loaded back stopped there and dropped every row after it, silently.
    rows = [{"body": "first"}, {"body": "\\."}, {"body": "last"}]
    server = HostileServer(lambda head: json_answer(json.dumps(rows).encode()))
    try:
        out = tmp_path / "notes.csv"
        stdout = snm_bytes({**env, "SUPABASE_URL": server.url}, "--format", "csv", "-c",
                           f"from notes select body; from notes select body > '{out}'")
    finally:
        server.stopped = True
        server.listener.close()
    psql = ["psql", "-h", project.socket_dir, "-p", "5432", "-U", "postgres", "-d", "postgres"]
    expected = subprocess.run(
        [*psql, "--csv", "-c", "select * from (values ('first'), ('\\.'), ('last')) v(body)"],
        capture_output=True, timeout=60, check=True).stdout
    assert expected == b'body\nfirst\n"\\."\nlast\n'
    assert stdout == expected
    assert out.read_bytes() == expected
    loaded = subprocess.run(
        [*psql, "-At", "-c", "create temp table notes (body text)",
         "-c", f"\\copy notes from '{out}' csv header",
         "-c", "select string_agg(body, '|') from notes"],
        capture_output=True, text=True, timeout=60)
    assert loaded.returncode == 0, loaded.stderr
    assert loaded.stdout.splitlines()[-1] == "first|\\.|last"


def test_backslash_x_from_auto_cycles_on_off_on_and_auto_exists(env):
    with TmuxShell([SNM], env=env) as shell:
        shell.wait_for_prompt()
        seen = []
        for _ in range(3):
            screen = after(shell.run("\\x"), "\\x")
            seen.append(re.search(r"expanded display is (\w+)", screen).group(1))
        assert seen == ["on", "off", "on"], shell.screen()
        screen = after(shell.run("\\x auto"), "\\x auto")
        assert "expanded display is auto" in screen
        screen = after(shell.run("\\x"), "\\x")
        assert "expanded display is on" in screen
        screen = after(shell.run("\\x off"), "\\x off")
        assert "expanded display is off" in screen
        typed = "from dog_profile select id where id eq 1"
        screen = after(shell.run(typed), typed)
        assert "(1 row)" in screen and "-[ RECORD 1 ]" not in screen


def test_timing_leaves_out_the_time_the_pager_held_the_rows(env, tmp_path):
    opened, release = tmp_path / "opened", tmp_path / "release"
    pager = tmp_path / "pager.sh"
    pager.write_text(f"#!/bin/sh\ntouch '{opened}'\n"
                     f"while [ ! -e '{release}' ]; do sleep 0.05; done\ncat\n")
    pager.chmod(0o755)
    held = 2.0
    with TmuxShell([SNM], env={**env, "PAGER": str(pager)}, height=12) as shell:
        shell.wait_for_prompt()
        shell.run("\\timing on")
        shell.run("\\x on")
        shell.type("from dog_profile select *")
        shell.press("Enter")
        deadline = time.monotonic() + 15
        while not opened.exists():
            assert time.monotonic() < deadline, shell.screen()
            time.sleep(0.02)
        # The reader keeps the pager open this long: none of it is snm's rendering.
        time.sleep(held)
        release.touch()
        screen = shell.wait_for(lambda s: re.search(r"Time: network .*, rendering ([\d.]+) ms", s))
        rendering = float(re.search(r"rendering ([\d.]+) ms", screen).group(1))
        assert rendering < held * 1000, screen


# --- traces in reports --------------------------------------------------------------------------

def test_a_report_keeps_the_failing_exchange_and_its_error_code_after_the_defers(env, tmp_path):
    cleanups = "".join(f"defer from dog_profile select id where id eq {n}\n" for n in range(8))
    script = tmp_path / "cleanup.snm"
    script.write_text(cleanups + 'from dog_profile insert {"name": "Nope"}\n')
    junit, tap = tmp_path / "r.xml", tmp_path / "r.tap"
    result = run_snm("test", str(script), "--report", f"junit={junit}", "--report", f"tap={tap}",
                     env=env)
    assert result.returncode == 1, result.stdout + result.stderr
    # (TAP quotes each line: its quotes read as \")
    for text in (ElementTree.parse(junit).find(".//system-out").text,
                 tap.read_text().replace('\\"', '"')):
        before, _, after_failure = text.partition("--- after the failure ---")
        assert "> POST /rest/v1/dog_profile" in before, text
        # An error code is what the reader needs; it is no secret.
        assert '"code":"42501"' in before and '"code":"********"' not in text, text
        assert "> GET /rest/v1/dog_profile?select=id&id=eq.0" in after_failure, text


# --- \i runs a script ---------------------------------------------------------------------------

def test_backslash_i_at_the_prompt_stops_at_the_first_failure_and_names_its_line(env, tmp_path):
    script = tmp_path / "steps.snm"
    script.write_text("echo 'step one'\nfrom no_such_table select id\necho 'step three'\n")
    with TmuxShell([SNM], env=env) as shell:
        shell.wait_for_prompt()
        typed = f"\\i {script}"
        screen = after(shell.run(typed), typed)
        assert "step one" in screen, screen
        assert f"{script}:2:1: error: statement failed: from no_such_table select id" in screen
        assert "step three" not in screen, screen
        # The shell goes on.
        screen = after(shell.run("echo 'still here'"), "echo 'still here'")
        assert "still here" in screen


# --- errors that leave a user stuck -------------------------------------------------------------

class FakeProject:
    """A Supabase-like server on a free loopback port: `routes` maps a path (without the query)
    to (status, headers, body)."""

    def __init__(self, routes):
        import http.server
        import threading
        fake = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                status, headers, body = fake.routes.get(
                    self.path.split("?")[0], (404, {}, b'{"message":"not found"}'))
                self.send_response(status)
                for name, value in {"Content-Type": "application/json", **headers}.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.routes = routes
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


def fake_env(env, fake):
    return {**env, "SUPABASE_URL": fake.url}


def test_tables_from_a_stale_cache_say_so_and_from_when(env, project):
    import urllib.request
    request = urllib.request.Request(project.rest_url + "/", headers=project.headers())
    with urllib.request.urlopen(request) as response:
        document = response.read()
    fake = FakeProject({"/rest/v1/": (200, {"Content-Type": "application/openapi+json"}, document)})
    try:
        fresh = run_snm("-c", "tables", env=fake_env(env, fake))
        assert fresh.returncode == 0 and "dog_profile" in fresh.stdout, fresh.stderr
        assert "cached" not in fresh.stderr
    finally:
        fake.stop()
    for statement in ("tables", "describe dog_profile"):
        stale = run_snm("-c", statement, env=fake_env(env, fake))
        assert "dog_profile" in stale.stdout or "owner" in stale.stdout, stale.stdout
        assert re.search(r"could not be reached .*: showing the schema cached (just now|\d+ minutes? "
                         r"ago) \(\d{4}-\d\d-\d\d \d\d:\d\d UTC\)", stale.stderr), stale.stderr
        assert stale.returncode == 3, stale.stderr


def test_a_schema_refused_to_the_key_says_why_tables_is_short(env):
    fake = FakeProject({
        "/rest/v1/": (401, {}, b'{"message":"Unauthorized"}'),
        "/rest/v1/dog_profile": (200, {}, b'[{"id":1}]'),
    })
    try:
        result = run_snm("-c", "tables", "-c", "from dog_profile select id", "-c", "tables",
                         env=fake_env(env, fake))
    finally:
        fake.stop()
    assert result.returncode == 0, result.stderr
    first, _, second = result.stderr.partition("\n")
    assert "cannot read the project's schema" in first and "HTTP 401" in first, result.stderr
    assert "secret key" in first and "publishable" in first
    assert "no tables seen in results yet" in first
    assert "showing the tables seen in results" in second and "dog_profile" in result.stdout


def test_a_429_says_which_limit_when_to_retry_and_how_to_raise_it(env):
    fake = FakeProject({"/rest/v1/dog_profile": (
        429, {"Retry-After": "7"}, b'{"message":"Too many requests"}')})
    try:
        result = run_snm("-c", "from dog_profile select id", env=fake_env(env, fake))
    finally:
        fake.stop()
    assert result.returncode == 1, result.stderr
    assert "error (HTTP 429)" in result.stderr
    assert "advice:" in result.stderr and "retry in 7 s (Retry-After)" in result.stderr


@pytest.mark.parametrize("sent, advice", [
    ("-5", "the server's Retry-After is neither a delay in seconds nor a date ('-5'): wait and retry"),
    ("abc", "the server's Retry-After is neither a delay in seconds nor a date ('abc'): wait and retry"),
    ("7.5", "the server's Retry-After is neither a delay in seconds nor a date ('7.5'): wait and retry"),
    ("99999999999999999999999", "the server's Retry-After asks for a wait of more than a day "
                                "(99999999999999999999999 s): wait and retry"),
    ("86401", "the server's Retry-After asks for a wait of more than a day (86401 s): wait and retry"),
    ("Sun, 06 Nov 2044 08:49:37 GMT", "retry after Sun, 06 Nov 2044 08:49:37 GMT (Retry-After)"),
    ("x" * 100, "the server's Retry-After is neither a delay in seconds nor a date ('" + "x" * 40
                + "...'): wait and retry"),
])
def test_a_429s_retry_after_is_advice_only_in_rfc_9110s_two_forms(env, sent, advice):
    """A delay is 1*DIGIT (RFC 9110 10.2.3), else an HTTP date: a server's -5, a fraction, a word or a
    wait of years is not passed on as 'retry in -5 s'."""
    fake = FakeProject({"/rest/v1/dog_profile": (
        429, {"Retry-After": sent}, b'{"message":"Too many requests"}')})
    try:
        result = run_snm("-c", "from dog_profile select id", env=fake_env(env, fake))
    finally:
        fake.stop()
    assert result.returncode == 1, result.stderr
    assert "advice:" in result.stderr and advice in result.stderr, result.stderr


@pytest.fixture(scope="module")
def limited(start_extra_project):
    """A project with GoTrue's default Auth rate limits (30 sign-ins at once per address)."""
    return start_extra_project("habits-limited", auth_rate_limits=True)


def test_an_auth_429_names_the_limit_and_the_local_option_that_raises_it(env, limited, tmp_path):
    script = tmp_path / "many.snm"
    script.write_text("set on_error continue\n" + "login email 'alice@example.com' password "
                      "'not-her-password'\n" * 60)
    result = run_snm(str(script), env={**env, "SUPABASE_URL": limited.url,
                                       "SUPABASE_ANON_KEY": limited.anon_key})
    # 30 at once, then one each 2 s: 60 tries meet the limit unless they take a minute.
    assert "answered 429" in result.stderr, result.stderr
    advice = result.stderr[result.stderr.index("answered 429"):]
    assert "advice: the project limits sign-ins and token refreshes" in advice, advice
    # The local Auth server says when its bucket holds a token again (one each 2 s).
    assert re.search(r"retry in [12] s \(Retry-After\)", advice), advice
    assert "snm local start --auth-rate-limit token_refresh=" in advice


# --- sessions for other tools -------------------------------------------------------------------

def test_session_token_prints_the_access_token_for_another_client(env, project, tmp_path):
    import json
    import urllib.request
    signed_out = run_snm("session", "token", env=env)
    assert signed_out.returncode == 3 and signed_out.stdout == "", signed_out
    assert "not signed in" in signed_out.stderr
    login = run_snm("-c", "login email 'alice@example.com' password 'password123'", env=env)
    assert login.returncode == 0, login.stderr
    result = run_snm("session", "token", env=env)
    assert result.returncode == 0, result.stderr
    token = result.stdout.strip()
    assert run_snm("-c", "session token", env=env).stdout.strip() == token
    assert re.fullmatch(r"eyJ[\w-]+\.[\w-]+\.[\w-]+", token), result.stdout
    request = urllib.request.Request(project.auth_url + "/user", headers={
        "apikey": project.anon_key, "Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request) as response:
        assert json.load(response)["email"] == "alice@example.com"
    # snm's own reports of a run never hold it.
    script = tmp_path / "t.snm"
    script.write_text("login email 'alice@example.com' password 'password123'\nsession token\n"
                      "expect 1 == 2\n")
    junit = tmp_path / "r.xml"
    tested = run_snm("test", "--verbose", str(script), "--report", f"junit={junit}", env=env)
    assert tested.returncode == 1, tested.stderr
    for text in (tested.stdout, tested.stderr, junit.read_text()):
        assert not re.search(r"eyJ[\w-]{10,}\.[\w-]+\.", text), text


def test_session_token_at_the_prompt_is_never_kept_in_the_history(env, tmp_path):
    with TmuxShell([SNM], env=env) as shell:
        shell.wait_for_prompt()
        shell.run("login email 'alice@example.com' password 'password123'")
        screen = after(shell.run("session token"), "session token")
        # (the terminal wraps the long token)
        assert re.search(r"eyJ[\w-]+\.[\w-]+\.", screen.replace("\n", "")), screen
        shell.run("echo 'after'")
    history = (tmp_path / "state" / "snm" / "history").read_text()
    assert "echo 'after'" in history and "session token" not in history
