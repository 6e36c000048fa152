"""`snm test` reads and checks every file before it chooses a project, as `snm FILE` does
(EarlyCheck): a file that does not parse is a failed test with where and why, exit 2, and when no
file is left to run no project is chosen, started or reached. `snm test --local bad.snm` started
the local project first (and a start that failed said only that, nothing of the file).

The local project of these runs cannot be started: XDG_DATA_HOME is a file, so a start fails at
once saying `cannot create the data dir` (and writes nothing).
"""
import re
from xml.etree import ElementTree

from conftest import run_snm

BAD = "from\n"
ERROR = "bad.snm:1:5: error: expected a table name after 'from'"


def unstartable(tmp_path, home):
    data_home = tmp_path / "data-home-is-a-file"
    data_home.write_text("")
    return {**home, "XDG_DATA_HOME": str(data_home)}


def test_a_file_that_does_not_parse_fails_its_test_with_no_project_started(project, tmp_path,
                                                                          home):
    bad = tmp_path / "bad.snm"
    bad.write_text(BAD)
    missing = tmp_path / "runs_missing.snm"
    # A file that is there when it is checked (a directory, here) is checked first; one that
    # does not exist yet is checked when it runs (test_run_targets_made_later).
    (tmp_path / "nowhere.snm").mkdir()
    missing.write_text("run 'nowhere.snm'\n")
    report = tmp_path / "report.xml"
    result = run_snm("test", "--local", str(bad), str(missing), "--report", f"junit={report}",
                     "--report", f"json={tmp_path / 'report.json'}",
                     env=unstartable(tmp_path, home), cwd=tmp_path)
    assert result.returncode == 2, result.stdout + result.stderr
    assert "data dir" not in result.stderr and result.stderr == "", result.stderr
    lines = result.stdout.splitlines()
    assert not any(line.startswith("target:") for line in lines), result.stdout
    assert lines[0] == f"FAIL  {bad}", result.stdout
    assert f"      {tmp_path}/{ERROR}" in lines, result.stdout
    assert f"FAIL  {missing}" in lines, result.stdout
    assert any("runs_missing.snm:1:5: error:" in line and "nowhere.snm" in line
               for line in lines), result.stdout
    # Nothing ran: the summary says so and why, not 'ran 2 files in 0.00 s'.
    assert lines[-2] == "none run, 2 files refused before running", result.stdout
    assert lines[-1] == "0 passed, 2 failed", result.stdout
    suite = ElementTree.parse(report).getroot().find("testsuite")
    assert (suite.get("tests"), suite.get("errors")) == ("2", "2")
    assert suite.find("properties") is None          # no project was chosen to name
    error = suite.find("testcase/error")
    assert error.get("type") == "parse"
    assert error.get("message") == f"{tmp_path}/bad.snm:1:5: expected a table name after 'from'"
    assert ERROR in error.text

    # Beside a file that parses, the project is chosen (and started, here in vain) for it.
    good = tmp_path / "good.snm"
    good.write_text("let n = 1\nexpect $n == 1\n")
    # With a project that cannot start, the file that parses makes the run try (and say why not).
    tried = run_snm("test", "--local", str(bad), str(good), "--report", f"junit={report}",
                    env=unstartable(tmp_path, home))
    # The start's error is said once, on standard error; bad.snm's diagnostics are still shown
    # (they were not shown at all, only the start's error, exit 1), and good.snm, which had no
    # project to run on, gets no FAIL of its own repeating that error: the summary counts it.
    # The exit code is the highest of the files' (2 beside the data dir's 1).
    assert tried.stderr.count("cannot create the data dir") == 1, tried.stderr
    assert tried.returncode == 2, tried.stdout + tried.stderr
    lines = tried.stdout.splitlines()
    assert lines[:2] == [f"FAIL  {bad}", f"      {tmp_path}/{ERROR}"], tried.stdout
    assert lines[-3:] == ["", "none run, 1 file refused before running, 1 file not run: no project",
                          "0 passed, 1 failed"], tried.stdout
    assert "good.snm" not in tried.stdout and "data dir" not in tried.stdout, tried.stdout
    # The report still names every file: good.snm as an error carrying the start's error.
    suite = ElementTree.parse(report).getroot().find("testsuite")
    assert (suite.get("tests"), suite.get("errors")) == ("2", "2")
    unreached = suite.find("testcase[@name='good.snm']/error")
    assert unreached.get("message").startswith(f"{good}: snm test: cannot create the data dir")
    env = {**home, "SUPABASE_URL": project.url, "SUPABASE_ANON_KEY": project.anon_key}
    also = tmp_path / "also.snm"
    also.write_text("let m = 2\nexpect $m == 2\n")
    result = run_snm("test", "--jobs", "2", str(good), str(bad), str(also), env=env)
    assert result.returncode == 2, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith(f"target: {project.url} ")
    # Files are said in the order named, the refused one among them.
    assert [line for line in lines if line.startswith(("PASS", "FAIL"))] == [
        f"PASS  {good}", f"FAIL  {bad}", f"PASS  {also}"], result.stdout
    assert re.fullmatch(r"ran 2 files in \d+\.\d\d s, 1 file refused before running", lines[-2])
    assert lines[-1] == "2 passed, 1 failed"
