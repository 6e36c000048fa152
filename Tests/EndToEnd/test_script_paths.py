"""Script paths as a user and an attacker give them to `snm check`, `snm FILE`, `snm test` and
`run`: standard input as `-`, a size past any script, what the system says when a file cannot be
read, directory walks that must end (symbolic link loops, /proc, depth), FIFOs whose writer never
comes (Ctrl-C in a real pty), includes read from a pipe, and control characters in file names.

No project: `snm check` is offline, and `snm FILE` runs `echo` and `expect` at a URL that answers
nothing (nothing here sends a request).
"""
import os
import pathlib
import resource
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time

import pexpect
import pytest

from conftest import SNM, free_port

MIB = 1 << 20


@pytest.fixture
def env(tmp_path):
    values = dict(os.environ, SUPABASE_URL=f"http://127.0.0.1:{free_port()}",
                  SUPABASE_ANON_KEY="k", XDG_STATE_HOME=str(tmp_path / "state"),
                  XDG_CACHE_HOME=str(tmp_path / "cache"),
                  XDG_CONFIG_HOME=str(tmp_path / "config"), NO_COLOR="1", TERM="xterm")
    values.pop("CI", None)
    return values


def limited_memory():
    """At most 2 GiB of address space: a reader that never stops (main's, on /dev/zero) fails
    here instead of taking the machine's memory."""
    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))


def snm(*args, env, input=None, cwd=None, timeout=60):
    return subprocess.run([SNM, *args], input=input, capture_output=True, env=env, cwd=cwd,
                          timeout=timeout, preexec_fn=limited_memory)


def said(result):
    return result.stderr.decode(errors="replace")


# --- `-`: standard input, as psql's `-f -` -------------------------------------------------------

def test_check_and_run_read_standard_input_for_dash(env, tmp_path):
    clean = snm("check", "-", env=env, input=b"let x = 1\nexpect $x == 1\n")
    assert (clean.returncode, clean.stdout) == (0, b"checked 1 file: no errors\n"), said(clean)
    wrong = snm("check", "-", env=env, input=b"let x = 1\nfrom t selec *\n")
    assert wrong.returncode == 2 and said(wrong).startswith("stdin:2:8: error:"), said(wrong)
    twice = snm("check", "-", "-", env=env, input=b"let x = 1\n")
    assert twice.returncode == 2, said(twice)
    assert "'-' named twice: standard input is read once" in said(twice)
    test = snm("test", "-", env=env, input=b"expect 1 == 1\n")
    assert test.returncode == 2 and "'-' (standard input) is not a test file" in said(test)
    ran = snm("-", env=env, input=b"echo 'from stdin'\n", cwd=tmp_path)
    assert (ran.returncode, ran.stdout) == (0, b"from stdin\n"), said(ran)
    # Bytes that are not UTF-8 are refused, as in a file: main ran them with U+FFFD in their place.
    bad = b"echo 'caf\xe9'\n"
    ran = snm("-", env=env, input=bad, cwd=tmp_path)
    assert (ran.returncode, ran.stdout) == (2, b""), said(ran)
    assert "snm: standard input is not UTF-8 text" in said(ran)
    checked = snm("check", "-", env=env, input=bad)
    assert checked.returncode == 2 and "standard input is not UTF-8 text" in said(checked)


def test_dash_with_standard_input_closed_says_so(env, tmp_path):
    """`snm - <&-`: main's signal pipe took descriptor 0 and `snm -` read it as its script, for
    good (the signals it then read were lost too: Ctrl-C did nothing)."""
    def closed():
        limited_memory()
        os.close(0)

    for args in (["check", "-"], ["-"]):
        result = subprocess.run([SNM, *args], capture_output=True, text=True, env=env,
                                cwd=tmp_path, timeout=20, preexec_fn=closed)
        assert (result.returncode, result.stdout) == (2, ""), (args, result.stderr)
        assert "cannot read standard input: not open (EBADF)" in result.stderr, result.stderr


# --- size --------------------------------------------------------------------------------------

