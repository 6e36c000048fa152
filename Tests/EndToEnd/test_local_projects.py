"""The local projects on this machine: `snm local status` exits 3 when stopped, `start` refuses
settings a running project would ignore, `destroy` deletes one (asked first), `list` shows them all
and `list --prune` deletes the clusters of those whose folder is gone."""
import json
import os
import pwd
import shutil
import tempfile
import uuid

import pytest

from conftest import SNM, WORKDIR, free_port, run_snm
from tmux_shell import TmuxShell


def new_dir(name):
    return str(WORKDIR / "projects" / f"{name}-{uuid.uuid4().hex[:8]}")


def start(data_dir, env, *flags):
    result = run_snm("local", "start", "--dir", data_dir, "--port", str(free_port()), *flags,
                     "--json", env=env, timeout=180)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def listed(env):
    result = run_snm("local", "list", "--json", env=env, timeout=60)
    assert result.returncode == 0, result.stderr
    return {entry["cluster_dir"]: entry for entry in json.loads(result.stdout)}


def test_status_exits_3_when_the_project_is_stopped_or_absent(snm_bin, workdir, home):
    data_dir = new_dir("status")
    never = run_snm("local", "status", "--dir", data_dir, "--json", env=home)
    assert never.returncode == 3, never.stderr
    assert json.loads(never.stdout)["running"] is False
    assert run_snm("local", "status", "--dir", data_dir, env=home).returncode == 3

    status = start(data_dir, home)
    try:
        running = run_snm("local", "status", "--dir", data_dir, "--json", env=home)
        assert running.returncode == 0 and json.loads(running.stdout)["running"] is True
        assert run_snm("local", "stop", "--dir", data_dir, env=home).returncode == 0
        stopped = run_snm("local", "status", "--dir", data_dir, "--json", env=home)
        assert stopped.returncode == 3, stopped.stderr
        assert json.loads(stopped.stdout)["running"] is False
        readable = run_snm("local", "status", "--dir", data_dir, env=home)
        assert readable.returncode == 3 and readable.stdout.startswith("snm local: stopped")
    finally:
        run_snm("local", "destroy", "--dir", data_dir, "--yes", env=home, timeout=60)
    assert not os.path.exists(status["cluster_dir"])


def test_start_refuses_settings_a_running_project_would_ignore(snm_bin, workdir, home):
    data_dir = new_dir("settings")
    start(data_dir, home, "--auth-rate-limit", "token_refresh=0")
    try:
        same = run_snm("local", "start", "--dir", data_dir, "--auth-rate-limit", "token_refresh=0",
                       env=home, timeout=60)
        assert same.returncode == 0 and "already running" in same.stdout, same.stderr

        other = run_snm("local", "start", "--dir", data_dir, "--auth-rate-limit",
                        "token_refresh=5", "--confirm-email", env=home, timeout=60)
        assert other.returncode == 2, other.stdout
        assert other.stderr == (
            f"snm local: the project in {data_dir} is running with other settings than the ones "
            "given (--auth-rate-limit, --confirm-email): snm local restart applies them, or stop "
            f"it first (snm local stop --dir {data_dir})\n")
        with open(os.path.join(data_dir, "project.json")) as handle:
            kept = json.load(handle)
        assert kept["auth_rate_limits"]["token_refresh"] == 0 and kept["auth"]["confirm_email"] is False

        restarted = run_snm("local", "restart", "--dir", data_dir, "--auth-rate-limit",
                            "token_refresh=5", "--confirm-email", "--json", env=home, timeout=180)
        assert restarted.returncode == 0, restarted.stderr
        assert json.loads(restarted.stdout)["running"] is True
        with open(os.path.join(data_dir, "project.json")) as handle:
            applied = json.load(handle)
        assert applied["auth_rate_limits"]["token_refresh"] == 5 and applied["auth"]["confirm_email"]
    finally:
        run_snm("local", "destroy", "--dir", data_dir, "--yes", env=home, timeout=60)


