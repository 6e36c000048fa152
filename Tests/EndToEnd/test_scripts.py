"""`.snm` scripts end to end: the real snm binary against the local project (real Postgres).

Each failing script is compared, exit code, stdout and stderr, with a golden file; so are the
stdout and the JUnit/TAP reports of `snm test` over them. RECORD_SNAPSHOTS=1 re-records.
"""
import json
import os
import pathlib
import re
import signal
import subprocess
import time
from xml.etree import ElementTree

import pytest

from conftest import ROOT, SNM, WORKDIR, free_port, run_snm, start_on_port
from script_golden import expect_golden, normalise, transcript

FAILING = "Tests/EndToEnd/scripts/failing"
SMOKE = "scripts/smoke"


def snm_env(project, tmp_path):
    """The project through SUPABASE_URL/SUPABASE_ANON_KEY; sessions kept under tmp_path."""
    return {
        "SUPABASE_URL": project.url, "SUPABASE_ANON_KEY": project.anon_key,
        "XDG_STATE_HOME": str(tmp_path / "state"), "XDG_CACHE_HOME": str(tmp_path / "cache"),
        "NO_COLOR": "1",
    }


def smoke_env(project, tmp_path):
    """snm_env and the project's service key, with which the smoke scripts make their users."""
    return {**snm_env(project, tmp_path),
            "SUPABASE_SERVICE_ROLE_KEY": project.status["secret_key"]}


def run_in_root(*args, env, timeout=120):
    """Runs snm from the repository root, so paths in messages read as in the golden files."""
    full_env = dict(os.environ)
    full_env.update(env)
    return subprocess.run(
        [SNM, *args], cwd=ROOT, capture_output=True, text=True, env=full_env, timeout=timeout)


FAILING_CASES = [
    # (script, exit code)
    ("expect-rows", 1),
    ("expect-value", 1),
    ("expect-error-missing", 1),
    ("expect-error-code", 1),
    ("server-error", 1),
    ("rls-insert", 1),
    ("run-failure", 1),
    ("continue-on-error", 1),
    ("parse-error", 2),
    ("undefined-variable", 2),
    ("run-cycle", 2),
    ("missing-field", 2),
    ("sign-in-failure", 3),
]


@pytest.mark.parametrize("name,code", FAILING_CASES, ids=[c[0] for c in FAILING_CASES])
def test_failing_script(project, tmp_path, name, code):
    result = run_in_root(
        "--format", "json", f"{FAILING}/{name}.snm", env=snm_env(project, tmp_path))
    assert result.returncode == code, transcript(result)
    expect_golden(f"failing/{name}.txt", transcript(result))


def test_a_password_in_a_script_is_never_printed(project, tmp_path):
    env = snm_env(project, tmp_path)
    junit = tmp_path / "r.xml"
    runs = [
        run_in_root("--echo", f"{FAILING}/sign-in-failure.snm", env=env),
        run_in_root("test", f"{FAILING}/sign-in-failure.snm", "--report", f"junit={junit}",
                    env=env),
    ]
    for result in runs:
        assert result.returncode == 3
        assert "'********'" in result.stdout + result.stderr
        assert "not-her-password" not in result.stdout + result.stderr
    assert "not-her-password" not in junit.read_text()


def test_parse_errors_send_nothing(project, tmp_path):
    """A script with a parse error is refused before its first statement (even at another URL
    that answers nothing, nothing is attempted)."""
    env = snm_env(project, tmp_path)
    env["SUPABASE_URL"] = f"http://127.0.0.1:{free_port()}"
    result = run_in_root(f"{FAILING}/parse-error.snm", env=env)
    assert result.returncode == 2
    assert "could not reach" not in result.stderr
    assert result.stdout == ""


def test_unreachable_project_exits_3(project, tmp_path):
    env = snm_env(project, tmp_path)
    # Port 9 (discard): refused, and no data dir of snm's records it (a free port may be the one a
    # stopped project of snm's recorded, which the message then names).
    env["SUPABASE_URL"] = "http://127.0.0.1:9"
    result = run_in_root(f"{FAILING}/server-error.snm", env=env)
    assert result.returncode == 3, transcript(result)
    expect_golden("unreachable.txt", transcript(result))