def test_a_script_past_64_mib_is_refused_from_a_file_a_pipe_and_a_device(env, tmp_path):
    big = tmp_path / "big.snm"
    with open(big, "wb") as out:
        out.truncate(64 * MIB + 1)          # sparse: nothing written, nothing read
    # Each says the limit is fixed (no setting moves it) and what to do instead, the pipe's and
    # the device's too (they said only "stopped reading there").
    advice = "rows go in a file a statement reads ('insert file'), or split the script"
    for args in (["check", str(big)], [str(big)]):
        result = snm(*args, env=env)
        assert (result.returncode, result.stdout) == (2, b""), said(result)
        assert (f"'{big}' is 67,108,865 bytes, more than a script may be (64 MiB, a fixed"
                f" limit); {advice}") in said(result)
    # A pipe is read up to the limit and no further, by `check` and by the shell.
    for args in (["check", "-"], ["-"]):
        piped = snm(*args, env=env, input=b"\n" * (64 * MIB + 1))
        assert piped.returncode == 2, said(piped)
        assert ("snm: standard input gave more than 64 MiB, more than a script may be (a fixed"
                f" limit), and was read no further; {advice}") in said(piped), said(piped)
    # A device that never ends: main read /dev/zero until memory ran out.
    zero = snm("check", "/dev/zero", env=env)
    assert zero.returncode == 2, said(zero)
    assert ("'/dev/zero' gave more than 64 MiB, more than a script may be (a fixed limit), and"
            f" was read no further; {advice}") in said(zero), said(zero)


# --- what the system said ----------------------------------------------------------------------

def test_a_file_that_cannot_be_read_is_said_with_what_the_system_said(env, tmp_path):
    os.symlink("loop-b.snm", tmp_path / "loop-a.snm")
    os.symlink("loop-a.snm", tmp_path / "loop-b.snm")
    os.symlink("gone.snm", tmp_path / "dangling.snm")
    (tmp_path / "plain.snm").write_text("let x = 1\n")
    listener = socket.socket(socket.AF_UNIX)
    listener.bind(str(tmp_path / "sock.snm"))
    cases = {
        "loop-a.snm": "cannot read 'loop-a.snm': too many levels of symbolic links, a loop? "
                      "(ELOOP)",
        "dangling.snm": "'dangling.snm' is a symbolic link to 'gone.snm', which does not exist",
        "plain.snm/x.snm": "cannot read 'plain.snm/x.snm': a part of the path is not a directory "
                           "(ENOTDIR)",
        "sock.snm": "'sock.snm' is a socket, not a file to read",
    }
    try:
        for name, words in cases.items():
            for args in (["check", name], [name]):
                result = snm(*args, env=env, cwd=tmp_path)
                assert result.returncode == 2, (args, said(result))
                assert words in said(result), (args, said(result))
                assert "permission denied?" not in said(result)
            # The same words at the `run` statement that names it.
            (tmp_path / "main.snm").write_text(f"run {name}\n")
            result = snm("check", "main.snm", env=env, cwd=tmp_path)
            assert result.returncode == 2 and f"cannot run: {words}" in said(result), said(result)
    finally:
        listener.close()


@pytest.fixture
def open_folder():
    """A folder under /tmp that another user may enter (pytest's own are root's alone)."""
    if os.geteuid() != 0:
        pytest.skip("needs root to run snm as another user")
    folder = pathlib.Path(tempfile.mkdtemp(prefix="snm-paths-"))
    os.chmod(folder, 0o755)
    yield folder
    shutil.rmtree(folder)


def as_nobody():
    limited_memory()
    os.setgid(65534)
    os.setuid(65534)


def test_a_file_its_reader_may_not_open_says_permission_denied(env, open_folder):
    """As another user (snm's tests run as root, which may open anything)."""
    secret = open_folder / "secret.snm"
    secret.write_text("let x = 1\n")
    os.chmod(secret, 0o600)
    for args in (["check", str(secret)], [str(secret)]):
        result = subprocess.run([SNM, *args], capture_output=True, text=True, env=env,
                                timeout=60, preexec_fn=as_nobody, cwd="/")
        assert result.returncode == 2, result.stderr
        assert f"cannot read '{secret}': permission denied (EACCES)" in result.stderr


def test_control_characters_in_a_refused_name_are_escaped(env, tmp_path):
    name = "evil\x1b]0;owned\x07\x1b[2J.snm"
    for args in (["check", name], [name]):
        result = snm(*args, env=env, cwd=tmp_path)
        assert result.returncode == 2
        assert b"\x1b" not in result.stderr and b"\x07" not in result.stderr, result.stderr
        assert "evil\\u{1B}]0;owned\\u{7}\\u{1B}[2J.snm" in said(result), said(result)
    (tmp_path / name).write_text("from t selec *\n")
    result = snm("check", name, env=env, cwd=tmp_path)
    assert result.returncode == 2 and b"\x1b" not in result.stderr, result.stderr


