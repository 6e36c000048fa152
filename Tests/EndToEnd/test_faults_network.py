"""The project out of reach or misbehaving: stopped, a wrong port, a host that does not resolve, a
server that never answers, a gateway killed while the answer streams. snm says which URL and why,
exits 3 within its timeout, at the prompt and in scripts, and never shows part of an answer as a
result. Ctrl-C (SIGINT) cancels a slow request."""
import base64
import json
import os
import pathlib
import signal
import socket
import subprocess
import time

import httpx
import pytest

from conftest import SNM, run_snm
from hardening import alive, gateway_pid, wait_until, worker_pid
from tmux_shell import TmuxShell

QUERY = "from user_info select id, name"


def jwt_role(key):
    """A legacy key's `role` claim; None for any other key."""
    parts = key.split(".")
    if len(parts) != 3:
        return None
    payload = parts[1] + "=" * (-len(parts[1]) % 4)
    return json.loads(base64.urlsafe_b64decode(payload)).get("role")


def env_for(tmp_path, url, key="not-a-real-key"):
    # Each key in its own kind's variable: a service_role key in SUPABASE_ANON_KEY is refused (a
    # client key's variable holding a server key), and an anon key in SUPABASE_SECRET_KEY alike.
    variable = "SUPABASE_ANON_KEY" if jwt_role(key) == "anon" else "SUPABASE_SECRET_KEY"
    return {"SUPABASE_URL": url, variable: key, "NO_COLOR": "1",
            "XDG_STATE_HOME": str(tmp_path / "state"), "XDG_CACHE_HOME": str(tmp_path / "cache"),
            "XDG_CONFIG_HOME": str(tmp_path / "config"), "PAGER": "cat"}


@pytest.fixture(scope="module")
def stopped_project(start_extra_project):
    """A project that ran once and was stopped: its URL and key are real, nothing listens."""
    handle = start_extra_project("faults-stopped")
    handle.stop()
    return handle


def unreachable_cases(stopped):
    return [
        ("stopped project", stopped.url, stopped.anon_key, "connection refused"),
        # Port 9 (discard): refused, and no data dir of snm's records it (a closed port may be the
        # one a stopped project of snm's recorded, which the message then names).
        ("wrong port", "http://127.0.0.1:9", stopped.anon_key,
         "connection refused"),
        ("host that does not resolve", "https://nonexistent-ref.supabase.invalid",
         "some-anon-key", "host not found"),
    ]


def test_unreachable_project_exits_3_with_the_url_and_the_cause(stopped_project, tmp_path):
    script = tmp_path / "reach.snm"
    script.write_text(f"echo 'before'\n{QUERY}\necho 'after'\n")
    for name, url, key, cause in unreachable_cases(stopped_project):
        env = env_for(tmp_path, url, key)
        runs, took = {}, {}
        for how, args, stdin in (("-c", ("-c", QUERY), None), ("script", (str(script),), None),
                                 ("stdin", (), f"{QUERY}\n")):
            started = time.monotonic()
            runs[how] = run_snm(*args, input=stdin, env=env, timeout=90)
            took[how] = time.monotonic() - started
        # Each run ends at the refusal, not at the default 30 s timeout.
        assert max(took.values()) < 25, f"{name}: {took}; the default timeout is 30 s"
        for how, result in runs.items():
            assert result.returncode == 3, (name, how, result.stderr)
            assert f"could not reach {url}/rest/v1/user_info" in result.stderr, (name, how)
            assert cause in result.stderr, (name, how, result.stderr)
            assert key not in result.stdout + result.stderr, f"{name}: the key is printed"
        assert runs["script"].stdout == "before\n", "the script stops at the failed statement"
        # A refused connection to this machine is a stopped local project when a data dir of
        # snm's records its port, and says how to start it; any other port there is only
        # "nothing answers" (every refused 127.0.0.1 port read as snm's project).
        headline = {"stopped project": f"the local project at {url} is not running",
                    "wrong port": f"nothing answers at {url}"}.get(name, "could not reach the project")
        assert f"{script}:2:1: error: {headline}: {QUERY}" in runs["script"].stderr
        if name == "stopped project":
            # Another stopped project of snm's on this machine may have recorded the same port:
            # then both are named.
            assert f"snm: {headline}: start it with: " in runs["-c"].stderr, runs["-c"].stderr
            assert (f"snm local start --dir '{stopped_project.data_dir}'"
                    in runs["-c"].stderr), runs["-c"].stderr
        else:
            assert "snm local start" not in runs["-c"].stderr, runs["-c"].stderr
        with_errors = run_snm("--continue-on-error", str(script), env=env, timeout=60)
        assert with_errors.returncode == 3 and with_errors.stdout == "before\nafter\n", name


