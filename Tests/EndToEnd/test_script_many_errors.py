"""A script with very many mistakes: the first 100 errors are shown, then one line saying how many
more were left out and how many there are in all; the exit code and the counts stay exact.

A file of 200,000 bad lines printed some 14 MB of diagnostics to standard error (`snm check`,
`snm FILE`, `snm test`'s output and reports), which a CI log cuts (or a terminal scrolls for
minutes) long before the summary. javac shows its first 100 the same way.
"""
import re
from xml.etree import ElementTree

from conftest import free_port, run_snm

LINES = 200_000
# The first 100 diagnostics of `from` are 100 x 70 bytes; everything but them is a few lines.
MOST_BYTES = 32 * 1024


def offline(tmp_path):
    """A project named by URL on a port nothing listens on: nothing is started or reached."""
    return {"SUPABASE_URL": f"http://127.0.0.1:{free_port()}", "SUPABASE_ANON_KEY": "x",
            "NO_COLOR": "1"}


def bad_file(tmp_path, name, lines):
    path = tmp_path / name
    path.write_text("from\n" * lines)
    return path


def error_lines(stderr, path):
    return [int(line) for line in re.findall(rf"^{re.escape(str(path))}:(\d+):5: error: ", stderr,
                                             re.M)]


def test_snm_check_shows_the_first_100_errors_and_counts_them_all(tmp_path):
    script = bad_file(tmp_path, "many.snm", LINES)
    result = run_snm("check", str(script), env=offline(tmp_path), timeout=120)
    assert result.returncode == 2, result.stderr[-2000:]
    assert len(result.stderr) < MOST_BYTES, f"{len(result.stderr):,} bytes on standard error"
    assert error_lines(result.stderr, script) == list(range(1, 101))
    lines = result.stderr.splitlines()
    assert lines[-2:] == [
        "snm: 199900 more errors not shown (200000 errors in all): the first 100 errors are "
        "shown, no more; fix them first",
        "200000 errors in 1 file (checked 1 file)"], lines[-3:]
    assert result.stdout == ""


def test_snm_check_shares_the_100_across_files_and_counts_every_file(tmp_path):
    first = bad_file(tmp_path, "a.snm", 60)
    second = bad_file(tmp_path, "b.snm", 60)
    clean = tmp_path / "c.snm"
    clean.write_text("let x = 1\n")
    result = run_snm("check", str(first), str(second), str(clean), env=offline(tmp_path))
    assert result.returncode == 2, result.stderr
    assert error_lines(result.stderr, first) == list(range(1, 61))
    assert error_lines(result.stderr, second) == list(range(1, 41))
    assert result.stderr.splitlines()[-2:] == [
        "snm: 20 more errors not shown (120 errors in all): the first 100 errors are shown, no "
        "more; fix them first",
        "120 errors in 2 files (checked 3 files)"]
    # Exactly 100: all shown, nothing said of more.
    hundred = bad_file(tmp_path, "hundred.snm", 100)
    result = run_snm("check", str(hundred), env=offline(tmp_path))
    assert result.returncode == 2
    assert error_lines(result.stderr, hundred) == list(range(1, 101))
    assert "not shown" not in result.stderr
    assert result.stderr.splitlines()[-1] == "100 errors in 1 file (checked 1 file)"


def test_running_a_file_of_many_errors_shows_the_first_100_and_runs_nothing(tmp_path):
    script = bad_file(tmp_path, "many.snm", LINES)
    result = run_snm(str(script), env=offline(tmp_path), timeout=120)
    assert result.returncode == 2, result.stderr[-2000:]
    assert len(result.stderr) < MOST_BYTES, f"{len(result.stderr):,} bytes on standard error"
    assert error_lines(result.stderr, script) == list(range(1, 101))
    assert result.stderr.splitlines()[-1] == (
        "snm: 199900 more errors not shown (200000 errors in all): the first 100 errors are "
        "shown, no more; fix them first")
    assert "target:" not in result.stderr   # no project was chosen