def test_continue_on_error_flag_runs_everything(project, tmp_path):
    result = run_in_root(
        "--continue-on-error", "--format", "json", f"{FAILING}/expect-rows.snm",
        env=snm_env(project, tmp_path))
    assert result.returncode == 1
    assert result.stdout.endswith("not reached\n")


def test_quiet_prints_only_failures_and_echo_prints_statements(project, tmp_path):
    env = snm_env(project, tmp_path)
    quiet = run_in_root("--quiet", f"{FAILING}/run-failure.snm", env=env)
    assert quiet.returncode == 1
    assert quiet.stdout == ""
    assert "count-dogs.snm:2:1: error: expectation failed: expect rows 10" in quiet.stderr
    echoed = run_in_root("--echo", "--format", "csv", f"{FAILING}/server-error.snm", env=env)
    assert echoed.stdout == "echo 'before'\nbefore\nfrom no_such_table select *\n"


def test_commands_and_stdin_run_the_same_language(project, tmp_path):
    env = snm_env(project, tmp_path)
    statements = ("let n = 2; from dog_profile select id where id in (1, 4) and is_public is true; "
                  "expect rows $n; from no_such_table select *; expect error PGRST205; "
                  "expect status 404; echo 'n is $n'")
    by_c = run_in_root("-c", statements, "--format", "csv", env=env)
    assert by_c.returncode == 0, transcript(by_c)
    assert by_c.stdout == "id\n1\n4\nn is 2\n"
    full_env = dict(os.environ)
    full_env.update(env)
    by_stdin = subprocess.run(
        [SNM, "--format", "csv"], input=statements.replace("; ", "\n") + "\nexpect rows 3\n",
        capture_output=True, text=True, env=full_env, cwd=ROOT, timeout=60)
    assert by_stdin.returncode == 1
    assert by_stdin.stdout == "id\n1\n4\nn is 2\n"
    assert by_stdin.stderr.startswith("stdin:8:1: error: expectation failed: expect rows 3\n")
    dash = subprocess.run(
        [SNM, "--format", "csv", "-"], input="echo 'whole'\nexpect 1 == 1\n",
        capture_output=True, text=True, env=full_env, cwd=ROOT, timeout=60)
    assert (dash.returncode, dash.stdout) == (0, "whole\n")


def test_stdin_runs_the_lines_before_a_parse_error_and_dash_checks_it_whole(tmp_path):
    """README: standard input runs line by line (a pipe may never end), as psql reads it: the
    lines before a parse error ran, then exit 2 there and nothing after it; `snm -` reads it to
    its end and checks it first, as a file: nothing runs. Both at a URL that answers nothing."""
    env = {**os.environ, "SUPABASE_URL": f"http://127.0.0.1:{free_port()}",
           "SUPABASE_ANON_KEY": "k", "XDG_STATE_HOME": str(tmp_path / "state"),
           "XDG_CACHE_HOME": str(tmp_path / "cache"), "NO_COLOR": "1"}
    env.pop("CI", None)
    script = "echo 'one'\necho 'two'\nfrom t selec *\necho 'after'\n"
    piped = subprocess.run([SNM], input=script, capture_output=True, text=True, env=env,
                           cwd=tmp_path, timeout=60)
    assert (piped.returncode, piped.stdout) == (2, "one\ntwo\n"), transcript(piped)
    assert piped.stderr.startswith("stdin:3:8: error: expected an action"), piped.stderr
    whole = subprocess.run([SNM, "-"], input=script, capture_output=True, text=True, env=env,
                           cwd=tmp_path, timeout=60)
    assert (whole.returncode, whole.stdout) == (2, ""), transcript(whole)
    assert whole.stderr.startswith("stdin:3:8: error: expected an action"), whole.stderr
    # Under `set on_error continue` it goes on past the bad line too, and still exits 2.
    piped = subprocess.run([SNM], input="set on_error continue\n" + script, capture_output=True,
                           text=True, env=env, cwd=tmp_path, timeout=60)
    assert (piped.returncode, piped.stdout) == (2, "one\ntwo\nafter\n"), transcript(piped)


