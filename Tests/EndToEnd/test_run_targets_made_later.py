"""A `run` of a file that does not exist yet is checked when it runs, as psql's `\\i` is: a script
may write it first (`\\o gen.snm`, or an earlier test writes it for a later one). The early check
(EarlyCheck, 6157ae8; `snm test` since 04c244f) refused such a script before anything ran,
'cannot run: no such file'. A file that exists when the script is checked is still checked then,
and a file still missing when its `run` runs fails the script there, where and why, exit 2.

Nothing here needs a project: the scripts bind, write and compare only (the URL names a port
nothing listens on).
"""
from conftest import free_port, run_snm

WRITES = "\\o gen.snm\necho 'let made = 7'\n\\o\n"


def offline():
    return {"SUPABASE_URL": f"http://127.0.0.1:{free_port()}", "SUPABASE_ANON_KEY": "x",
            "NO_COLOR": "1"}


def test_a_file_the_script_writes_before_it_runs_it_is_run(tmp_path):
    env = offline()
    (tmp_path / "main.snm").write_text(WRITES + "run gen.snm\nexpect $made == 7\necho 'ok $made'\n")
    result = run_snm("main.snm", env=env, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["ok 7"], result.stdout
    assert (tmp_path / "gen.snm").read_text() == "let made = 7\n"

    # One file writes it, the next given runs it: `snm FILE FILE` and `snm test`.
    (tmp_path / "gen.snm").unlink()
    (tmp_path / "writes.snm").write_text(WRITES)
    (tmp_path / "runs.snm").write_text("run gen.snm\nexpect $made == 7\necho 'ran $made'\n")
    result = run_snm("writes.snm", "runs.snm", env=env, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["ran 7"], result.stdout
    (tmp_path / "gen.snm").unlink()
    result = run_snm("test", "writes.snm", "runs.snm", env=env, cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "PASS  writes.snm" in result.stdout and "PASS  runs.snm" in result.stdout
    assert result.stdout.splitlines()[-1] == "2 passed, 0 failed", result.stdout


def test_a_file_still_missing_when_it_runs_fails_there(tmp_path):
    env = offline()
    (tmp_path / "missing.snm").write_text("echo 'before'\nrun never.snm\necho 'after'\n")
    result = run_snm("missing.snm", env=env, cwd=tmp_path)
    assert result.returncode == 2, result.stderr
    assert result.stdout.splitlines() == ["before"], result.stdout
    assert "missing.snm:2:5: error: cannot run: no such file 'never.snm'" in result.stderr
    result = run_snm("test", "missing.snm", env=env, cwd=tmp_path)
    assert result.returncode == 2, result.stdout + result.stderr
    assert "FAIL  missing.snm" in result.stdout
    assert "missing.snm:2:5: error: cannot run: no such file 'never.snm'" in result.stdout
    assert result.stdout.splitlines()[-1] == "0 passed, 1 failed", result.stdout
    # `snm check` runs nothing: the file is not there, so it says so.
    result = run_snm("check", "missing.snm", env=env, cwd=tmp_path)
    assert result.returncode == 2 and "cannot run: no such file 'never.snm'" in result.stderr

    # A variable the missing file would have bound is refused where it is used, when it runs.
    (tmp_path / "unbound.snm").write_text(
        WRITES.replace("made", "other") + "run gen.snm\necho '$made'\necho 'after'\n")
    result = run_snm("unbound.snm", env=env, cwd=tmp_path)
    assert result.returncode == 2, result.stderr
    assert result.stdout == "", result.stdout
    assert "unbound.snm:5:7: error: undefined variable '$made'" in result.stderr

    # A file that is there when the script is checked is checked then: nothing runs.
    (tmp_path / "bad.snm").write_text("from\n")
    (tmp_path / "main.snm").write_text("echo 'before'\nrun bad.snm\n")
    result = run_snm("main.snm", env=env, cwd=tmp_path)
    assert result.returncode == 2 and result.stdout == "", result.stdout + result.stderr
    assert "bad.snm:1:5: error: expected a table name after 'from'" in result.stderr


def test_a_file_the_script_writes_anew_is_run_as_it_is_then(tmp_path):
    """A file that was there when the script was checked and that the script then writes again
    runs as it is when its `run` runs, as psql's `\\i` reads it then: snm ran the text it had read
    for the check, before anything ran. The gen.snm left by the run before ran in its place (the
    second run with --var v=2 printed 'made 1', exit 0), and a file run, written and run again ran
    its first text twice. A file written bad since its check is refused at its `run`, where and
    why."""
    env = offline()
    (tmp_path / "main.snm").write_text(
        "\\o gen.snm\necho 'let made = $v'\n\\o\nrun gen.snm\necho 'made $made'\n")
    for value in ("1", "2"):
        result = run_snm("--var", f"v={value}", "main.snm", env=env, cwd=tmp_path)
        assert result.returncode == 0, result.stderr
        assert result.stdout.splitlines() == [f"made {value}"], result.stdout
    (tmp_path / "twice.snm").write_text(
        "run gen.snm\nexpect $made == 2\necho '$made'\n" + WRITES
        + "run gen.snm\nexpect $made == 7\necho '$made'\n")
    result = run_snm("twice.snm", env=env, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["2", "7"], result.stdout
    (tmp_path / "gen.snm").write_text("let made = 2\n")
    result = run_snm("test", "twice.snm", env=env, cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.splitlines()[-1] == "1 passed, 0 failed", result.stdout
    # Written bad after the check: its `run` fails there, and nothing after it runs.
    (tmp_path / "breaks.snm").write_text(
        "run gen.snm\necho 'first $made'\n\\o gen.snm\necho 'from'\n\\o\nrun gen.snm\n"
        "echo 'after'\n")
    result = run_snm("breaks.snm", env=env, cwd=tmp_path)
    assert result.returncode == 2, result.stderr
    assert result.stdout.splitlines() == ["first 7"], result.stdout
    assert "gen.snm:1:5: error: expected a table name after 'from'" in result.stderr, result.stderr


def test_a_variable_the_made_file_binds_is_not_refused_in_the_files_after_it(tmp_path):
    """`snm a.snm b.snm`: a variable bound by a file that a.snm writes and runs may be used in
    b.snm (b.snm was refused before anything ran: 'undefined variable'). From a `run` of a file
    not there yet on, a variable bound nowhere is refused when its statement runs (the made file
    could bind any), at its line; before that `run` it is still refused before anything runs."""
    env = offline()
    (tmp_path / "writes.snm").write_text(WRITES + "run gen.snm\n")
    (tmp_path / "uses.snm").write_text("expect $made == 7\necho 'used $made'\n")
    result = run_snm("writes.snm", "uses.snm", env=env, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["used 7"], result.stdout

    # A typo after the made file's `run` (in the next file) is refused at its line when it runs.
    (tmp_path / "gen.snm").unlink()
    (tmp_path / "typo.snm").write_text("echo 'first'\necho '$mdae'\necho 'never'\n")
    result = run_snm("writes.snm", "typo.snm", env=env, cwd=tmp_path)
    assert result.returncode == 2, result.stderr
    assert result.stdout.splitlines() == ["first"], result.stdout
    assert "typo.snm:2:7: error: undefined variable '$mdae'" in result.stderr, result.stderr

    # Before the `run` of a file not there yet it is refused before anything runs: in an
    # earlier file, or earlier in the same file.
    (tmp_path / "gen.snm").unlink()
    (tmp_path / "early.snm").write_text("echo '$mdae'\n")
    result = run_snm("early.snm", "writes.snm", "uses.snm", env=env, cwd=tmp_path)
    assert result.returncode == 2 and result.stdout == "", result.stdout + result.stderr
    assert "early.snm:1:7: error: undefined variable '$mdae'" in result.stderr, result.stderr
    assert not (tmp_path / "gen.snm").exists()
    (tmp_path / "both.snm").write_text("echo '$mdae'\n" + WRITES + "run gen.snm\n")
    result = run_snm("both.snm", "uses.snm", env=env, cwd=tmp_path)
    assert result.returncode == 2 and result.stdout == "", result.stdout + result.stderr
    assert "both.snm:1:7: error: undefined variable '$mdae'" in result.stderr, result.stderr
    assert not (tmp_path / "gen.snm").exists()