def test_destroy_deletes_only_what_snm_made_and_needs_a_confirmation(snm_bin, workdir, home):
    data_dir = new_dir("destroy")
    status = start(data_dir, home)
    cluster_dir = status["cluster_dir"]
    mine = os.path.join(data_dir, "notes.txt")
    with open(mine, "w") as handle:
        handle.write("not snm's\n")

    unasked = run_snm("local", "destroy", "--dir", data_dir, env=home, timeout=60)
    assert unasked.returncode == 2
    assert unasked.stderr == ("snm local: destroy deletes data: confirm at a terminal, or add "
                              "--yes (no terminal here)\n")
    assert json.loads(run_snm("local", "status", "--dir", data_dir, "--json",
                              env=home).stdout)["running"] is True

    destroyed = run_snm("local", "destroy", "--dir", data_dir, "--yes", env=home, timeout=60)
    assert destroyed.returncode == 0, destroyed.stderr
    lines = destroyed.stdout.splitlines()
    assert lines[0] == f"snm local: destroyed the project in {data_dir}"
    assert f"  deleted  {cluster_dir}" in lines
    assert f"  deleted  {data_dir}/project.json" in lines
    assert f"  deleted  {data_dir}/jwt-secret" in lines
    assert lines[-1] == f"  kept     {data_dir}: it holds files snm did not make (notes.txt)"
    assert not os.path.exists(cluster_dir)
    assert sorted(os.listdir(data_dir)) == ["notes.txt"]
    assert cluster_dir not in listed(home)

    again = run_snm("local", "destroy", "--dir", data_dir, "--yes", env=home)
    assert again.returncode == 2
    assert again.stderr == (f"snm local: no local project in {data_dir} (no project.json): "
                            "nothing to destroy\n")
    assert os.path.exists(mine)
    shutil.rmtree(data_dir)


def test_destroy_at_a_terminal_asks_for_the_folder_name(snm_bin, workdir, home):
    data_dir = new_dir("asked")
    status = start(data_dir, home)
    name = os.path.basename(data_dir)
    try:
        with TmuxShell([SNM, "local", "destroy", "--dir", data_dir], env=home) as shell:
            shell.wait_for_text(f"type the folder's name ({name}) to confirm:")
            shell.type("y")
            shell.press("Enter")
            screen = shell.wait_for_text("[snm exited")
        assert f"not destroyed (the name typed was not {name})" in screen
        assert "[snm exited 1]" in screen
        assert os.path.exists(status["cluster_dir"])

        with TmuxShell([SNM, "local", "destroy", "--dir", data_dir], env=home) as shell:
            shell.wait_for_text(f"type the folder's name ({name}) to confirm:")
            shell.type(name)
            shell.press("Enter")
            screen = shell.wait_for_text("[snm exited")
        assert f"snm local: destroyed the project in {data_dir}" in screen
        assert "[snm exited 0]" in screen
        assert not os.path.exists(status["cluster_dir"]) and not os.path.exists(data_dir)
    finally:
        run_snm("local", "destroy", "--dir", data_dir, "--yes", env=home, timeout=60)