def test_var_and_env_fill_in_variables(project, tmp_path):
    env = snm_env(project, tmp_path)
    env["DOG_NAME"] = "Bori"
    result = run_in_root(
        "--var", "id=1", "-c",
        "let d = from dog_profile select name where id eq $id single\n"
        "expect $d.name == $env.DOG_NAME\necho '${d.name} is dog ${id}'", env=env)
    assert result.returncode == 0, transcript(result)
    assert result.stdout == "Bori is dog 1\n"


def test_snm_test_reports_match_golden_files(project, tmp_path):
    junit = tmp_path / "report.xml"
    tap = tmp_path / "report.tap"
    as_json = tmp_path / "report.json"
    result = run_in_root(
        "test", FAILING, "--report", f"junit={junit}", "--report", f"tap={tap}",
        "--report", f"json={as_json}", env=snm_env(project, tmp_path))
    # One file cannot sign in (3): the highest exit code among them.
    assert result.returncode == 3, transcript(result)
    assert result.stdout.splitlines()[-1] == f"0 passed, {len(FAILING_CASES)} failed"
    expect_golden("test-run.txt", transcript(result))
    expect_golden("report.junit.xml", junit.read_text())
    expect_golden("report.tap", tap.read_text())
    check_junit(junit.read_text(), tests=len(FAILING_CASES), failures=8, errors=5)
    check_tap(tap.read_text(), tests=len(FAILING_CASES))
    report = json.loads(as_json.read_text())
    assert [f["path"] for f in report["files"]] == sorted(
        f"{FAILING}/{name}.snm" for name, _ in FAILING_CASES)
    assert report["failed"] == len(FAILING_CASES)


def check_junit(text, tests, failures, errors):
    """Well-formed JUnit XML whose counts agree with its test cases."""
    root = ElementTree.fromstring(text)
    assert root.tag == "testsuites"
    suite = root.find("testsuite")
    cases = suite.findall("testcase")
    assert len(cases) == tests == int(suite.get("tests")) == int(root.get("tests"))
    assert sum(1 for c in cases if c.find("failure") is not None) == failures
    assert sum(1 for c in cases if c.find("error") is not None) == errors
    assert int(suite.get("failures")) == failures and int(suite.get("errors")) == errors


def check_tap(text, tests):
    """TAP version 13: the version line, the plan, the target as a comment, numbered results,
    YAML blocks whose scalars are plain words, numbers or JSON-quoted strings."""
    lines = text.splitlines()
    assert lines[0] == "TAP version 13" and lines[1] == f"1..{tests}"
    assert lines[2].startswith("# target: "), lines[2]
    number = 0
    in_yaml = False
    for line in lines[3:]:
        if in_yaml:
            if line == "  ...":
                in_yaml = False
                continue
            if line.strip().startswith('- "'):  # an item of a list of strings (trace:)
                json.loads(line.strip()[2:])
                continue
            key, _, value = line.strip().removeprefix("- ").removesuffix(":").partition(": ")
            assert key.replace("_", "").isalpha(), line
            if value and not value.isidentifier():
                json.loads(value)
            continue
        if line == "  ---":
            in_yaml = True
            continue
        number += 1
        status, _, rest = line.partition(f" {number} - ")
        assert status in ("ok", "not ok") and rest, line
    assert number == tests and not in_yaml


def test_snm_check_finds_every_error_offline(tmp_path):
    env = {"SUPABASE_URL": f"http://127.0.0.1:{free_port()}", "SUPABASE_ANON_KEY": "x",
           "NO_COLOR": "1"}
    result = run_in_root("check", FAILING, env=env)
    assert result.returncode == 2
    expect_golden("check.txt", transcript(result))
    clean = run_in_root("check", f"{FAILING}/expect-rows.snm", env=env)
    assert (clean.returncode, clean.stdout) == (0, "checked 1 file: no errors\n")


