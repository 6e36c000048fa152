"""Which project a run talks to (issue 34, items 2 and 3): nothing named is no project under CI or
in `snm test` (exit 2, saying how to name one), `--local` names the local project, a flag beats the
environment, which beats files, every `snm test` and script run says its target first and in its
reports, a service URL stands for its project, and a stopped local project says how to start it.

Every run here has a clean environment: no SUPABASE_* variable, CI only where the case sets it.
The "local project" of these tests is the default one of their own XDG_DATA_HOME, started on a
free port (snm reuses a running project in its default folder whatever its port), so nothing here
touches port 54321.
"""
import json
import os
import pathlib
import subprocess
import xml.etree.ElementTree as ElementTree

import pytest

from conftest import SNM, WORKDIR, free_port, run_snm
from tmux_shell import TmuxShell

NAMES_A_PROJECT = ("--url", "SUPABASE_URL", "SUPABASE_PUBLISHABLE_KEY", "--profile", "--local")


def clean_run(*args, env, input=None, timeout=120, cwd=None):
    """snm with the test's environment only: no SUPABASE_* and no CI from the caller's."""
    full = {name: value for name, value in os.environ.items()
            if not name.startswith("SUPABASE_") and name != "CI"}
    full.update(env)
    return subprocess.run([SNM, *args], input=input if input is not None else "",
                          capture_output=True, text=True, env=full, timeout=timeout, cwd=cwd)


@pytest.fixture(scope="module")
def default_local(snm_bin):
    """The default local project of XDG_DATA_HOME=<workdir>/target-data, running on a free port."""
    data_home = WORKDIR / "target-data"
    folder = data_home / "snm" / "local"
    folder.parent.mkdir(parents=True, exist_ok=True)
    run_snm("local", "stop", "--dir", str(folder), timeout=60)
    result = run_snm("local", "start", "--dir", str(folder), "--port", str(free_port()), "--json",
                     timeout=180)
    assert result.returncode == 0, result.stderr
    status = json.loads(result.stdout)
    yield {"data_home": str(data_home), "url": status["url"], "status": status}
    run_snm("local", "stop", "--dir", str(folder), timeout=60)


@pytest.fixture
def local_env(home, default_local):
    return {**home, "XDG_DATA_HOME": default_local["data_home"]}


@pytest.fixture
def script(tmp_path):
    path = tmp_path / "dogs.snm"
    path.write_text("from dog_profile select name where name eq 'Bori'\nexpect rows 1\n")
    return str(path)


# ---- nothing names a project -------------------------------------------------------------------

def test_snm_test_with_nothing_named_stops_and_says_how_to_name_a_project(local_env, script):
    result = clean_run("test", script, env=local_env)
    assert result.returncode == 2, result.stdout + result.stderr
    assert result.stdout == ""
    assert result.stderr.startswith("snm test: no project named: ")
    for name in NAMES_A_PROJECT:
        assert name in result.stderr


def test_snm_test_with_nothing_named_still_shows_the_files_that_do_not_check(local_env, script,
                                                                              tmp_path):
    """With no project named, a file that does not check is still news (its diagnostics, as
    without a project to run on), said once beside the one usage error; the file that checked
    clean gets no FAIL repeating the usage: the summary says it was not run."""
    bad = tmp_path / "bad.snm"
    bad.write_text("from\n")
    report = tmp_path / "report.xml"
    result = clean_run("test", str(bad), script, "--report", f"junit={report}", env=local_env)
    assert result.returncode == 2, result.stdout + result.stderr
    assert result.stderr.startswith("snm test: no project named: ")
    assert result.stderr.count("no project named") == 1, result.stderr
    lines = result.stdout.splitlines()
    assert lines[:2] == [f"FAIL  {bad}", f"      {bad}:1:5: error: expected a table name after "
                         "'from'"], result.stdout
    assert lines[-3:] == ["", "none run, 1 file refused before running, 1 file not run: no project",
                          "0 passed, 1 failed"], result.stdout
    assert "dogs.snm" not in result.stdout and "usage" not in result.stdout, result.stdout
    suite = ElementTree.parse(report).getroot().find("testsuite")
    assert (suite.get("tests"), suite.get("errors")) == ("2", "2")
    assert suite.find("properties") is None
    unreached = suite.find("testcase[@name='dogs.snm']/error")
    assert unreached.get("message") == f"{script}: " + result.stderr.splitlines()[0]


