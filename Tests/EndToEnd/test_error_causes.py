"""Errors named for their cause (issue 16, item 5): a refused key, a timeout and a session the
server ended each say what happened, not "could not reach the project"; the exit code stays 3
(README: "the project could not be reached, or signing in failed"). The same over the https front
is in test_tls_front.py.
"""
import time

import httpx
import pytest

from conftest import run_snm, start_project

WRONG_KEY = "sb_publishable_wrongwrongwrongwrongwr_abcdefgh"
QUERY = "from dog_profile select id limit 1"


def env_for(project, tmp_path, key=None):
    return {"SUPABASE_URL": project.url, "SUPABASE_ANON_KEY": key or project.anon_key,
            "XDG_STATE_HOME": str(tmp_path / "state"), "XDG_CACHE_HOME": str(tmp_path / "cache"),
            "XDG_CONFIG_HOME": str(tmp_path / "config"), "NO_COLOR": "1"}


def test_a_refused_key_says_so(project, tmp_path):
    env = env_for(project, tmp_path, key=WRONG_KEY)
    script = tmp_path / "key.snm"
    script.write_text(f"{QUERY}\n")
    for args, where in ((["-c", QUERY], "-c:1:1"), ([str(script)], f"{script}:1:1")):
        result = run_snm(*args, env=env)
        assert result.returncode == 3, result.stderr
        assert f"{where}: error: the project refused the API key: {QUERY}\n" in result.stderr
        assert "error (HTTP 401): Invalid API key" in result.stderr
        assert "could not reach" not in result.stderr
        assert WRONG_KEY not in result.stderr + result.stdout


def test_a_sign_in_with_a_refused_key_says_so(project, tmp_path):
    login = "login email 'alice@example.com' password 'password123'"
    result = run_snm("-c", login, env=env_for(project, tmp_path, key=WRONG_KEY))
    assert result.returncode == 3, result.stderr
    assert ("-c:1:1: error: the project refused the API key: login email 'alice@example.com' "
            "password '********'") in result.stderr
    assert "401: Invalid API key" in result.stderr
    wrong_password = run_snm("-c", "login email 'alice@example.com' password 'nope-nope'",
                             env=env_for(project, tmp_path))
    assert wrong_password.returncode == 3
    assert "-c:1:1: error: sign-in failed: " in wrong_password.stderr  # the key was fine


def test_a_timeout_names_its_seconds(project, tmp_path):
    statement = 'rpc sleep_for {"seconds": 2.5}'
    # A run that waited for the answer (2.5 s) would print it, not the timeout: no clock needed.
    result = run_snm("--timeout", "1", "-c", statement, env=env_for(project, tmp_path))
    assert result.returncode == 3, result.stderr
    assert f"-c:1:1: error: timed out after 1 s: {statement}\n" in result.stderr
    assert "within 1 s (timed out)" in result.stderr
    assert "could not reach" not in result.stderr
    fraction = run_snm("--timeout", "0.5", "-c", statement, env=env_for(project, tmp_path))
    assert "-c:1:1: error: timed out after 0.5 s: " in fraction.stderr


@pytest.fixture(scope="module")
def short_project(snm_bin, workdir):
    handle = start_project("causes-short", "--jwt-expiry", "3")
    yield handle
    handle.stop()


def test_a_session_the_server_ended_says_so(short_project, tmp_path):
    env = env_for(short_project, tmp_path)
    signed_in = run_snm("-c", "login email 'alice@example.com' password 'password123'", env=env)
    assert signed_in.returncode == 0, signed_in.stderr
    # Alice signs out everywhere from another device: snm's refresh token dies with it.
    other = httpx.post(f"{short_project.auth_url}/token?grant_type=password",
                       headers=short_project.headers(),
                       json={"email": "alice@example.com", "password": "password123"}, timeout=30)
    assert other.status_code == 200, other.text
    out = httpx.post(f"{short_project.auth_url}/logout?scope=global",
                     headers=short_project.headers(token=other.json()["access_token"]), timeout=30)
    assert out.status_code == 204, out.text
    time.sleep(3.5)  # snm's access token expires: the next statement must refresh
    result = run_snm("-c", QUERY, env=env)
    assert result.returncode == 3, result.stderr
    assert f"-c:1:1: error: the session ended on the server: {QUERY}\n" in result.stderr
    assert "could not reach" not in result.stderr
    assert "sign in again with 'login'" in result.stderr
    after = run_snm("-c", "session show", env=env)
    assert after.stdout.startswith("not signed in"), after.stdout + after.stderr