def test_unreachable_project_at_the_prompt(stopped_project, tmp_path):
    url = stopped_project.url
    with TmuxShell([SNM], env=env_for(tmp_path, url, stopped_project.anon_key)) as shell:
        shell.wait_for_prompt()
        shell.type(QUERY)
        shell.press("Enter")
        screen = shell.wait_for_prompt(count=2)
        assert f"could not reach {url}/rest/v1/user_info" in screen
        assert "connection refused" in screen
        shell.type("echo 'still here'")
        shell.press("Enter")
        shell.wait_for_prompt(count=3)
        shell.press("C-d")
        screen = shell.wait_for_text("[snm exited")
        assert "still here" in screen, "the shell goes on after the failure"
        # Leaving the prompt with Ctrl-D is a normal end (0), as in psql; piped input ends with 3
        # (test_unreachable_project_exits_3_with_the_url_and_the_cause, "stdin").


@pytest.fixture
def silent_server():
    """Accepts connections and reads requests, never answers."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(16)
    yield f"http://127.0.0.1:{server.getsockname()[1]}"
    server.close()


def test_a_server_that_never_answers_times_out(silent_server, tmp_path):
    env = env_for(tmp_path, silent_server)
    started = time.monotonic()
    result = run_snm("--timeout", "2", "-c", QUERY, env=env, timeout=60)
    elapsed = time.monotonic() - started
    assert result.returncode == 3, result.stderr
    assert f"no answer from {silent_server}/rest/v1/user_info" in result.stderr
    assert "within 2 s (timed out)" in result.stderr
    assert 1.9 < elapsed < 25, f"--timeout 2 took {elapsed:.1f} s (the default is 30 s)"


def test_timeout_applies_to_a_slow_statement(project, tmp_path):
    env = env_for(tmp_path, project.url, project.anon_key)
    result = run_snm("--timeout", "1", "-c", 'rpc sleep_for {"seconds": 4}', env=env, timeout=60)
    assert result.returncode == 3, result.stderr
    assert "within 1 s (timed out)" in result.stderr
    fast = run_snm("--timeout", "5", "-c", 'rpc sleep_for {"seconds": 0.1}', env=env)
    assert fast.returncode == 0 and "0.1" in fast.stdout, fast.stderr


def test_sigint_cancels_a_slow_request_in_a_script(silent_server, tmp_path):
    """The server never answers and the request may wait five minutes: only Ctrl-C can end the
    run within the bound. (It slept in the local project, whose anon role's statement_timeout of
    3 s ends any sleep; and its bound of 5 s failed under a loaded run.)"""
    script = tmp_path / "slow.snm"
    script.write_text(f"echo 'start'\n{QUERY}\necho 'never'\n")
    process = subprocess.Popen(
        [SNM, "--timeout", "300", str(script)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True, env={**os.environ, **env_for(tmp_path, silent_server)})
    assert process.stdout.readline() == "start\n"
    time.sleep(1)
    sent = time.monotonic()
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=200)
    assert time.monotonic() - sent < 60, "Ctrl-C must not wait for the 300 s request"
    assert process.returncode == 130, err
    assert out == ""
    assert f"{script}:2:1" in err and "interrupted" in err


# ---- the gateway killed while the answer streams ---------------------------------------------

BIG_ROWS = 400
BIG_TEXT = 50_000


@pytest.fixture(scope="module")
def big_project(start_extra_project):
    """A project whose walk requests carry 400 messages of 50 kB: a 20 MB answer."""
    handle = start_extra_project("faults-big")
    service = handle.headers(key=handle.service_role_key)
    rows = [{"sender": "0c8e5f7a-6b9d-4f1e-9a3b-2d4c6e8f0a1b",
             "receiver": "1d9f6a8b-7cae-4a2f-8b4c-3e5d7f9a1b2c",
             "message": f"big-{index:04d}-" + "w" * BIG_TEXT} for index in range(BIG_ROWS)]
    with httpx.Client(timeout=120) as client:
        for start in range(0, BIG_ROWS, 100):
            response = client.post(f"{handle.rest_url}/walk_request", json=rows[start:start + 100],
                                   headers={**service, "Prefer": "return=minimal"})
            assert response.status_code == 201, response.text
    return handle


def sockets(filter_expression):
    """Established TCP sockets matching an `ss` filter: [(recv-q, send-q), ...]."""
    out = subprocess.run(["ss", "-tnH", "state", "established", filter_expression],
                         capture_output=True, text=True, check=True).stdout
    return [(int(line.split()[0]), int(line.split()[1])) for line in out.splitlines() if line]


def test_gateway_killed_mid_answer_is_reported_as_cut_off(big_project, tmp_path):
    project = big_project
    out_file, err_file = tmp_path / "out", tmp_path / "err"
    env = {**os.environ, **env_for(tmp_path, project.url, project.service_role_key)}
    with open(out_file, "w") as out, open(err_file, "w") as err:
        process = subprocess.Popen(
            [SNM, "--format", "json", "-c", "from walk_request select * where message like 'big-*'"],
            stdout=out, stderr=err, env=env)
        # Stop snm as soon as it is connected: the gateway fills the socket buffers and then blocks
        # writing the 20 MB answer. Kill it there, and let snm read what arrived.
        deadline = time.monotonic() + 30
        while not sockets(f"( dport = :{project.port} )"):
            assert time.monotonic() < deadline and process.poll() is None, "snm never connected"
            time.sleep(0.001)
        process.send_signal(signal.SIGSTOP)
        try:
            previous, steady = None, 0
            while steady < 20:
                assert time.monotonic() < deadline, "the gateway never blocked on the answer"
                queued = sockets(f"( sport = :{project.port} )")
                steady = steady + 1 if queued and queued == previous and queued[0][1] > 0 else 0
                previous = queued
                time.sleep(0.01)
            worker = worker_pid(project)
            os.kill(worker, signal.SIGKILL)
        finally:
            process.send_signal(signal.SIGCONT)
        assert process.wait(timeout=60) == 3
    stdout, stderr = out_file.read_text(), err_file.read_text()
    assert stdout == "", "part of an answer was printed as a result"
    assert "the answer was cut off" in stderr, stderr
    assert f"malformed answer from {project.url}/rest/v1/walk_request" in stderr
    assert project.service_role_key not in stderr

    # The supervisor (`snm local serve`) starts a new worker; the whole answer comes then.
    wait_until(lambda: worker_pid(project) not in (None, worker), what="a new gateway worker")
    whole = run_snm("--format", "json", "-c",
                    "from walk_request select id where message like 'big-*'",
                    env=env_for(tmp_path, project.url, project.service_role_key), timeout=120)
    assert whole.returncode == 0 and len(json.loads(whole.stdout)) == BIG_ROWS


def test_a_request_sent_while_the_gateway_restarts_waits_for_the_new_worker(big_project, tmp_path):
    """The supervisor (`snm local serve`) holds the gateway's listening socket: a request sent
    after the worker died and before the next one runs waits for it and is answered (before, it
    was refused until the new worker had bound the port: snm said the project was not running).
    The supervisor is paused across the window so that the new worker cannot be there yet."""
    project = big_project
    supervisor, worker = gateway_pid(project), worker_pid(project)
    assert supervisor and worker
    os.kill(supervisor, signal.SIGSTOP)
    try:
        os.kill(worker, signal.SIGKILL)
        wait_until(lambda: not alive(worker), what="the killed worker to be gone")
        process = subprocess.Popen(
            [SNM, "--format", "json", "-c", "from walk_request select id where message like 'big-000*'"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env={**os.environ, **env_for(tmp_path, project.url, project.service_role_key)})
        # Connected while no worker runs: the connection waits in the listening socket's queue.
        wait_until(lambda: process.poll() is not None or sockets(f"( dport = :{project.port} )"),
                   what="snm to connect or end")
    finally:
        os.kill(supervisor, signal.SIGCONT)
    stdout, stderr = process.communicate(timeout=120)
    assert process.returncode == 0, stderr
    assert len(json.loads(stdout)) == 10
    assert wait_until(lambda: worker_pid(project) not in (None, worker), what="a new gateway worker")