def test_control_characters_in_a_running_files_name_are_escaped(env, tmp_path):
    # A statement's failure named its file raw ('evil<ESC>[2J.snm:2:1: error: expectation
    # failed'), where its parse errors escaped it: a name in a cloned repository's tests drove
    # the terminal of whoever ran them. So did an interruption and output that was lost.
    name = "evil\x1b]0;owned\x07\x1b[2J.snm"
    shown = "evil\\u{1B}]0;owned\\u{7}\\u{1B}[2J.snm"
    (tmp_path / name).write_text("let a = 1\necho 'one'\nexpect $a == 2\n")
    failed = snm(name, env=env, cwd=tmp_path)
    assert failed.returncode == 1, said(failed)
    assert b"\x1b" not in failed.stderr and b"\x07" not in failed.stderr, failed.stderr
    assert f"{shown}:3:1: error: expectation failed" in said(failed), said(failed)
    with open("/dev/full", "wb") as full:
        lost = subprocess.run([SNM, name], stdout=full, stderr=subprocess.PIPE, env=env,
                              cwd=tmp_path, timeout=60)
    assert lost.returncode == 1 and b"\x1b" not in lost.stderr, lost.stderr
    assert f"stopped before {shown}:3:1: expect $a == 2" in said(lost), said(lost)


# --- directory walks ---------------------------------------------------------------------------

def test_a_walk_does_not_follow_links_to_folders_and_says_so(env, tmp_path):
    tests = tmp_path / "tests"
    (tests / "sub").mkdir(parents=True)
    (tests / "a.snm").write_text("let a = 1\n")
    (tests / "sub" / "b.snm").write_text("let b = 1\n")
    os.symlink("..", tests / "sub" / "up")          # a loop: main walked it until killed
    os.symlink(str(tmp_path), tests / "outside")
    result = snm("check", str(tests), env=env, timeout=30)
    assert (result.returncode, result.stdout) == (0, b"checked 2 files: no errors\n"), said(result)
    assert f"snm: note: skipped '{tests}/sub/up', a symbolic link to a directory" in said(result)
    assert f"skipped '{tests}/outside', a symbolic link to a directory" in said(result)
    # Named, a link to a folder is walked.
    result = snm("check", str(tests / "sub" / "up"), env=env, timeout=30)
    assert result.returncode == 0, said(result)


def test_a_tree_of_links_checks_nothing_and_says_so_and_follow_walks_it(env, tmp_path):
    # Main said only "no .snm files under 'tree'": not that its scripts sat behind the links it
    # had skipped, nor how to take them.
    real = tmp_path / "real"
    (real / "sub").mkdir(parents=True)
    (real / "a.snm").write_text("let a = 1\n")
    (real / "sub" / "b.snm").write_text("let b = 2\n")
    os.symlink("..", real / "sub" / "up")           # a loop, walked once with --follow
    tree = tmp_path / "tree"
    tree.mkdir()
    os.symlink("../real", tree / "one")
    os.symlink(str(real), tree / "two")               # the same folder again
    for command in ("check", "test"):
        result = snm(command, str(tree), env=env, timeout=30)
        assert result.returncode == 2 and result.stdout.count(b"PASS") == 0, said(result)
        assert f"snm: note: skipped '{tree}/one', a symbolic link to a directory" in said(result)
        assert (f"no .snm files under '{tree}' (2 symbolic links to folders skipped: --follow"
                " walks them)") in said(result), said(result)
    result = snm("check", "--follow", str(tree), env=env, timeout=30)
    assert (result.returncode, result.stdout) == (0, b"checked 2 files: no errors\n"), said(result)
    # One link is walked (which one: the directory's order), the other and the loop are not.
    walked, other = ("one", "two") if f"'{tree}/two', a directory" in said(result) else ("two", "one")
    assert f"skipped '{tree}/{other}', a directory already walked" in said(result), said(result)
    assert f"skipped '{tree}/{walked}/sub/up', a directory already walked" in said(result)
    tested = snm("test", "--follow", str(tree), env=env, timeout=30)
    assert tested.returncode == 0, said(tested)
    assert tested.stdout.decode().splitlines()[-1] == "2 passed, 0 failed", tested.stdout
    # What --follow reaches is checked, not only counted.
    (real / "sub" / "b.snm").write_text("from t selec *\n")
    result = snm("check", "--follow", str(tree), env=env, timeout=30)
    assert result.returncode == 2 and "1 error in 1 file (checked 2 files)" in said(result)