def test_snm_check_never_warns_from_another_projects_cache_on_the_same_port(tmp_path):
    """Local projects served in turn on one port are different projects: the schema the shell
    cached for the first is not the second's (issue 43: keyed by URL alone, it gave `snm check`
    warnings about names the second project has)."""
    first_dir, second_dir = WORKDIR / "projects" / "cache-first", WORKDIR / "projects" / "cache-second"
    first = start_on_port(first_dir, free_port())
    try:
        loaded = run_snm("-c", "tables", env=names_project(first.url, first.anon_key))
        assert loaded.returncode == 0, loaded.stderr
    finally:
        first.stop()
    second = start_on_port(second_dir, first.port)
    try:
        assert second.url == first.url and second.anon_key != first.anon_key
        second.sql("create table only_in_second (id int primary key); "
                   "grant select on only_in_second to anon; notify pgrst, 'reload schema'")
        script = tmp_path / "second.snm"
        script.write_text("from only_in_second select id\n")
        checked = run_snm("check", str(script), env=names_project(second.url, second.anon_key))
        assert (checked.returncode, checked.stdout, checked.stderr) == (
            0, "checked 1 file: no errors\n", "")
        # The first project's cache is still its own: there the name is unknown.
        stale = run_snm("check", str(script), env=names_project(first.url, first.anon_key))
        assert "warning: no table, view or function 'only_in_second' in the cached schema" in \
            stale.stderr, stale.stderr
    finally:
        second.stop()


def names_project(url, key):
    return {"SUPABASE_URL": url, "SUPABASE_ANON_KEY": key, "NO_COLOR": "1"}


def write_twenty_scripts(directory):
    """Twenty files: most pass, some fail an expectation, one does not parse; the early ones
    sleep longest, so with --jobs 4 they finish out of order."""
    directory.mkdir()
    for number in range(20):
        lines = [f"rpc sleep_for {{\"seconds\": {0.05 * (20 - number) / 4:.3f}}}",
                 "from dog_profile select id where is_public is true and id in (1, 4) order by id"]
        if number % 6 == 5:
            lines.append("expect rows 3")
        elif number == 13:
            lines.append("from dog_profile select where")
        else:
            lines += ["expect rows 2", f"echo 'file {number}'"]
        (directory / f"t{number:02d}.snm").write_text("\n".join(lines) + "\n")


def test_jobs_4_reports_the_same_as_jobs_1(project, tmp_path):
    scripts = tmp_path / "twenty"
    write_twenty_scripts(scripts)
    env = snm_env(project, tmp_path)
    outputs = {}
    for jobs in ("1", "4"):
        reports = tmp_path / f"jobs{jobs}"
        result = run_snm(
            "test", "--jobs", jobs, str(scripts), "--report", f"junit={reports}/r.xml",
            "--report", f"tap={reports}/r.tap", "--report", f"json={reports}/r.json", env=env,
            timeout=120)
        assert result.returncode == 2, transcript(result)
        assert result.stdout.splitlines()[-1] == "16 passed, 4 failed"
        check_junit((reports / "r.xml").read_text(), tests=20, failures=3, errors=1)
        check_tap((reports / "r.tap").read_text(), tests=20)
        outputs[jobs] = [normalise(result.stdout)] + [
            normalise((reports / name).read_text()) for name in ("r.xml", "r.tap", "r.json")]
    assert outputs["1"] == outputs["4"]


def start_script(path, env):
    full_env = dict(os.environ)
    full_env.update(env)
    return subprocess.Popen(
        [SNM, *path], cwd=ROOT, env=full_env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True)


@pytest.mark.parametrize("sig,code,verb", [
    (signal.SIGINT, 130, "interrupted"), (signal.SIGTERM, 143, "terminated")])
def test_a_signal_stops_a_script_naming_the_statement(project, tmp_path, sig, code, verb):
    script = tmp_path / "slow.snm"
    script.write_text("echo 'sleeping'\nrpc sleep_for {\"seconds\": 8}\necho 'not reached'\n")
    process = start_script([str(script)], snm_env(project, tmp_path))
    assert process.stdout.readline() == "sleeping\n"
    time.sleep(0.5)
    process.send_signal(sig)
    out, err = process.communicate(timeout=20)
    # How soon the signal ends a request is test_faults_network's to show, against a server
    # that never answers (this sleep ends at the anon role's 3 s statement_timeout anyway).
    assert process.returncode == code, err
    assert err == (f"target: {project.url} (anon key, from SUPABASE_URL)\n"
                   f"snm: {verb} at {script}:2:1: rpc sleep_for {{\"seconds\": 8}}\n")
    assert "not reached" not in out


