"""`~` in the names of local files, one rule for every statement (LocalPath): `~/` at the start is
the home folder, `$HOME` when it is set (as shells take it), else the account's; `~name/` is a
name like any other. `run ~/x.snm` took `~` as a folder name (psql's `\\i ~/x.sql` does not), `\\o`
read no `$HOME` (Foundation's expandingTildeInPath: the account's home, whatever HOME said) and
took `~name/` as that account's home, which no other statement did.

HOME is a folder of the test's own: nothing here writes in the real home folder, on this snm or
an older one (a file it names is in a folder only the test's home holds). No project: the scripts
bind, write and run files only (the URL names a port nothing listens on).
"""
from conftest import free_port, run_snm

# A folder no real home folder holds: an snm that took `~/` for another folder than $HOME's
# fails to open a file in it rather than writing there.
MADE = "snm-home-paths-test"


def offline(home):
    return {"SUPABASE_URL": f"http://127.0.0.1:{free_port()}", "SUPABASE_ANON_KEY": "x",
            "NO_COLOR": "1", "HOME": str(home)}


def home_of(tmp_path):
    home = tmp_path / "home"
    (home / MADE).mkdir(parents=True)
    return home


def test_run_takes_tilde_slash_as_the_home_folder(tmp_path):
    """`run ~/lib.snm` (and `\\i`) runs lib.snm in $HOME, from `-c` and from a script in another
    folder, as `\\i ~/x.sql` does in psql; it was 'cannot run: no such file '~/lib.snm'', exit 2
    (a folder named '~' beside the script)."""
    home = home_of(tmp_path)
    env = offline(home)
    (home / MADE / "lib.snm").write_text("let a = 'from home'\n")
    # What it took `~/` for: a folder named '~' in the working directory.
    (tmp_path / "~" / MADE).mkdir(parents=True)
    (tmp_path / "~" / MADE / "lib.snm").write_text("let a = 'in the folder named ~'\n")
    result = run_snm("-c", f"run ~/{MADE}/lib.snm; echo '$a'", env=env, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "from home\n", result.stdout
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "main.snm").write_text(f"\\i ~/{MADE}/lib.snm\necho '$a too'\n")
    for command in (["tests/main.snm"], ["check", "tests/main.snm"]):
        result = run_snm(*command, env=env, cwd=tmp_path)
        assert result.returncode == 0, (command, result.stderr)
    assert run_snm("tests/main.snm", env=env, cwd=tmp_path).stdout == "from home too\n"

    # A file missing there is named where it was looked for.
    result = run_snm("-c", "run ~/none.snm", env=env, cwd=tmp_path)
    assert result.returncode == 2, result.stderr
    assert f"cannot run: no such file '{home}/none.snm'" in result.stderr, result.stderr


def test_snm_check_matches_a_home_file_written_and_run(tmp_path):
    """`\\o '~/gen.snm'` then `run ~/gen.snm` is one file, in the check as when it runs: the
    check refused the `run` ('cannot run: no such file '~/gen.snm'', exit 2), and the run wrote
    the account's home, not $HOME's, then failed to find it."""
    home = home_of(tmp_path)
    env = offline(home)
    (tmp_path / "gen.snm").write_text(
        f"\\o '~/{MADE}/gen.snm'\necho 'let a = 1'\n\\o\nrun ~/{MADE}/gen.snm\necho 'ran $a'\n")
    result = run_snm("check", "gen.snm", env=env, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert (f"gen.snm:4:5: warning: '~/{MADE}/gen.snm' is not there yet" in result.stderr
            and "written by the statement at gen.snm:1" in result.stderr), result.stderr
    result = run_snm("gen.snm", env=env, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "ran 1\n", result.stdout
    assert (home / MADE / "gen.snm").read_text() == "let a = 1\n"


def test_output_follows_home(tmp_path):
    """`\\o ~/x` writes in $HOME: it wrote in the account's home, whatever HOME said ('cannot
    write results to ...: No such file or directory' here, a folder only HOME holds)."""
    home = home_of(tmp_path)
    env = offline(home)
    result = run_snm("-c", f"\\o ~/{MADE}/out.txt\necho 'in home'\n\\o\n", env=env, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert (home / MADE / "out.txt").read_text() == "in home\n"


def test_output_takes_tilde_name_as_a_name(tmp_path):
    """`\\o ~nobody/x` writes in a folder named '~nobody' under the working directory, as
    `> '~nobody/x'` and `run ~nobody/x` take it: it wrote in the account nobody's home
    (/nonexistent: 'No such file or directory')."""
    env = offline(home_of(tmp_path))
    (tmp_path / "~nobody").mkdir()
    result = run_snm("-c", "\\o ~nobody/out.txt\necho 'a name'\n\\o\n", env=env, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "~nobody" / "out.txt").read_text() == "a name\n"
    (tmp_path / "~nobody" / "lib.snm").write_text("let b = 'beside'\n")
    result = run_snm("-c", "run ~nobody/lib.snm; echo '$b'", env=env, cwd=tmp_path)
    assert result.returncode == 0 and result.stdout == "beside\n", result.stdout + result.stderr