def test_a_dangling_link_under_a_folder_is_an_error_not_a_skip(env, tmp_path):
    folder = tmp_path / "t"
    folder.mkdir()
    (folder / "a.snm").write_text("let a = 1\n")
    os.symlink("moved.snm", folder / "b.snm")      # main left it out and passed
    result = snm("check", str(folder), env=env)
    assert result.returncode == 2, said(result)
    assert f"'{folder}/b.snm' is a symbolic link to 'moved.snm', which does not exist" in said(result)
    assert "1 error in 1 file (checked 2 files)" in said(result)


def test_proc_and_sys_are_refused_not_walked(env):
    for path in ("/proc/self", "/proc", "/sys"):
        result = snm("check", path, env=env, timeout=30)
        assert result.returncode == 2, (path, said(result))
        assert f"'{path}' is on " in said(result) and "it holds no scripts" in said(result)


def test_a_walk_past_64_folders_deep_is_refused(env, tmp_path):
    deep = tmp_path / "deep"
    path = deep
    for _ in range(65):
        path = path / "d"
    path.mkdir(parents=True)
    (path / "bottom.snm").write_text("let x = 1\n")
    result = snm("check", str(deep), env=env)
    assert result.returncode == 2 and result.stdout == b"", said(result)
    assert "is more than 64 folders deep under" in said(result), said(result)
    # 64 deep is walked.
    result = snm("check", str(deep / "d"), env=env)
    assert result.returncode == 0, said(result)


def test_a_fifo_in_a_walked_folder_is_skipped_with_a_note_not_waited_for(env, tmp_path):
    folder = tmp_path / "t"
    folder.mkdir()
    (folder / "a.snm").write_text("let a = 1\n")
    os.mkfifo(folder / "pipe.snm")
    result = snm("check", str(folder), env=env, timeout=30)
    assert (result.returncode, result.stdout) == (0, b"checked 1 file: no errors\n"), said(result)
    assert f"skipped '{folder}/pipe.snm', a FIFO, not a file (name it to read it)" in said(result)
    # Alone under its folder, nothing is left to check: an error, not a green run.
    (folder / "a.snm").unlink()
    result = snm("check", str(folder), env=env, timeout=30)
    assert result.returncode == 2 and f"no .snm files under '{folder}'" in said(result)


def test_a_folder_that_cannot_be_read_is_an_error_not_a_skip(env, open_folder):
    folder = open_folder / "t"
    (folder / "closed").mkdir(parents=True)
    (folder / "a.snm").write_text("let a = 1\n")
    (folder / "closed" / "b.snm").write_text("from t selec *\n")
    os.chmod(folder, 0o755)
    os.chmod(folder / "closed", 0o700)
    result = subprocess.run([SNM, "check", str(folder)], capture_output=True, text=True, env=env,
                            timeout=60, preexec_fn=as_nobody, cwd="/")
    assert (result.returncode, result.stdout) == (2, ""), result.stderr
    assert (f"cannot read the directory '{folder}/closed': permission denied (EACCES)"
            in result.stderr)


# --- FIFOs and Ctrl-C, in a real pty -------------------------------------------------------------

@pytest.mark.parametrize("command", [["check", "f.snm"], ["f.snm"], ["main.snm"]],
                         ids=["snm check", "snm FILE", "run of a FIFO"])
def test_ctrl_c_stops_the_wait_for_a_fifos_writer_with_130(env, tmp_path, command):
    os.mkfifo(tmp_path / "f.snm")
    (tmp_path / "main.snm").write_text("echo 'before'\nrun f.snm\n")
    child = pexpect.spawn(SNM, command, env=env, cwd=str(tmp_path), timeout=20)
    try:
        child.expect_exact("snm: waiting for a writer to open 'f.snm' (a FIFO; Ctrl-C stops)")
        child.sendintr()
        child.expect_exact("snm: interrupted waiting for a writer to open 'f.snm'")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 130, child.before