@pytest.mark.parametrize("ci", ["true", "1", "True", "woodpecker"])
@pytest.mark.parametrize("mode", ["-c", "stdin", "file"])
def test_a_run_under_ci_with_nothing_named_stops(local_env, script, ci, mode):
    statement = "from dog_profile select name where name eq 'Bori'"
    args, stdin = {"-c": (["-c", statement], ""), "stdin": ([], statement + "\n"),
                   "file": ([script], "")}[mode]
    result = clean_run(*args, env={**local_env, "CI": ci}, input=stdin)
    assert result.returncode == 2, result.stdout + result.stderr
    assert result.stdout == ""
    assert result.stderr.startswith(f"snm: no project named, and CI is set (CI={ci}): ")
    for name in NAMES_A_PROJECT:
        assert name in result.stderr


@pytest.mark.parametrize("ci", [None, "false", "0", ""])
def test_outside_ci_a_run_uses_the_local_project_and_says_so(local_env, default_local, ci):
    env = dict(local_env) if ci is None else {**local_env, "CI": ci}
    result = clean_run("--format", "csv", "-c",
                       "from dog_profile select name where name eq 'Bori'", env=env)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "name\nBori\n"
    assert result.stderr == (
        "snm: no project named (--url, SUPABASE_URL, --profile): using the local project at "
        f"{default_local['url']} (--local chooses it without this note)\n")


def test_the_interactive_shell_uses_the_local_project_and_says_so_even_under_ci(
        local_env, default_local):
    unset = [word for name in ("SUPABASE_URL", "SUPABASE_ANON_KEY", "SUPABASE_PUBLISHABLE_KEY",
                               "SUPABASE_SECRET_KEY", "SUPABASE_SERVICE_ROLE_KEY")
             for word in ("-u", name)]
    with TmuxShell(["env", *unset, "CI=true", SNM], env=local_env) as shell:
        screen = shell.wait_for_text("snm anon@local>")
        assert ("snm: no project named (--url, SUPABASE_URL, --profile): using the local project "
                f"at {default_local['url']} (--local chooses it without this note)") in screen
        shell.type("from dog_profile select name where id eq 1")
        shell.press("Enter")
        shell.wait_for_text("Bori")


def test_local_names_the_local_project_under_ci(local_env, default_local, script):
    env = {**local_env, "CI": "true"}
    result = clean_run("--local", "--format", "csv", "-c",
                       "from dog_profile select name where name eq 'Bori'", env=env)
    assert result.returncode == 0, result.stderr
    assert (result.stdout, result.stderr) == ("name\nBori\n", "")
    tested = clean_run("test", "--local", script, env=env)
    assert tested.returncode == 0, tested.stdout + tested.stderr
    assert tested.stdout.splitlines()[0] == (
        f"target: {default_local['url']} (publishable key, from --local)")


# ---- every run says its target -----------------------------------------------------------------

def test_snm_test_says_its_target_first_and_in_every_report(project, home, script, tmp_path):
    reports = tmp_path / "reports"
    result = clean_run(
        "test", "--url", project.url, "--key", project.status["publishable_key"], script,
        "--report", f"junit={reports}/r.xml", "--report", f"tap={reports}/r.tap",
        "--report", f"json={reports}/r.json", env={**home, "CI": "true"})
    assert result.returncode == 0, result.stdout + result.stderr
    line = f"target: {project.url} (publishable key, from --url)"
    assert result.stdout.splitlines()[0] == line
    junit = ElementTree.parse(reports / "r.xml").getroot()
    properties = {p.get("name"): p.get("value") for p in junit.iter("property")}
    assert properties == {"snm.target.url": project.url, "snm.target.key": "publishable",
                          "snm.target.source": "--url"}
    tap = (reports / "r.tap").read_text().splitlines()
    assert tap[:3] == ["TAP version 13", "1..1", f"# {line}"]
    report = json.loads((reports / "r.json").read_text())
    assert report["target"] == {"url": project.url, "key": "publishable", "source": "--url"}
    for path in reports.iterdir():
        assert project.status["publishable_key"] not in path.read_text()


