"""snm local start/stop/status/reset: the project comes up, reports itself, and goes away cleanly."""
import json
import os
import pwd
import shutil
import socket
import subprocess
import time
import uuid

import httpx
import pytest

from conftest import SNM, WORKDIR, free_port, run_snm
from hardening import alive, children


def processes_mentioning(text):
    """Pids whose command line contains `text` (the project's data dir or cluster dir)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as handle:
                command = handle.read().replace(b"\0", b" ").decode(errors="replace")
            with open(f"/proc/{entry}/stat") as handle:
                state = handle.read().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if text in command and state != "Z":
            found.append(int(entry))
    return found


def live_processes_of(uid, wait=5.0):
    """Pids (not zombies) owned by `uid`, polled for up to `wait` s until none are left."""
    deadline = time.monotonic() + wait
    while True:
        found = []
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                if os.stat(f"/proc/{entry}").st_uid != uid:
                    continue
                with open(f"/proc/{entry}/stat") as handle:
                    if handle.read().rsplit(")", 1)[1].split()[0] == "Z":
                        continue
            except OSError:
                continue
            found.append(int(entry))
        if not found or time.monotonic() > deadline:
            return found
        time.sleep(0.1)


def test_start_twice_status_stop_leaves_nothing(snm_bin, workdir):
    data_dir = str(WORKDIR / "projects" / f"lifecycle-{uuid.uuid4().hex[:8]}")
    port = free_port()
    first = run_snm("local", "start", "--dir", data_dir, "--port", str(port), timeout=180)
    assert first.returncode == 0, first.stderr
    assert f"http://127.0.0.1:{port}" in first.stdout
    assert "started" in first.stdout

    second = run_snm("local", "start", "--dir", data_dir, "--port", str(port), timeout=60)
    assert second.returncode == 0, second.stderr
    assert "already running" in second.stdout

    status = json.loads(run_snm("local", "status", "--dir", data_dir, "--json").stdout)
    assert status["running"] is True
    human = run_snm("local", "status", "--dir", data_dir)
    assert human.returncode == 0 and "anon key" in human.stdout and "database" in human.stdout
    for text in (first.stdout, second.stdout, human.stdout):
        assert status["anon_key"] not in text and status["service_role_key"] not in text
    psql = subprocess.run(["psql", status["db_url"], "-Atc", "select count(*) from dog_profile"],
                          capture_output=True, text=True, timeout=30)
    assert psql.returncode == 0 and int(psql.stdout) > 0, psql.stderr
    assert status["url"] == f"http://127.0.0.1:{port}"
    assert status["data_dir"] == data_dir
    assert status["anon_key"].count(".") == 2 and status["service_role_key"].count(".") == 2
    assert status["anon_key"] != status["service_role_key"]
    assert status["postgres_version"].startswith("PostgreSQL ")
    secret = os.path.join(data_dir, "jwt-secret")
    assert os.stat(secret).st_mode & 0o777 == 0o600

    health = httpx.get(f"{status['url']}/auth/v1/health", headers={"apikey": status["anon_key"]})
    assert health.status_code == 200
    cluster_dir = status["cluster_dir"]
    assert processes_mentioning(cluster_dir), "postgres should run while the project runs"

    stopped = run_snm("local", "stop", "--dir", data_dir, timeout=60)
    assert stopped.returncode == 0, stopped.stderr
    assert processes_mentioning(data_dir) == []
    assert processes_mentioning(cluster_dir) == []
    after = json.loads(run_snm("local", "status", "--dir", data_dir, "--json").stdout)
    assert after["running"] is False and after["postgres_running"] is False
    with pytest.raises(httpx.ConnectError):
        httpx.get(f"{status['url']}/auth/v1/health", headers={"apikey": status["anon_key"]})

    again = run_snm("local", "start", "--dir", data_dir, "--port", str(port), "--json", timeout=120)
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout)["anon_key"] == status["anon_key"], "keys survive a restart"
    run_snm("local", "stop", "--dir", data_dir)
    shutil.rmtree(data_dir, ignore_errors=True)
    if not cluster_dir.startswith(data_dir + "/"):  # the run's SNM_CLUSTERS_DIR
        shutil.rmtree(cluster_dir, ignore_errors=True)


def test_reset_drops_data_and_reseeds(start_extra_project):
    handle = start_extra_project("reset")
    email = f"reset-{uuid.uuid4().hex[:8]}@example.com"
    signup = httpx.post(f"{handle.auth_url}/signup", headers=handle.headers(),
                        json={"email": email, "password": "secret123"})
    assert signup.status_code == 200
    result = run_snm("local", "reset", "--dir", handle.data_dir, "--json", timeout=180)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["running"] is True
    gone = httpx.post(f"{handle.auth_url}/token?grant_type=password", headers=handle.headers(),
                      json={"email": email, "password": "secret123"})
    assert gone.status_code == 400 and gone.json()["error_code"] == "invalid_credentials"
    seeded = httpx.post(f"{handle.auth_url}/token?grant_type=password", headers=handle.headers(),
                        json={"email": "alice@example.com", "password": "password123"})
    assert seeded.status_code == 200


def test_a_new_project_does_not_adopt_the_cluster_a_deleted_one_left(snm_bin, workdir):
    """As root the cluster may live outside the data dir ($SNM_CLUSTERS_DIR, else
    /var/lib/snm/clusters, /<hash of the dir>: where the postgres account cannot enter the dir):
    deleting the dir and starting again at the same path gives a fresh seed, not the old rows."""
    data_dir = str(WORKDIR / "projects" / f"orphan-{uuid.uuid4().hex[:8]}")
    port = free_port()
    first = run_snm("local", "start", "--dir", data_dir, "--port", str(port), "--json", timeout=180)
    assert first.returncode == 0, first.stderr
    status = json.loads(first.stdout)
    cluster_dir = status["cluster_dir"]
    try:
        email = f"orphan-{uuid.uuid4().hex[:8]}@example.com"
        signup = httpx.post(f"{status['auth_url']}/signup", headers={"apikey": status["anon_key"]},
                            json={"email": email, "password": "secret123"})
        assert signup.status_code == 200
        assert run_snm("local", "stop", "--dir", data_dir, timeout=60).returncode == 0
        shutil.rmtree(data_dir)
        again = run_snm("local", "start", "--dir", data_dir, "--port", str(port), "--json",
                        timeout=180)
        assert again.returncode == 0, again.stderr
        fresh = json.loads(again.stdout)
        if not cluster_dir.startswith(data_dir + "/"):
            assert "removed the cluster an earlier project left" in again.stderr
        old_user = httpx.post(f"{fresh['auth_url']}/token?grant_type=password",
                              headers={"apikey": fresh["anon_key"]},
                              json={"email": email, "password": "secret123"})
        assert old_user.status_code == 400, "the deleted project's users are gone"
        seeded = httpx.post(f"{fresh['auth_url']}/token?grant_type=password",
                            headers={"apikey": fresh["anon_key"]},
                            json={"email": "alice@example.com", "password": "password123"})
        assert seeded.status_code == 200, seeded.text
    finally:
        run_snm("local", "stop", "--dir", data_dir, timeout=60)
        shutil.rmtree(data_dir, ignore_errors=True)
        if not cluster_dir.startswith(data_dir + "/"):  # the run's SNM_CLUSTERS_DIR
            shutil.rmtree(cluster_dir, ignore_errors=True)


def test_usage_errors_exit_2(snm_bin):
    assert run_snm("local", "launch").returncode == 2
    bad_port = run_snm("local", "start", "--port", "99999")
    assert bad_port.returncode == 2 and "--port" in bad_port.stderr
    assert run_snm("local", "status", "--nope").returncode == 2


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to create a throwaway user")
def test_normal_user_on_a_fresh_machine(tmp_path_factory):
    name = "snmt" + uuid.uuid4().hex[:6]
    home = f"/tmp/{name}-home"
    subprocess.run(["/usr/sbin/useradd", "--create-home", "--home-dir", home, "--shell", "/bin/sh", name],
                   check=True)
    try:
        binary_dir = f"/tmp/{name}-bin"
        os.makedirs(binary_dir)
        shutil.copy(SNM, f"{binary_dir}/snm")
        os.chmod(binary_dir, 0o755)
        os.chmod(f"{binary_dir}/snm", 0o755)
        port = free_port()

        def as_user(*args, timeout=180):
            return subprocess.run(
                ["/usr/sbin/runuser", "-u", name, "--", "env", "-u", "XDG_DATA_HOME", f"HOME={home}", f"{binary_dir}/snm", *args],
                capture_output=True, text=True, timeout=timeout, cwd="/tmp")

        started = as_user("local", "start", "--port", str(port), "--json")
        assert started.returncode == 0, started.stderr
        status = json.loads(started.stdout)
        assert status["data_dir"] == f"{home}/.local/share/snm/local"
        assert status["cluster_dir"].startswith(home), "a normal user keeps the cluster in its dir"
        user_id = pwd.getpwnam(name).pw_uid
        owners = {os.stat(f"/proc/{pid}").st_uid for pid in processes_mentioning(home)}
        assert owners == {user_id}, "Postgres and the gateway run as the user"
        signin = httpx.post(f"{status['url']}/auth/v1/token?grant_type=password",
                            headers={"apikey": status["anon_key"]},
                            json={"email": "bob@example.com", "password": "password123"})
        assert signin.status_code == 200
        stopped = as_user("local", "stop")
        assert stopped.returncode == 0, stopped.stderr
        assert processes_mentioning(home) == []
        assert live_processes_of(user_id) == [], "nothing of the user's keeps running"
    finally:
        for pid in processes_mentioning(home):
            os.kill(pid, 9)
        subprocess.run(["/usr/sbin/userdel", "--remove", name], capture_output=True)
        shutil.rmtree(f"/tmp/{name}-bin", ignore_errors=True)
        shutil.rmtree(home, ignore_errors=True)


def test_a_crashed_gateway_is_started_again(start_extra_project):
    project = start_extra_project("crash")
    supervisor = project.status["gateway_pid"]
    workers = children(supervisor)
    assert len(workers) == 1
    # SIGKILL stands in for a crash (a trap in a handler ends the process by a signal too; a
    # SIGSEGV sent with kill would only make Swift's backtracer print and wait).
    os.kill(workers[0], 9)
    deadline = time.monotonic() + 15
    answered = None
    while time.monotonic() < deadline:
        try:
            answered = httpx.get(f"{project.auth_url}/health",
                                 headers={"apikey": project.anon_key}, timeout=1).status_code
            if answered == 200 and children(supervisor) not in ([], workers):
                break
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    assert answered == 200
    assert children(supervisor) not in ([], workers), "a new gateway process serves"
    status = json.loads(run_snm("local", "status", "--dir", project.data_dir, "--json").stdout)
    assert status["running"] is True and status["gateway_pid"] == supervisor
    with open(os.path.join(project.data_dir, "gateway.log")) as log:
        assert "crashed (signal 9)" in log.read()


def on_a_taken_port(command, name):
    """`snm local COMMAND` of a new project NAME on a port another process listens on: its
    data dir, the port and the result."""
    data_dir = WORKDIR / "projects" / name
    run_snm("local", "destroy", "--dir", str(data_dir), "--yes", timeout=120)
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        result = run_snm("local", command, "--dir", str(data_dir), "--port", str(port),
                         timeout=180)
    return data_dir, port, result


def test_serve_on_a_taken_port_exits_3_before_it_makes_a_cluster(snm_bin, workdir):
    """The supervisor listens first: a port another process holds ends `snm local serve` at
    once with exit 3, before any Postgres work (before, it made and started a cluster, and a
    worker found the port taken; the same message)."""
    data_dir, port, served = on_a_taken_port("serve", "taken-port")
    assert served.returncode == 3, served.stdout + served.stderr
    assert served.stderr == f"snm local: cannot serve: port {port} is already in use on 127.0.0.1\n"
    status = json.loads(run_snm("local", "status", "--dir", str(data_dir), "--json").stdout)
    assert status["running"] is False
    assert status.get("postgres_version") is None, "no cluster was made"
    assert processes_mentioning(str(data_dir)) == []


def test_a_second_serve_of_a_running_project_leaves_it_running(start_extra_project):
    """Its port is the running project's: the second `serve` ends with exit 3 before it touches
    the project (before, it wrote its own pid into gateway.pid and removed the file as it ended,
    so the running project was reported stopped and `snm local stop` could not find it)."""
    project = start_extra_project("second-serve")
    supervisor = project.status["gateway_pid"]
    served = run_snm("local", "serve", "--dir", project.data_dir, "--port", str(project.port),
                     timeout=120)
    assert served.returncode == 3
    assert f"port {project.port} is already in use" in served.stderr
    status = json.loads(run_snm("local", "status", "--dir", project.data_dir, "--json").stdout)
    assert status["running"] is True and status["gateway_pid"] == supervisor
    stopped = run_snm("local", "stop", "--dir", project.data_dir, timeout=60)
    assert stopped.returncode == 0, stopped.stderr
    assert not alive(supervisor), "stop found the running supervisor"


def test_serve_in_the_foreground_stops_what_it_started_on_ctrl_c(snm_bin, workdir):
    data_dir = str(WORKDIR / "projects" / "foreground")
    port = free_port()
    server = subprocess.Popen([SNM, "local", "serve", "--dir", data_dir, "--port", str(port)],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              start_new_session=True)
    try:
        status = None
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            status = json.loads(run_snm("local", "status", "--dir", data_dir, "--json").stdout)
            if status.get("running"):
                break
            time.sleep(0.2)
        assert status and status["running"], status
        # `running` says the processes are up; the supervisor listened before it started
        # Postgres, so the port takes the request even while the worker is starting (it was
        # refused until the worker had bound it).
        answer = httpx.get(f"{status['url']}/auth/v1/health",
                           headers={"apikey": status["anon_key"]}, timeout=60)
        assert answer.status_code == 200
        os.killpg(server.pid, 2)  # Ctrl-C reaches the whole foreground group
        output = server.communicate(timeout=60)[0]
        assert server.returncode == 0, output
        assert "snm local: stopped" in output
        assert processes_mentioning(status["cluster_dir"]) == [], "serve stops the Postgres it started"
        assert processes_mentioning(data_dir) == []
    finally:
        if server.poll() is None:
            server.kill()


def test_a_start_whose_port_is_taken_leaves_no_postgres_running(snm_bin, workdir):
    """Another process (another user's project on 54321, say) holds the gateway's port: `snm
    local start`, and the shell's first use, make the cluster, start Postgres, then find the
    gateway cannot serve (exit 3). That Postgres was left running, and `status` called the project
    stopped; now the start stops what it started."""
    data_dir, port, started = on_a_taken_port("start", "taken-port-start")
    try:
        assert started.returncode == 3, started.stdout + started.stderr
        assert f"port {port} is already in use on 127.0.0.1" in started.stderr, started.stderr
        status = json.loads(run_snm("local", "status", "--dir", str(data_dir), "--json").stdout)
        assert status["running"] is False and status["postgres_running"] is False, status
        assert processes_mentioning(status["cluster_dir"]) == [], "its Postgres still runs"
    finally:
        run_snm("local", "destroy", "--dir", str(data_dir), "--yes", timeout=120)
