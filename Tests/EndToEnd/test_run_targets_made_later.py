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


def test_snm_check_warns_of_a_run_target_an_earlier_statement_writes(tmp_path):
    """`snm check` ran nothing and refused a `run` of a file the script writes first ('cannot
    run: no such file', exit 2), so the README's `snm check tests/ && snm test tests/` refused
    suites `snm test` runs. A file not there that a statement before the `run` writes (`\\o`,
    `set output`, `> 'file'`; in the same file, a file it ran, or a file checked before it) is a
    warning naming it and where it is written; a file nothing writes is still an error."""
    env = offline()
    (tmp_path / "main.snm").write_text(WRITES + "run gen.snm\necho 'made $made'\n")
    result = run_snm("check", "main.snm", env=env, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "checked 1 file: no errors\n", result.stdout
    assert ("main.snm:4:5: warning: 'gen.snm' is not there yet: it is checked when it runs"
            in result.stderr), result.stderr
    assert "help: written by the statement at main.snm:1" in result.stderr, result.stderr
    # The variable the file would bind is bound nowhere the check can see: a warning, not refused.
    assert "main.snm:5:12: warning: undefined variable '$made'" in result.stderr, result.stderr
    assert not (tmp_path / "gen.snm").exists()

    # A suite: one test writes the file, a later one runs it; checked, then run.
    suite = tmp_path / "tests"
    suite.mkdir()
    (suite / "01-writes.snm").write_text("\\o tests/gen.snm\necho 'let made = 7'\n\\o\n")
    (suite / "02-runs.snm").write_text("run gen.snm\nexpect $made == 7\n")
    result = run_snm("check", "tests/", env=env, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert ("tests/02-runs.snm:1:5: warning: 'gen.snm' is not there yet: it is checked when it"
            " runs" in result.stderr), result.stderr
    assert "help: written by the statement at tests/01-writes.snm:1" in result.stderr
    result = run_snm("test", "tests/", env=env, cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.splitlines()[-1] == "2 passed, 0 failed", result.stdout

    # `set output`, a `> 'file'` (beside the script), a name with a `${...}` part.
    (tmp_path / "writers.snm").write_text(
        "let n = 2\nset output 'one.snm'\nset output off\n"
        "from dog_profile select name > 'two.txt'\n"
        "\\o 'gen-${n}.snm'\n\\o\n"
        "run one.snm\nrun two.txt\nrun gen-2.snm\nrun never.snm\n")
    result = run_snm("check", "writers.snm", env=env, cwd=tmp_path)
    assert result.returncode == 2, result.stderr
    for line, name, writer in ((7, "one.snm", 2), (8, "two.txt", 4), (9, "gen-2.snm", 5)):
        assert (f"writers.snm:{line}:5: warning: '{name}' is not there yet" in result.stderr
                and f"written by the statement at writers.snm:{writer}" in result.stderr), (
            name, result.stderr)
    # Nothing writes never.snm: an error, as a file written only after the `run` is.
    assert "writers.snm:10:5: error: cannot run: no such file 'never.snm'" in result.stderr
    assert "1 error in 1 file (checked 1 file)" in result.stderr, result.stderr
    (tmp_path / "late.snm").write_text("run later.snm\n\\o later.snm\n\\o\n")
    result = run_snm("check", "late.snm", env=env, cwd=tmp_path)
    assert result.returncode == 2, result.stderr
    assert "late.snm:1:5: error: cannot run: no such file 'later.snm'" in result.stderr


def test_a_typo_after_a_run_of_a_made_file_is_refused_before_the_statements_after_it(tmp_path):
    """After a `run` of a file not there when the script was checked, a variable bound nowhere
    was left to the run (the file could bind it), and refused only at its own line, after the
    statements between ran: here 'after the run' was printed first. Once the made file has run,
    the names it binds are known and the rest of the file is checked, so the typo is refused
    before anything after the `run` runs (exit 2); a name the made file binds passes."""
    env = offline()
    (tmp_path / "typo.snm").write_text(
        WRITES + "run gen.snm\necho 'after the run'\necho '$made $mdae'\n")
    result = run_snm("typo.snm", env=env, cwd=tmp_path)
    assert result.returncode == 2, result.stderr
    assert result.stdout == "", result.stdout
    assert "typo.snm:6:13: error: undefined variable '$mdae'" in result.stderr, result.stderr
    (tmp_path / "gen.snm").unlink()
    result = run_snm("-c", WRITES.replace("\n", "; ") + "run gen.snm; echo 'then'; echo '$mdae'",
                     env=env, cwd=tmp_path)
    assert result.returncode == 2 and result.stdout == "", result.stdout + result.stderr
    assert "undefined variable '$mdae'" in result.stderr, result.stderr
    (tmp_path / "gen.snm").unlink()
    (tmp_path / "fine.snm").write_text(
        WRITES + "run gen.snm\necho 'after the run'\nlet other = $made\necho '$other'\n")
    result = run_snm("fine.snm", env=env, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["after the run", "7"], result.stdout


def test_snm_check_takes_a_storage_download_to_a_file_as_a_writer(tmp_path):
    """`storage download BUCKET/PATH to FILE` writes FILE, but `snm check` did not count it, so a
    script that downloads a .snm and runs it was refused: 'cannot run: no such file', exit 2. It
    is a writer as `> 'file'` is (the file under the script's folder), with a quoted name or a
    variable (which may stand for any name); a download without `to` writes no file."""
    env = offline()
    (tmp_path / "dl.snm").write_text(
        "storage download scripts/gen.snm to 'gen.snm'\nrun gen.snm\n"
        "storage download scripts/x.snm\nrun x.snm\n"
        "let name = 'other.snm'\nlet got = storage download scripts/o.snm to $name\n"
        "run other.snm\n")
    result = run_snm("check", "dl.snm", env=env, cwd=tmp_path)
    assert result.returncode == 2, result.stderr
    for line, name, writer in ((2, "gen.snm", 1), (7, "other.snm", 6)):
        assert (f"dl.snm:{line}:5: warning: '{name}' is not there yet: it is checked when it runs"
                in result.stderr and f"written by the statement at dl.snm:{writer}"
                in result.stderr), (name, result.stderr)
    assert "dl.snm:4:5: error: cannot run: no such file 'x.snm'" in result.stderr, result.stderr
    assert "1 error in 1 file (checked 1 file)" in result.stderr, result.stderr


def test_snm_check_finds_a_written_file_where_the_run_finds_it(tmp_path):
    """A file a statement writes is the one a `run` names when both resolve to the same place,
    as each does when it runs: `\\o`'s name under the working directory, `> 'file'`'s and
    `download ... to`'s under the script's folder, `run`'s under the folder of the file it is
    in. `\\o './made-${n}.snm'` and `run ../made-1.snm` from tests/ are one file: the check kept
    the './' of a name with a `${...}` part and refused the `run` ('cannot run: no such file',
    exit 2). (`~/` in both is the home folder: test_home_paths.py.)"""
    env = offline()
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "paths.snm").write_text(
        "let n = 1\n\\o './made-${n}.snm'\n\\o\nrun ../made-1.snm\n"
        "from dog_profile select name > 'dl/../beside.txt'\nrun ./beside.txt\n"
        "\\o gen.snm\n\\o\nrun gen.snm\n"
        "let f = 'got.snm'\nstorage download scripts/got.snm to './${f}'\nrun got.snm\n")
    result = run_snm("check", "tests/paths.snm", env=env, cwd=tmp_path)
    assert result.returncode == 2, result.stderr
    for line, name, writer in ((4, "../made-1.snm", 2), (6, "./beside.txt", 5),
                               (12, "got.snm", 11)):
        assert (f"tests/paths.snm:{line}:5: warning: '{name}' is not there yet" in result.stderr
                and f"written by the statement at tests/paths.snm:{writer}" in result.stderr), (
            name, result.stderr)
    # `\\o gen.snm` wrote the working directory's gen.snm; the run is of tests/gen.snm.
    assert ("tests/paths.snm:9:5: error: cannot run: no such file 'tests/gen.snm'"
            in result.stderr), result.stderr
    assert "1 error in 1 file (checked 1 file)" in result.stderr, result.stderr



def test_snm_check_takes_a_run_name_as_written(tmp_path):
    """`run 'gen-${n}.snm'` runs the file of that very name (a `run` fills nothing in), which the
    `\\o 'gen-${n}.snm'` before it (writing gen-1.snm) does not write: the check said it did (a
    warning, exit 0), and the run failed, 'no such file'. A file written under that very name
    (an unquoted `\\o` takes its line as written) is still it."""
    env = offline()
    (tmp_path / "filled.snm").write_text(
        "let n = 1\n\\o 'gen-${n}.snm'\necho 'let a = 1'\n\\o\nrun 'gen-${n}.snm'\n")
    said = "filled.snm:5:5: error: cannot run: no such file 'gen-${n}.snm'"
    result = run_snm("check", "filled.snm", env=env, cwd=tmp_path)
    assert result.returncode == 2 and said in result.stderr, result.stderr
    result = run_snm("filled.snm", env=env, cwd=tmp_path)
    assert result.returncode == 2 and said in result.stderr, result.stderr
    assert (tmp_path / "gen-1.snm").read_text() == "let a = 1\n"

    (tmp_path / "literal.snm").write_text(
        "\\o gen-${n}.snm\necho 'let a = 2'\n\\o\nrun 'gen-${n}.snm'\necho 'ran $a'\n")
    result = run_snm("check", "literal.snm", env=env, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert ("literal.snm:4:5: warning: 'gen-${n}.snm' is not there yet: it is checked when it runs"
            in result.stderr), result.stderr
    result = run_snm("literal.snm", env=env, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "ran 2\n", result.stdout