def test_snm_test_reports_the_first_100_errors_of_a_file_and_the_count(tmp_path):
    script = bad_file(tmp_path, "many.snm", LINES)
    report = tmp_path / "report.xml"
    result = run_snm("test", str(script), "--report", f"junit={report}", env=offline(tmp_path),
                     timeout=120)
    assert result.returncode == 2, result.stdout[-2000:]
    assert len(result.stdout) < MOST_BYTES, f"{len(result.stdout):,} bytes on standard output"
    assert "199900 more errors not shown (200000 errors in all)" in result.stdout
    assert result.stdout.splitlines()[-1] == "0 passed, 1 failed"
    assert report.stat().st_size < MOST_BYTES, f"{report.stat().st_size:,} bytes of report"
    error = ElementTree.parse(report).getroot().find("./testsuite/testcase/error")
    assert error.get("type") == "parse"
    assert error.get("message") == f"{script}:1:5: expected a table name after 'from'"
    assert error_lines(error.text, script) == list(range(1, 101))
    assert "199900 more errors not shown (200000 errors in all)" in error.text


def test_warnings_past_the_limit_are_left_out_and_counted(project, tmp_path):
    """Warnings alone (names the cached schema does not hold: a data file with its table's name
    mistyped on every line) had no limit: the limit counted errors only, so every warning was
    printed, 20,000 lines' worth here (a line, the statement and a caret each). The first 100
    are shown, as javac's -Xmaxwarns shows its first 100, then how many more."""
    env = {"SUPABASE_URL": project.url, "SUPABASE_ANON_KEY": project.anon_key, "NO_COLOR": "1"}
    cached = run_snm("-c", "tables", env=env)       # the shell caches the project's schema
    assert cached.returncode == 0, cached.stderr
    script = tmp_path / "warned.snm"
    script.write_text("from dog_profle select *\n" * 20_000)
    result = run_snm("check", str(script), env=env, timeout=120)
    assert result.stderr.count("warning: no table, view or function 'dog_profle'") == 100, \
        result.stderr[-2000:]
    assert len(result.stderr) < 100_000, len(result.stderr)   # main: all, ~4.4 MB
    assert ("snm: 19900 more warnings not shown (20000 warnings in all): the first 100 warnings "
            "are shown, no more\n") in result.stderr, result.stderr[-2000:]


def test_warnings_past_the_limit_are_counted_in_the_tail(project, tmp_path):
    """Warnings (names the cached schema does not hold) after the first 100 errors are left out
    and counted in the tail line, as the errors past them are."""
    env = {"SUPABASE_URL": project.url, "SUPABASE_ANON_KEY": project.anon_key, "NO_COLOR": "1"}
    cached = run_snm("-c", "tables", env=env)       # the shell caches the project's schema
    assert cached.returncode == 0, cached.stderr
    script = tmp_path / "warned.snm"
    script.write_text("from\n" * 101 + "from dog_profle select *\n" * 3)
    result = run_snm("check", str(script), env=env, timeout=120)
    assert result.returncode == 2, result.stderr[-2000:]
    assert error_lines(result.stderr, script) == list(range(1, 101))
    assert "warning:" not in result.stderr, result.stderr[-2000:]
    assert result.stderr.splitlines()[-2:] == [
        "snm: 1 more error and 3 more warnings not shown (101 errors in all): the first 100 "
        "errors are shown, no more; fix them first",
        "101 errors in 1 file (checked 1 file)"], result.stderr[-2000:]
    # Beside fewer errors the same warnings are shown.
    script.write_text("from\n" + "from dog_profle select *\n" * 3)
    result = run_snm("check", str(script), env=env)
    assert result.returncode == 2
    assert result.stderr.count("warning: no table, view or function 'dog_profle'") == 3


def test_the_tail_names_both_limits_when_both_are_reached(tmp_path):
    """Past the first 100 warnings and the first 100 errors, the tail line named the errors'
    limit only ('(101 errors in all): the first 100 errors are shown'), as if the 50 warnings left
    out were past it, and counted no warning. It names both, and both counts. No project: the
    warnings are variables bound nowhere after a `run` of a file the script writes first."""
    script = tmp_path / "both.snm"
    script.write_text("\\o gen.snm\necho 'let made = 7'\n\\o\nrun gen.snm\n"
                      + "echo '$made'\n" * 150 + "from\n" * 101)
    result = run_snm("check", str(script), env=offline(tmp_path), cwd=tmp_path, timeout=120)
    assert result.returncode == 2, result.stderr[-2000:]
    assert result.stderr.count(": warning: ") == 100, result.stderr[-2000:]
    assert len(error_lines(result.stderr, script)) == 100, result.stderr[-2000:]
    assert result.stderr.splitlines()[-2:] == [
        "snm: 1 more error and 51 more warnings not shown (101 errors and 151 warnings in all): "
        "the first 100 errors and the first 100 warnings are shown, no more; fix the errors first",
        "101 errors in 1 file (checked 1 file)"], result.stderr[-2000:]