def test_a_fifo_whose_writer_comes_late_is_said_at_a_terminal_then_read(env, tmp_path):
    fifo = tmp_path / "late.snm"
    os.mkfifo(fifo)
    child = pexpect.spawn(SNM, ["check", "late.snm"], env=env, cwd=str(tmp_path), timeout=20)
    try:
        child.expect_exact("snm: waiting for a writer to open 'late.snm' (a FIFO; Ctrl-C stops)")
        with open(fifo, "w") as out:
            out.write("let y = 2\nexpect $y == 2\n")
        child.expect_exact("checked 1 file: no errors")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0, child.before
    # Without a terminal nothing is said: the writer is waited for as psql waits.
    def feed():
        time.sleep(1.5)
        with open(fifo, "w") as out:
            out.write("let y = 2\n")

    writer = threading.Thread(target=feed)
    writer.start()
    result = snm("check", str(fifo), env=env, timeout=30)
    writer.join()
    assert (result.returncode, result.stdout, result.stderr) == (
        0, b"checked 1 file: no errors\n", b""), said(result)


def test_sigterm_stops_a_pipe_that_never_ends_with_143(env, tmp_path):
    reader, writer = os.pipe()
    child = subprocess.Popen([SNM, "check", "-"], stdin=reader, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, env=env)
    os.close(reader)
    try:
        os.write(writer, b"let x = 1\n")
        time.sleep(0.5)
        child.send_signal(signal.SIGTERM)
        out, err = child.communicate(timeout=10)
    finally:
        os.close(writer)
    assert child.returncode == 143, err
    assert b"snm: terminated reading standard input" in err, err



def test_a_statement_of_many_piped_lines_is_gathered_in_a_time_its_length_allows(env):
    """A statement piped over 100,000 lines (a long JSON array, one value a line) is gathered
    line by line: each line lexed once. snm re-lexed and re-joined the whole text so far after
    every line, so 20,000 lines took minutes and 100,000 hours; now it is read in well under a
    second, and its error found. The bound is ~300x the time this takes."""
    lines = [b'from t insert {"a": ['] + [b"1,"] * 100_000
    result = subprocess.run([SNM], input=b"\n".join(lines) + b"\n", capture_output=True,
                            env=env, timeout=300)
    assert result.returncode == 2, said(result)
    assert result.stderr.startswith(b"stdin:100001:3: error: expected a value after ','"), \
        said(result)

# --- includes read from a pipe -------------------------------------------------------------------

def test_run_reads_dev_stdin_once_and_a_process_substitution(env, tmp_path):
    # An include is held to the same limit: main read `run /dev/zero` until memory ran out.
    (tmp_path / "zero.snm").write_text("run /dev/zero\n")
    zero = snm("check", "zero.snm", env=env, cwd=tmp_path)
    assert zero.returncode == 2, said(zero)
    assert "zero.snm:1:5: error: cannot run: '/dev/zero' gave more than 64 MiB" in said(zero)
    piped = snm("zero.snm", env=env, cwd=tmp_path)
    assert piped.returncode == 2 and "cannot run: '/dev/zero' gave more" in said(piped)
    (tmp_path / "main.snm").write_text("echo 'main'\nrun /dev/stdin\nrun /dev/stdin\n")
    too_long = snm("check", "main.snm", env=env, cwd=tmp_path, input=b"\n" * (64 * MIB + 1))
    assert too_long.returncode == 2, said(too_long)
    assert "cannot run: '/dev/stdin' gave more than 64 MiB" in said(too_long)
    checked = snm("check", "main.snm", env=env, cwd=tmp_path, input=b"let n = 3\n")
    assert checked.returncode == 0, said(checked)
    ran = snm("main.snm", env=env, cwd=tmp_path, input=b"echo 'piped'\n")
    assert (ran.returncode, ran.stdout) == (0, b"main\npiped\npiped\n"), said(ran)
    # From `snm -`: the include reads what standard input had left (nothing).
    ran = snm("-", env=env, cwd=tmp_path, input=b"echo 'dash'\nrun main.snm\n")
    assert ran.returncode == 0 and ran.stdout == b"dash\nmain\n", said(ran)
    # A process substitution names a pipe of its own.
    shell = subprocess.run(
        ["bash", "-c", f"{SNM} check <(printf 'let z = 1\\nexpect $z == 1\\n')"],
        capture_output=True, env=env, cwd=tmp_path, timeout=60)
    assert shell.returncode == 0 and shell.stdout == b"checked 1 file: no errors\n", shell.stderr