def test_list_shows_every_project_and_prune_deletes_those_whose_folder_is_gone(
        snm_bin, workdir, home):
    kept_dir, gone_dir = new_dir("listed"), new_dir("orphan")
    kept = start(kept_dir, home)
    gone = start(gone_dir, home)
    try:
        assert run_snm("local", "stop", "--dir", gone_dir, env=home).returncode == 0
        shutil.rmtree(gone_dir)

        known = listed(home)
        assert known[kept["cluster_dir"]]["project_dir"] == kept_dir
        assert known[kept["cluster_dir"]]["running"] is True
        assert known[kept["cluster_dir"]]["folder_exists"] is True
        assert known[kept["cluster_dir"]]["port"] == kept["port"]
        assert known[kept["cluster_dir"]]["size_bytes"] > 1_000_000
        assert known[kept["cluster_dir"]]["data_dir"] == kept["cluster_dir"] + "/data"
        orphan = known[gone["cluster_dir"]]
        assert orphan["project_dir"] == gone_dir and orphan["folder_exists"] is False
        assert orphan["running"] is False
        readable = run_snm("local", "list", env=home).stdout
        assert any(line.startswith(kept_dir) and "running" in line and "exists" in line
                   for line in readable.splitlines())
        assert any(line.startswith(gone_dir) and "stopped" in line and "gone" in line
                   for line in readable.splitlines())
        assert "snm local list --prune deletes them" in readable

        unasked = run_snm("local", "list", "--prune", env=home, timeout=60)
        assert unasked.returncode == 2
        assert "list --prune deletes data: confirm at a terminal, or add --yes" in unasked.stderr
        if kept["cluster_dir"] != kept_dir + "/postgres":  # root: clusters outside the folders
            assert os.path.exists(gone["cluster_dir"])

        pruned = run_snm("local", "list", "--prune", "--yes", env=home, timeout=120)
        assert pruned.returncode == 0, pruned.stderr
        assert f"  deleted  {gone['cluster_dir']}  ({gone_dir}, gone, " in pruned.stdout
        assert kept["cluster_dir"] not in pruned.stdout
        assert not os.path.exists(gone["cluster_dir"])
        after = listed(home)
        assert gone["cluster_dir"] not in after and after[kept["cluster_dir"]]["running"] is True
    finally:
        run_snm("local", "destroy", "--dir", kept_dir, "--yes", env=home, timeout=60)


def test_destroy_refuses_a_cluster_outside_where_snm_keeps_them(snm_bin, workdir, home, tmp_path):
    """A project.json naming a cluster anywhere else (edited, or not snm's) deletes nothing."""
    data_dir = new_dir("tampered")
    os.makedirs(data_dir)
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "keep.txt").write_text("mine\n")
    with open(os.path.join(data_dir, "project.json"), "w") as handle:
        json.dump({"port": free_port(), "cluster_dir": str(victim), "keys_issued_at": 1}, handle)
    refused = run_snm("local", "destroy", "--dir", data_dir, "--yes", env=home, timeout=60)
    assert refused.returncode == 1
    assert refused.stderr == (f"snm local: {data_dir}/project.json names the cluster {victim}, "
                              "which is not where snm keeps clusters: nothing deleted\n")
    assert (victim / "keep.txt").read_text() == "mine\n"
    assert os.path.exists(os.path.join(data_dir, "project.json"))
    shutil.rmtree(data_dir)


@pytest.mark.skipif(os.geteuid() != 0, reason="clusters live outside their folders only as root")
def test_clusters_kept_outside_their_folders_go_to_snm_clusters_dir(snm_bin, workdir, home,
                                                                     tmp_path):
    """As root, a project in a folder the postgres account cannot enter (pytest's temporary
    folders are 0700) keeps its cluster in $SNM_CLUSTERS_DIR, not /var/lib/snm/clusters, and
    `snm local list` (and so --prune) reads that folder in place of /var/lib/snm/clusters: it
    sees this folder's clusters and no other on the machine. The e2e suite runs this way."""
    clusters = tempfile.mkdtemp(prefix="snm-own-clusters-", dir="/tmp")
    os.chmod(clusters, 0o755)
    env = {**home, "SNM_CLUSTERS_DIR": clusters, "XDG_DATA_HOME": str(tmp_path / "data")}
    data_dir = str(tmp_path / "project")
    try:
        status = start(data_dir, env)
        cluster_dir = status["cluster_dir"]
        assert os.path.dirname(cluster_dir) == clusters, cluster_dir
        assert os.path.isdir(cluster_dir + "/data")
        assert list(listed(env)) == [cluster_dir]
        assert run_snm("local", "stop", "--dir", data_dir, env=env).returncode == 0
        shutil.rmtree(data_dir)
        pruned = run_snm("local", "list", "--prune", "--yes", env=env, timeout=120)
        assert pruned.returncode == 0, pruned.stderr
        assert f"  deleted  {cluster_dir}  ({data_dir}, gone, " in pruned.stdout
        assert os.listdir(clusters) == []
    finally:
        run_snm("local", "stop", "--dir", data_dir, env=env, timeout=60)
        shutil.rmtree(clusters, ignore_errors=True)


