"""Long scripts cost the memory of their text and their longest statement, not of their
statements: `snm check` and running a file parse one statement at a time (issue 13, item 11).

Each test measures snm's peak resident memory (GNU time's %M), never its time.
Half a million `let` lines are 7.7 MB of text; holding every token and syntax tree took 257 MB,
a statement at a time takes about 45 MB. The bound, 128 MiB, sits between the two.
"""
import os
import subprocess
import tempfile

from conftest import SNM, free_port

LINES = 500_000
BOUND_KB = 128 * 1024


def write_script(path, last_lines=()):
    with open(path, "w") as out:
        out.write("".join(f"let n{index % 7} = {index}\n" for index in range(LINES)))
        out.write("".join(line + "\n" for line in last_lines))


def peak_rss(*args, env):
    """Runs snm under GNU time; returns (exit code, stdout, stderr, peak RSS in KiB).

    Not getrusage from here: a child forked from pytest starts with pytest's resident pages and
    its ru_maxrss counts them (160 MiB late in the suite). GNU time (scripts/install) is a small
    process, so the peak it reports is snm's own."""
    full_env = dict(os.environ)
    full_env.update(env)
    with tempfile.NamedTemporaryFile("r", suffix=".rss") as peak:
        result = subprocess.run(
            ["/usr/bin/time", "-q", "-f", "%M", "-o", peak.name, SNM, *args],
            stdin=subprocess.DEVNULL, capture_output=True, text=True, env=full_env, timeout=300)
        kib = int(peak.read().split()[-1])
    return result.returncode, result.stdout, result.stderr, kib


def offline_env(tmp_path):
    return {"SUPABASE_URL": f"http://127.0.0.1:{free_port()}", "SUPABASE_ANON_KEY": "x",
            "NO_COLOR": "1", "XDG_STATE_HOME": str(tmp_path / "state"),
            "XDG_CACHE_HOME": str(tmp_path / "cache")}


def test_snm_check_of_a_long_script_holds_one_statement_at_a_time(tmp_path):
    script = tmp_path / "long.snm"
    write_script(script)
    code, out, err, rss = peak_rss("check", str(script), env=offline_env(tmp_path))
    assert (code, out, err) == (0, "checked 1 file: no errors\n", "")
    assert rss < BOUND_KB, f"snm check of {LINES:,} lines peaked at {rss // 1024} MiB"


def test_errors_at_the_end_of_a_long_script_keep_their_line_and_column(tmp_path):
    script = tmp_path / "long.snm"
    write_script(script, [
        "from dog_profile select name where age >=",   # an error
        "rpc sum {\"numbers\": [1,",                   # a statement over lines and a `\`
        "  2]} \\",
        "  ",
        "let tail = 'é🐶' from",                        # an error after wide characters
    ])
    code, out, err, rss = peak_rss("check", str(script), env=offline_env(tmp_path))
    assert code == 2, err
    first, second = LINES + 1, LINES + 5
    assert f"{script}:{first}:42: error: expected a value after '>='" in err, err
    assert f"{script}:{second}:17: error: unexpected 'from'" in err, err
    assert f":{LINES + 2}:" not in err and f":{LINES + 3}:" not in err, err
    assert "2 errors in 1 file" in err
    assert rss < BOUND_KB, f"peaked at {rss // 1024} MiB"


def test_running_a_long_script_file_holds_one_statement_at_a_time(project, tmp_path):
    script = tmp_path / "long.snm"
    write_script(script, ["echo $n6", "rpc sum {\"numbers\": [1,", "  2]}"])
    env = {"SUPABASE_URL": project.url, "SUPABASE_ANON_KEY": project.anon_key, "NO_COLOR": "1",
           "XDG_STATE_HOME": str(tmp_path / "state"), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    code, out, err, rss = peak_rss("--format", "csv", str(script), env=env)
    assert code == 0, err
    last_six = max(index for index in range(LINES) if index % 7 == 6)
    assert out.splitlines() == [str(last_six), "sum", "3"], out
    assert rss < BOUND_KB, f"running {LINES:,} lines peaked at {rss // 1024} MiB"
