"""`set output 'FILE'` and `\\o 'FILE'` fill in the name's `${...}` parts when they run, as
`> 'out.csv'` does: the parser took the name as written, so a script could not keep its log in
the folder `snm test` gives it (`${env.SNM_TEST_TMPDIR}`), and `set output '/tmp/run-${me}.log'`
wrote a file named `run-${me}.log`. A variable bound nowhere, or an `$env` name not set, is
refused before anything runs, at its line, as in any other string; `snm check` says so too.
Unquoted, `\\o FILE` stays psql's spelling: the rest of the line as written.

Nothing here needs a project (the URL names a port nothing listens on).
"""
from conftest import free_port, run_snm


def offline(**extra):
    return {"SUPABASE_URL": f"http://127.0.0.1:{free_port()}", "SUPABASE_ANON_KEY": "x",
            "NO_COLOR": "1", **extra}


def test_the_names_of_set_output_and_backslash_o_fill_in_their_variables(tmp_path):
    logs = tmp_path / "logs"
    logs.mkdir()
    env = offline(LOGS=str(logs))
    (tmp_path / "main.snm").write_text(
        "let n = 3\n"
        "set output '${env.LOGS}/run-${n}.log'\necho 'to the log'\nset output off\n"
        "\\o '${env.LOGS}/o-${n}.txt'\necho 'to the other'\n\\o\n"
        "echo 'to stdout'\n")
    result = run_snm("main.snm", env=env, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "to stdout\n", result.stdout
    assert sorted(p.name for p in logs.iterdir()) == ["o-3.txt", "run-3.log"]
    assert (logs / "run-3.log").read_text() == "to the log\n"
    assert (logs / "o-3.txt").read_text() == "to the other\n"
    # A name with no `${...}` is as before; unquoted `\\o` is the rest of the line as written.
    (tmp_path / "plain.snm").write_text(
        "set output 'a.log'\necho 'a'\n\\o b$x.txt\necho 'b'\n\\o\n")
    result = run_snm("plain.snm", env=env, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "a.log").read_text() == "a\n"
    assert (tmp_path / "b$x.txt").read_text() == "b\n"


def test_a_variable_a_name_cannot_fill_is_refused_before_anything_runs(tmp_path):
    env = offline()
    (tmp_path / "main.snm").write_text(
        "echo 'first'\nset output '${env.SNM_NO_SUCH_FOLDER}/run.log'\necho 'x'\n"
        "\\o 'out-${nope}.txt'\n")
    result = run_snm("main.snm", env=env, cwd=tmp_path)
    assert result.returncode == 2, result.stderr
    assert result.stdout == "", result.stdout
    assert "main.snm:2:13: error:" in result.stderr and "SNM_NO_SUCH_FOLDER" in result.stderr
    assert "main.snm:4:9: error: undefined variable '$nope'" in result.stderr, result.stderr
    assert list(tmp_path.iterdir()) == [tmp_path / "main.snm"]
    result = run_snm("check", "main.snm", env=env, cwd=tmp_path)
    assert result.returncode == 2, result.stderr
    assert "main.snm:4:9: error: undefined variable '$nope'" in result.stderr, result.stderr