def test_a_folder_in_snm_clusters_dir_that_snm_did_not_mark_is_no_cluster(snm_bin, workdir, home,
                                                                          tmp_path):
    """$SNM_CLUSTERS_DIR names a folder of the user's choosing, which may hold more than snm's
    clusters: there a cluster is a folder whose snm-project.json names it (snm marks each it
    makes), not any folder. Every folder there was listed as a stopped cluster of an unknown
    project, and `list --prune --unknown --yes` deleted it with what it held."""
    clusters = tmp_path / "clusters"
    (clusters / "photos").mkdir(parents=True)
    (clusters / "photos" / "kim.jpg").write_text("mine\n")
    # A record copied from elsewhere names another folder: not this one's mark.
    (clusters / "copied").mkdir()
    (clusters / "copied" / "snm-project.json").write_text(json.dumps(
        {"project_dir": str(tmp_path / "gone"), "cluster_dir": "/elsewhere/abc"}) + "\n")
    env = {**home, "SNM_CLUSTERS_DIR": str(clusters), "XDG_DATA_HOME": str(tmp_path / "data")}
    assert listed(env) == {}
    pruned = run_snm("local", "list", "--prune", "--unknown", "--yes", env=env, timeout=60)
    assert (pruned.returncode, pruned.stderr) == (0, "")
    assert pruned.stdout == "snm local: nothing to prune (no stopped project whose folder is gone)\n"
    assert (clusters / "photos" / "kim.jpg").read_text() == "mine\n"
    assert (clusters / "copied" / "snm-project.json").exists()


def test_an_snm_clusters_dir_that_is_a_file_is_refused_saying_so(snm_bin, workdir, home, tmp_path):
    """SNM_CLUSTERS_DIR naming a file: `snm local list` said there were no projects (exit 0), and
    a start as root that the postgres account could not enter it, a folder above being closed."""
    named = tmp_path / "clusters"
    named.write_text("not a folder\n")
    env = {**home, "SNM_CLUSTERS_DIR": str(named), "XDG_DATA_HOME": str(tmp_path / "data")}
    result = run_snm("local", "list", "--json", env=env, timeout=60)
    assert (result.returncode, result.stdout, result.stderr) == (
        2, "", f"snm local: SNM_CLUSTERS_DIR ({named}) cannot hold clusters: it is not a folder\n")
    assert named.read_text() == "not a folder\n"


@pytest.mark.skipif(os.geteuid() != 0, reason="clusters live outside their folders only as root")
def test_an_unusable_snm_clusters_dir_is_refused_saying_why(snm_bin, workdir, home, tmp_path):
    """A relative SNM_CLUSTERS_DIR, one others may write in, or one the postgres account cannot
    enter is refused with the reason, and nothing is started."""
    open_to_all = tempfile.mkdtemp(prefix="snm-open-clusters-", dir="/tmp")
    os.chmod(open_to_all, 0o777)
    closed = tmp_path / "closed-clusters"  # under pytest's 0700 folders
    data_dir = str(tmp_path / "project")
    cases = [
        ("clusters", 2, "snm local: SNM_CLUSTERS_DIR must be an absolute path without ., .. or "
                        "// (it is clusters)\n"),
        ("/tmp/../tmp/x", 2, "snm local: SNM_CLUSTERS_DIR must be an absolute path without ., "
                             ".. or // (it is /tmp/../tmp/x)\n"),
        (open_to_all, 2, f"snm local: SNM_CLUSTERS_DIR ({open_to_all}) cannot hold clusters: "
                         "others may write in it (mode 777)\n"),
        (str(closed), 1, f"snm local: SNM_CLUSTERS_DIR ({closed}) cannot hold clusters: the "
                         "postgres account cannot enter it (a folder above it is closed to "
                         "others)\n"),
    ]
    try:
        for value, code, message in cases:
            env = {**home, "SNM_CLUSTERS_DIR": value, "XDG_DATA_HOME": str(tmp_path / "data")}
            result = run_snm("local", "start", "--dir", data_dir, "--port", str(free_port()),
                             env=env, timeout=120)
            assert (result.returncode, result.stderr) == (code, message), value
            status = run_snm("local", "status", "--dir", data_dir, "--json", env=home)
            assert status.returncode == 3, status.stdout
    finally:
        run_snm("local", "stop", "--dir", data_dir, env=home, timeout=60)
        shutil.rmtree(open_to_all, ignore_errors=True)