def test_a_script_says_its_target_on_stderr_and_stdout_keeps_the_data(project, home, script):
    env = {**home, "CI": "true", "SUPABASE_URL": project.url,
           "SUPABASE_SECRET_KEY": project.status["secret_key"]}
    result = clean_run("--format", "json", script, env=env)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == [{"name": "Bori"}]
    assert result.stderr == f"target: {project.url} (secret key, from SUPABASE_URL)\n"
    piped = clean_run("--format", "json", input="from dog_profile select name where id eq 1\n",
                      env=env)
    assert piped.returncode == 0, piped.stderr
    assert json.loads(piped.stdout) == [{"name": "Bori"}]


def test_merged_reports_keep_their_target_and_refuse_two(project, home, script, tmp_path):
    key = project.status["publishable_key"]
    runs = {}
    for name in ("a", "b"):
        runs[name] = tmp_path / f"{name}.json"
        done = clean_run("test", "--url", project.url, "--key", key, script,
                         "--report", f"json={runs[name]}", env=home)
        assert done.returncode == 0, done.stdout + done.stderr
    merged = clean_run("report", "merge", str(runs["a"]), str(runs["b"]), "--report",
                       f"json={tmp_path / 'all.json'}", env=home)
    assert merged.returncode == 0, merged.stderr
    assert json.loads((tmp_path / "all.json").read_text())["target"]["url"] == project.url
    other = json.loads(runs["b"].read_text())
    other["target"]["key"] = "secret"
    runs["b"].write_text(json.dumps(other))
    refused = clean_run("report", "merge", str(runs["a"]), str(runs["b"]), "--report",
                        f"json={tmp_path / 'mixed.json'}", env=home)
    assert refused.returncode == 2
    assert "the reports ran against different projects" in refused.stderr
    assert not (tmp_path / "mixed.json").exists()


# ---- a flag beats the environment, which beats files --------------------------------------------

def test_profile_beats_the_environment_and_says_so(project, home, tmp_path):
    config = tmp_path / "config" / "snm"
    config.mkdir(parents=True)
    (config / "config.json").write_text(json.dumps(
        {"profiles": {"staging": {"url": project.url,
                                  "publishable_key": project.status["publishable_key"]}}}))
    elsewhere = f"http://127.0.0.1:{free_port()}"
    env = {**home, "CI": "true", "SUPABASE_URL": elsewhere,
           "SUPABASE_SECRET_KEY": "sb_secret_of_another_project"}
    result = clean_run("--profile", "staging", "--format", "csv", "-c",
                       "echo '${session.role}'; from dog_profile select name where id eq 1",
                       env=env)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "anon\nname\nBori\n"
    assert result.stderr == (
        f"snm: using profile 'staging' ({project.url}) from --profile, not SUPABASE_URL "
        f"({elsewhere})\n")


def test_url_and_key_flags_beat_the_variables_and_say_so(project, home):
    elsewhere = f"http://127.0.0.1:{free_port()}"
    env = {**home, "CI": "true", "SUPABASE_URL": elsewhere,
           "SUPABASE_PUBLISHABLE_KEY": "sb_publishable_of_another_project"}
    result = clean_run("--url", project.url, "--key", project.status["publishable_key"],
                       "--format", "csv", "-c", "from dog_profile select name where id eq 1",
                       env=env)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "name\nBori\n"
    assert result.stderr == (
        f"snm: using --url ({project.url}), not SUPABASE_URL ({elsewhere})\n"
        "snm: using --key, not $SUPABASE_PUBLISHABLE_KEY\n")


