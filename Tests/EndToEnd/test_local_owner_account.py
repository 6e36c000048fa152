"""As root snm runs the local cluster as the `postgres` account and gives it the cluster's
folders. A machine without that account (a container without the postgresql package's user)
stops `snm local start` with exit 3 and a message naming the account and how to make it, before
any cluster folder is made: before, the running user stood in for it silently (the folders kept
as root's), and the start failed later for another reason (SNM_CLUSTERS_DIR "cannot hold
clusters: the postgres account cannot enter it (a folder above it is closed to others)", exit 1).

The account is hidden from snm alone: it runs in a mount namespace of its own (`unshare
--mount`) whose /etc/passwd is a copy without the `postgres` line; the machine's stays as it is."""
import json
import os
import shutil
import subprocess
import uuid

import pytest

from conftest import SNM, WORKDIR, free_port, run_snm

pytestmark = [
    pytest.mark.skipif(os.geteuid() != 0, reason="snm gives the cluster away only as root"),
    pytest.mark.skipif(shutil.which("unshare") is None, reason="needs unshare (util-linux)"),
]


def without_postgres_account(tmp_path, *command):
    """Runs `command` where the password database has no `postgres` entry."""
    passwd = tmp_path / "passwd"
    with open("/etc/passwd") as machine:
        lines = [line for line in machine if not line.startswith("postgres:")]
    passwd.write_text("".join(lines))
    hide = 'mount --bind "$1" /etc/passwd && shift && exec "$@"'
    return subprocess.run(["unshare", "--mount", "--propagation", "private", "sh", "-c", hide,
                           "sh", str(passwd), *command],
                          capture_output=True, text=True, timeout=180)


def test_a_missing_postgres_account_stops_the_start_before_a_cluster_is_made(snm_bin, tmp_path):
    data_dir = str(WORKDIR / "projects" / f"no-postgres-{uuid.uuid4().hex[:8]}")
    try:
        started = without_postgres_account(
            tmp_path, SNM, "local", "start", "--dir", data_dir, "--port", str(free_port()))
        status = json.loads(run_snm("local", "status", "--dir", data_dir, "--json").stdout)
        cluster_dir = status["cluster_dir"]
        assert started.stderr == (
            f"snm local: the cluster {cluster_dir} runs as the account postgres, which this "
            "machine does not have (no entry in the password database): install the postgresql "
            "package (it makes the account) or create it (useradd --system --user-group "
            "postgres), or run snm as a user other than root (its cluster is its own)\n")
        assert started.returncode == 3, started.stdout + started.stderr
        assert not os.path.exists(cluster_dir), "no cluster folder was made"
        assert status["running"] is False
    finally:
        run_snm("local", "destroy", "--dir", data_dir, "--yes", timeout=120)