@pytest.mark.skipif(os.geteuid() != 0, reason="clusters live outside their folders only as root")
def test_an_snm_clusters_dir_another_account_could_swap_is_refused(snm_bin, workdir, home,
                                                                   tmp_path):
    """As root snm makes and deletes clusters in SNM_CLUSTERS_DIR. Under a folder others may
    write in without the sticky bit (they may rename the folder and put their own in its place),
    or through a link another account owns in /tmp (it may point it elsewhere), it was taken:
    `snm local list` exit 0, and a start made the folder there. It is refused, saying why. So is
    one under a folder another account owns (mode 755: its owner may rename what is in it), which
    was taken after the first two were refused."""
    nobody = pwd.getpwnam("nobody")
    above = tempfile.mkdtemp(prefix="snm-swappable-", dir="/tmp")
    os.chmod(above, 0o755)
    open_above = os.path.join(above, "open")
    os.mkdir(open_above)
    os.chmod(open_above, 0o777)
    target = os.path.join(above, "target")
    os.mkdir(target, 0o755)
    owned = os.path.join(above, "owned")
    os.mkdir(owned, 0o755)
    os.chown(owned, nobody.pw_uid, -1)
    link = os.path.join("/tmp", f"snm-link-{uuid.uuid4().hex[:8]}")
    os.symlink(target, link)
    os.lchown(link, nobody.pw_uid, -1)
    cases = [
        (open_above + "/clusters",
         f"others may write in {open_above} (mode 777), and so put a folder of theirs in its "
         "place"),
        (link, f"{link} is a link nobody (uid {nobody.pw_uid}) owns, who may point it elsewhere"),
        (owned + "/clusters",
         f"{owned} is nobody (uid {nobody.pw_uid})'s, who may put a folder of theirs in its place"),
    ]
    try:
        for value, why in cases:
            env = {**home, "SNM_CLUSTERS_DIR": value, "XDG_DATA_HOME": str(tmp_path / "data")}
            result = run_snm("local", "list", "--json", env=env, timeout=60)
            assert (result.returncode, result.stdout, result.stderr) == (
                2, "", f"snm local: SNM_CLUSTERS_DIR ({value}) cannot hold clusters: {why}\n")
        assert os.listdir(open_above) == [] and os.listdir(target) == []
        assert os.listdir(owned) == []
    finally:
        os.unlink(link)
        shutil.rmtree(above, ignore_errors=True)


def test_a_record_that_cannot_be_written_says_why_in_words(snm_bin, workdir, home, tmp_path):
    """`snm local start` remembers its project in $XDG_DATA_HOME/snm/projects; a record it could
    not write was said with the call's bare number ('cannot write .../x.json (errno 21)'), read
    after other calls may have changed it. It says why in words, the project still starts, and
    no temporary file is left."""
    env = {**home, "XDG_DATA_HOME": str(tmp_path / "data")}
    data_dir = new_dir("record")
    try:
        start(data_dir, env)
        assert run_snm("local", "stop", "--dir", data_dir, env=env, timeout=60).returncode == 0
        records = tmp_path / "data" / "snm" / "projects"
        [record] = list(records.iterdir())
        record.unlink()
        record.mkdir()  # in the way of the next record
        result = run_snm("local", "start", "--dir", data_dir, "--port", str(free_port()),
                         env=env, timeout=180)
        assert result.returncode == 0, result.stderr
        assert (f"snm local: cannot remember the project in {records}: cannot write {record}: "
                "is a directory\n") in result.stderr, result.stderr
        assert "errno" not in result.stderr
        assert sorted(p.name for p in records.iterdir()) == [record.name]
    finally:
        run_snm("local", "destroy", "--dir", data_dir, "--yes", env=env, timeout=120)