def test_two_flags_that_name_projects_are_refused(project, home):
    result = clean_run("--local", "--url", project.url, "--key", "k", "-c", "echo 1", env=home)
    assert result.returncode == 2
    assert "--url and --local each name a project: give one of them" in result.stderr


# ---- a service URL, a stopped local project -----------------------------------------------------

@pytest.mark.parametrize("tail", ["/rest/v1", "/rest/v1/", "/auth/v1/token", "/storage/v1/object"])
def test_a_service_url_stands_for_its_project_with_a_note(project, home, tail):
    result = clean_run("--url", project.url + tail, "--key", project.status["publishable_key"],
                       "--format", "csv", "-c", "from dog_profile select name where id eq 1",
                       env={**home, "CI": "true"})
    assert result.returncode == 0, result.stderr
    assert result.stdout == "name\nBori\n"
    shown = tail.rstrip("/")
    assert result.stderr == (
        f"snm: --url ends in {shown}, which snm adds itself: using the project URL "
        f"{project.url}\n")


def test_explain_takes_a_service_url_as_its_project_too(home):
    result = clean_run("explain", "--url", "https://abcd.supabase.co/rest/v1",
                       "from dog_profile select name", env=home)
    assert result.returncode == 0, result.stderr
    assert "https://abcd.supabase.co/rest/v1/dog_profile?select=name" in result.stdout
    assert "/rest/v1/rest/v1" not in result.stdout
    assert result.stderr == ("snm: --url ends in /rest/v1, which snm adds itself: using the "
                             "project URL https://abcd.supabase.co\n")


def test_a_refused_local_port_is_snm_s_project_only_when_its_data_dir_records_it(
        project, home, script):
    """A refused 127.0.0.1 URL is "the local project ... is not running" with how to start it
    only when a data dir of snm's records that port (here the default one, as `snm local start`
    left it); any other port (the Supabase CLI's stack, another server) is "nothing answers at
    URL", with no advice to start a project snm never made there. Every refused port on this
    machine read as snm's project, with `snm local start --port N` as the cure."""
    # Port 9 (discard) refuses, and no data dir of snm's records it (any free port may be the one
    # a stopped project of snm's on this machine recorded: found through /var/lib/snm/clusters).
    port = 9
    url = f"http://127.0.0.1:{port}"
    env = {**home, "CI": "true", "SUPABASE_URL": url, "SUPABASE_PUBLISHABLE_KEY": "sb_publishable_x",
           "XDG_DATA_HOME": str(pathlib.Path(home["HOME"]) / ".local" / "share")}
    result = clean_run("-c", "from dog_profile select name", env=env)
    assert result.returncode == 3
    assert result.stderr.splitlines()[0] == (
        f"-c:1:1: error: nothing answers at {url}: from dog_profile select name"), result.stderr
    assert "snm local start" not in result.stderr and "local project" not in result.stderr
    tested = clean_run("test", script, env=env)
    assert tested.returncode == 3
    assert f"nothing answers at {url}" in tested.stdout
    # The default data dir records that port: now it is snm's project, started with plain
    # `snm local start` (it starts on the port it recorded).
    state = json.loads((pathlib.Path(project.data_dir) / "project.json").read_text())
    state["port"] = port
    default_dir = pathlib.Path(home["HOME"]) / ".local" / "share" / "snm" / "local"
    default_dir.mkdir(parents=True)
    (default_dir / "project.json").write_text(json.dumps(state))
    result = clean_run("-c", "from dog_profile select name", env=env)
    assert result.returncode == 3
    assert result.stderr.splitlines()[0] == (
        f"-c:1:1: error: the local project at {url} is not running: from dog_profile select name")
    assert (f"snm: the local project at {url} is not running: start it with: snm local start\n"
            ) in result.stderr