def test_a_signal_stops_snm_test_and_still_reports(project, tmp_path):
    scripts = tmp_path / "slow"
    scripts.mkdir()
    for number in range(3):
        (scripts / f"s{number}.snm").write_text(
            f"echo 'file {number}'\nrpc sleep_for {{\"seconds\": 8}}\n")
    junit = tmp_path / "r.xml"
    process = start_script(
        ["test", "--jobs", "2", str(scripts), "--report", f"junit={junit}"],
        snm_env(project, tmp_path))
    time.sleep(1.5)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=20)
    assert process.returncode == 130, out + err
    assert f"{scripts}/s0.snm:2:1" in out and "snm: interrupted at" in out
    assert out.splitlines()[-1] == "0 passed, 2 failed"
    assert "interrupted: 1 file not run" in out
    assert junit.read_text().count("<skipped ") == 1


def test_smoke_scripts_pass_with_reports(project, tmp_path):
    junit = tmp_path / "smoke.xml"
    tap = tmp_path / "smoke.tap"
    result = run_in_root(
        "test", SMOKE, "--report", f"junit={junit}", "--report", f"tap={tap}",
        env=smoke_env(project, tmp_path))
    assert result.returncode == 0, transcript(result)
    expect_golden("smoke-run.txt", transcript(result))
    expect_golden("smoke.junit.xml", junit.read_text())
    expect_golden("smoke.tap", tap.read_text())


def test_smoke_scripts_pass_twice_and_side_by_side(project, tmp_path):
    """Each smoke script makes its own users and cleans up: a second run, and two runs with
    --jobs at the same time, pass as the first did."""
    env = smoke_env(project, tmp_path)
    again = run_in_root("test", "--quiet", SMOKE, env=env)
    assert again.returncode == 0, transcript(again)
    full_env = dict(os.environ)
    full_env.update(env)
    runs = [subprocess.Popen(
        [SNM, "test", "--jobs", "3", SMOKE], cwd=ROOT, env=full_env, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True) for _ in range(2)]
    for run in runs:
        out, err = run.communicate(timeout=300)
        assert run.returncode == 0, out + err
        assert out.splitlines()[-1] == "10 passed, 0 failed"


def test_a_smoke_script_runs_on_its_own(project, tmp_path):
    """`snm FILE` prints the results as it goes and ends with the script's last echo."""
    result = run_in_root(f"{SMOKE}/02-profile.snm", env=smoke_env(project, tmp_path))
    assert result.returncode == 0, transcript(result)
    assert result.stderr == f"target: {project.url} (anon key, from SUPABASE_URL)\n"
    assert re.search(r"signed out\ndeleted user [0-9a-f-]{36}\nprofile checks passed\n$",
                     result.stdout), result.stdout


def test_snm_check_passes_the_smoke_scripts():
    result = run_in_root("check", SMOKE, env={"NO_COLOR": "1"})
    assert (result.returncode, result.stdout) == (0, "checked 10 files: no errors\n")


def test_each_test_file_has_its_own_variables_and_session(project, tmp_path):
    """a.snm signs in and binds $x; b.snm (run after it, and beside it with --jobs) is still
    signed out; c.snm cannot see $x."""
    files = tmp_path / "isolated"
    files.mkdir()
    (files / "a.snm").write_text("login\nexpect $session.role == 'authenticated'\nlet x = 1\n")
    (files / "b.snm").write_text("expect $session.role == 'anon'\nexpect $session.user_id == null\n")
    (files / "c.snm").write_text("echo '$x'\n")
    env = snm_env(project, tmp_path)
    for jobs in ("1", "3"):
        result = run_snm("test", "--jobs", jobs, str(files), env=env)
        assert result.returncode == 2, transcript(result)
        lines = result.stdout.splitlines()
        assert lines[:4] == [f"target: {project.url} (anon key, from SUPABASE_URL)",
                             f"PASS  {files}/a.snm", f"PASS  {files}/b.snm", f"FAIL  {files}/c.snm"]
        assert "undefined variable '$x'" in result.stdout
