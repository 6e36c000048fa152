"""The local project's Postgres socket folder (issue 13, item 4), run as a non-root user against a
second local account: the cluster trusts whoever reaches its socket, and the gateway sends users'
passwords through it, so the folder must be the owner's alone. A folder another user created first
(at the name snm 0.1.0 would have used for a long project path) is never adopted, and a socket
folder that is not the owner's with mode 0700 is refused. Both accounts are made by the test."""
import hashlib
import json
import os
import shutil
import socket
import stat
import subprocess
import tempfile
import time
import uuid

import httpx
import pytest

from conftest import SNM, free_port

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="makes two local accounts (needs root)")


class Account:
    """A local account made for the test, running snm with its own HOME."""

    def __init__(self, prefix, snm):
        self.name = f"{prefix}{uuid.uuid4().hex[:8]}"
        self.home = f"/home/{self.name}"
        subprocess.run(["useradd", "--create-home", "--home-dir", self.home, "--shell", "/bin/sh",
                        self.name], check=True, capture_output=True)
        self.uid = int(subprocess.run(["id", "-u", self.name], capture_output=True, text=True,
                                      check=True).stdout)
        self.snm = snm

    def run(self, *command, timeout=180):
        env = ["env", "-i", f"HOME={self.home}", "PATH=/usr/local/bin:/usr/bin:/bin",
               "LANG=C.UTF-8"]
        return subprocess.run(["runuser", "-u", self.name, "--", *env, *command],
                              capture_output=True, text=True, timeout=timeout, cwd="/")

    def local(self, action, project_dir, *flags):
        return self.run(self.snm, "local", action, "--dir", project_dir, *flags)

    def remove(self):
        subprocess.run(["userdel", "--remove", self.name], capture_output=True)


@pytest.fixture(scope="module")
def accounts():
    # The binary where both accounts may run it (the checkout may be under a private home).
    folder = tempfile.mkdtemp(prefix="snm-bin-")
    os.chmod(folder, 0o755)
    snm = os.path.join(folder, "snm")
    shutil.copy2(SNM, snm)
    os.chmod(snm, 0o755)
    victim, attacker = Account("snmv", snm), Account("snma", snm)
    yield victim, attacker
    for project in ("long", "short"):
        victim.local("stop", victim_project(victim, project))
    # The private socket folders the victim's clusters made under /tmp.
    for entry in os.listdir("/tmp"):
        path = os.path.join("/tmp", entry)
        if entry.startswith("snm-") and len(entry) == 10 and os.lstat(path).st_uid == victim.uid:
            shutil.rmtree(path, ignore_errors=True)
    victim.remove()
    attacker.remove()
    shutil.rmtree(folder, ignore_errors=True)


def victim_project(victim, kind):
    if kind == "short":
        return f"{victim.home}/p"
    return f"{victim.home}/{'a-rather-long-folder-name-' * 3}/project"


def socket_dir_of(status):
    return status["db_url"].split("host=", 1)[1].split("&", 1)[0]


def start(victim, project_dir):
    for _attempt in range(3):
        result = victim.local("start", project_dir, "--port", str(free_port()), "--json")
        if "already in use" not in result.stderr:
            break
    return result


def private(path, uid):
    info = os.lstat(path)
    return stat.S_ISDIR(info.st_mode) and info.st_uid == uid and stat.S_IMODE(info.st_mode) == 0o700


def test_a_folder_another_user_made_first_is_not_adopted(accounts):
    victim, attacker = accounts
    project_dir = victim_project(victim, "long")
    # The name snm 0.1.0 chose for a cluster whose run/ path is too long for a socket address.
    guessed = "/tmp/snm-" + hashlib.sha256((project_dir + "/postgres").encode()).hexdigest()[:16]
    assert attacker.run("mkdir", "-m", "0777", guessed).returncode == 0
    os.chmod(guessed, 0o777)
    caught = os.path.join(tempfile.mkdtemp(prefix="snm-caught-"), "connections")
    os.chmod(os.path.dirname(caught), 0o777)
    listener = subprocess.Popen(
        ["python3", "-c",
         "import socket, sys\n"
         "s = socket.socket(socket.AF_UNIX); s.bind(sys.argv[1] + '/.s.PGSQL.5432'); s.listen(8)\n"
         "while True:\n"
         "    c, _ = s.accept(); open(sys.argv[2], 'a').write('connected\\n'); c.close()\n",
         guessed, caught], user=attacker.name, group=attacker.name, cwd="/")
    try:
        time.sleep(0.5)
        result = start(victim, project_dir)
        assert result.returncode == 0, result.stderr
        status = json.loads(result.stdout)
        used = socket_dir_of(status)
        print(f"pre-created {guessed} (0777, {attacker.name}); the cluster uses {used}")
        assert used != guessed, "the attacker's folder was adopted"
        assert private(used, victim.uid), oct(os.lstat(used).st_mode)
        signed_in = httpx.post(f"{status['url']}/auth/v1/token?grant_type=password",
                               headers={"apikey": status["anon_key"]},
                               json={"email": "alice@example.com", "password": "password123"})
        assert signed_in.status_code == 200, signed_in.text
        assert not os.path.exists(caught), "the gateway connected to the attacker's socket"

        # A remembered private folder that is no longer private is replaced, not used.
        assert victim.local("stop", project_dir).returncode == 0
        os.chmod(used, 0o777)
        again = start(victim, project_dir)
        assert again.returncode == 0, again.stderr
        assert "not using the socket directory" in again.stderr
        replaced = socket_dir_of(json.loads(again.stdout))
        assert replaced != used and private(replaced, victim.uid)
    finally:
        listener.kill()
        listener.wait()
        shutil.rmtree(os.path.dirname(caught), ignore_errors=True)
        shutil.rmtree(guessed, ignore_errors=True)


def test_a_socket_folder_that_is_not_private_is_refused(accounts):
    victim, attacker = accounts
    project_dir = victim_project(victim, "short")
    first = start(victim, project_dir)
    assert first.returncode == 0, first.stderr
    run_dir = socket_dir_of(json.loads(first.stdout))
    assert run_dir == project_dir + "/postgres/run" and private(run_dir, victim.uid)
    assert victim.local("stop", project_dir).returncode == 0

    for change, problem in [
        (lambda: os.chmod(run_dir, 0o755), "its mode is 755, not 700"),
        (lambda: os.chown(run_dir, attacker.uid, -1), f"it belongs to {attacker.name}"),
    ]:
        change()
        refused = start(victim, project_dir)
        assert refused.returncode != 0, refused.stdout
        assert f"refusing the socket directory {run_dir}: {problem}" in refused.stderr, \
            refused.stderr
        status = json.loads(victim.local("status", project_dir, "--json").stdout)
        assert status["running"] is False and status["postgres_running"] is False
        os.chown(run_dir, victim.uid, -1)
        os.chmod(run_dir, 0o700)
    fixed = start(victim, project_dir)
    assert fixed.returncode == 0, fixed.stderr
