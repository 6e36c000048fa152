"""Long scripts cost the memory of their text and their longest statement, not of their
statements: `snm check` and running a file parse one statement at a time (issue 13, item 11).

Each test measures the child's peak resident memory (getrusage through wait4), never its time.
Half a million `let` lines are 7.7 MB of text; holding every token and syntax tree took 257 MB,
a statement at a time takes about 45 MB. The bound, 128 MiB, sits between the two.
"""
import os
import selectors

from conftest import SNM, free_port

LINES = 500_000
BOUND_KB = 128 * 1024


def write_script(path, last_lines=()):
    with open(path, "w") as out:
        out.write("".join(f"let n{index % 7} = {index}\n" for index in range(LINES)))
        out.write("".join(line + "\n" for line in last_lines))


def peak_rss(*args, env):
    """Runs snm in a fork of its own and returns (exit code, stdout, stderr, peak RSS KiB)."""
    full_env = dict(os.environ)
    full_env.update(env)
    out_read, out_write = os.pipe()
    err_read, err_write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: becomes snm
        os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
        os.dup2(out_write, 1)
        os.dup2(err_write, 2)
        os.execve(SNM, [SNM, *args], full_env)
    os.close(out_write)
    os.close(err_write)
    chunks = {out_read: [], err_read: []}
    selector = selectors.DefaultSelector()
    for fd in chunks:
        selector.register(fd, selectors.EVENT_READ)
    open_fds = set(chunks)
    while open_fds:
        for key, _ in selector.select(timeout=300):
            data = os.read(key.fd, 65536)
            if data:
                chunks[key.fd].append(data)
            else:
                selector.unregister(key.fd)
                open_fds.discard(key.fd)
                os.close(key.fd)
    _, status, usage = os.wait4(pid, 0)
    code = os.waitstatus_to_exitcode(status)
    return (code, b"".join(chunks[out_read]).decode(), b"".join(chunks[err_read]).decode(),
            usage.ru_maxrss)


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
