"""Output snm cannot write (field lane).

Every command's output, not only a statement's rows, is a failure when it cannot be written (a
full disk, `>&-`): exit 1, saying what was lost, never a crash. A script whose output is lost
stops before its next statement (one run after its report was lost is an effect no one sees) and
says where; `\\o FILE` that cannot be written is the same."""
import os
import subprocess

from conftest import SNM
from tmux_shell import TmuxShell

LOST = "snm: cannot write standard output: no space left on the device (ENOSPC); what snm " \
    "printed there is incomplete"


def env_for(project, tmp_path):
    return {**os.environ, "SUPABASE_URL": project.url, "SUPABASE_ANON_KEY": project.anon_key,
            "XDG_STATE_HOME": str(tmp_path / "state"), "XDG_CACHE_HOME": str(tmp_path / "cache"),
            "XDG_CONFIG_HOME": str(tmp_path / "config"), "NO_COLOR": "1"}


def to_full(args, env, stdin=None):
    with open("/dev/full", "w") as full:
        return subprocess.run([SNM, *args], stdout=full, stderr=subprocess.PIPE, input=stdin,
                              text=True, timeout=120, env=env)


def test_every_command_s_output_that_cannot_be_written_fails_and_never_crashes(tmp_path):
    """`snm --help > /dev/full` exited 0 with nothing written, and `snm local list > /dev/full`
    stopped with SIGILL (exit 132) and a Swift stack trace; so did any message to a standard
    error that cannot be written (`2>&-`), and `snm local status | true` (a reader gone)."""
    env = {**os.environ, "XDG_CONFIG_HOME": str(tmp_path / "config"), "NO_COLOR": "1"}
    for args in (["--help"], ["--version"], ["completion", "bash"], ["local", "--help"],
                 ["local", "list"], ["check", "--help"]):
        run = to_full(args, env)
        assert run.returncode == 1, (args, run.returncode, run.stderr)
        assert run.stderr == LOST + "\n", (args, run.stderr)
    closed = subprocess.run(["sh", "-c", f"exec \"{SNM}\" local list >&-"], capture_output=True,
                            text=True, timeout=60, env=env)
    assert closed.returncode == 1, closed.stderr
    assert closed.stderr.startswith("snm: cannot write standard output: not open (EBADF)"), \
        closed.stderr
    # A standard error that cannot be written: the exit code still says how snm ended.
    for redirect in ("2>/dev/full", "2>&-"):
        for args, code in (("-c nonsense", 2), ("--bogus", 2), ("local status --dir /nonexistent", 3)):
            run = subprocess.run(["sh", "-c", f"exec \"{SNM}\" {args} {redirect}"],
                                 capture_output=True, text=True, timeout=60, env=env)
            assert run.returncode == code, (args, redirect, run.returncode, run.stdout)
    # A reader that went away before snm wrote: quiet, and the command's own exit code.
    gone = subprocess.run(
        ["bash", "-c", f"(sleep 1; \"{SNM}\" local list; echo \"snm exited $?\" >&2) | true"],
        capture_output=True, text=True, timeout=60, env=env)
    assert gone.stderr == "snm exited 0\n", gone.stderr


def test_a_script_whose_output_is_lost_stops_before_its_next_statement(project, tmp_path):
    """A script kept running after its output was lost (`> /dev/full`), every later statement
    sent with its answer dropped, and said so only at the end: a write run after the report was
    already lost. It stops before the next statement, naming it, whatever `on_error` says; said
    once (not again as snm ends), exit 1. A file, standard input and `-c` alike."""
    env = env_for(project, tmp_path)
    mark = tmp_path / "mark.txt"
    script = tmp_path / "lost.snm"
    script.write_text(f"set on_error continue\necho 'first'\n\\o {mark}\necho 'third'\n")
    stopped = f"stopped before {{}}: \\o {mark} (it and what follows did not run)"
    for args, stdin, where in (([str(script)], None, f"{script}:3:1"),
                               ([], script.read_text(), "stdin:3:1"),
                               (["-c", "set on_error continue", "-c", "echo 'first'", "-c",
                                 f"\\o {mark}"], None, "-c:3:1")):
        run = to_full(args, env, stdin)
        assert run.returncode == 1, (args, run.returncode, run.stderr)
        assert "snm: cannot write standard output: no space left on the device (ENOSPC); " \
            + stopped.format(where) in run.stderr, (args, run.stderr)
        assert "what snm printed there is incomplete" not in run.stderr, run.stderr
        assert not mark.exists(), args
    # A reader that went away (`| head -1`) is no loss: the script runs on, as before.
    many = tmp_path / "many.snm"
    many.write_text("".join(f"echo '{n}'\n" for n in range(100_000)) + f"\\o {mark}\n")
    head = subprocess.run(["bash", "-c", f"\"{SNM}\" \"{many}\" | head -1; "
                           "echo \"snm exited ${PIPESTATUS[0]}\""],
                          capture_output=True, text=True, timeout=120, env=env)
    assert head.stdout == "0\nsnm exited 0\n", (head.stdout, head.stderr)
    assert mark.exists()


def test_results_sent_with_backslash_o_to_a_file_that_cannot_be_written(project, tmp_path):
    """`\\o FILE` writes that failed (a full device, a file past `ulimit -f`) were dropped
    without a word, exit 0. The script stops before its next statement, naming the file and
    why; when nothing was left to run, it says what it printed is incomplete. Exit 1."""
    env = env_for(project, tmp_path)
    last = subprocess.run([SNM, "-c", "\\o /dev/full", "-c", "echo 'x'"], capture_output=True,
                          text=True, timeout=60, env=env)
    assert last.returncode == 1, last.stderr
    assert "snm: cannot write results to '/dev/full': no space left on the device (ENOSPC); " \
        "what snm printed there is incomplete" in last.stderr, last.stderr
    out, mark = tmp_path / "out.txt", tmp_path / "mark.txt"
    script = tmp_path / "big.snm"
    script.write_text(f"\\o {out}\necho '{'a' * 600}'\necho '{'b' * 600}'\n\\o {mark}\n")
    big = subprocess.run(["bash", "-c", f"ulimit -f 1; exec \"{SNM}\" \"{script}\""],
                         capture_output=True, text=True, timeout=60, env=env)
    assert big.returncode == 1, big.stderr
    assert f"snm: cannot write results to '{out}': the file is larger than allowed here " \
        f"(EFBIG); stopped before {script}:4:1: \\o {mark} (it and what follows did not run)" \
        in big.stderr, big.stderr
    assert out.stat().st_size == 1024
    assert not mark.exists()


def test_at_the_prompt_a_results_file_that_cannot_be_written_is_said_and_let_go(project,
                                                                                 tmp_path):
    """At the prompt `\\o /dev/full` dropped every result without a word. The loss is said
    after the statement, and results go to the terminal again."""
    env = {k: v for k, v in env_for(project, tmp_path).items() if k not in os.environ
           or k.startswith("SUPABASE") or k.startswith("XDG")}
    with TmuxShell([SNM], env={**env, "PAGER": "cat"}) as shell:
        shell.wait_for_prompt()
        shell.run("\\o /dev/full")
        screen = shell.run("echo 'lost'")
        assert "snm: cannot write results to '/dev/full': no space left on the device (ENOSPC);" \
            " what snm printed there is incomplete" in screen, screen
        assert "results go to standard output again (were going to /dev/full)" in screen, screen
        screen = shell.run("echo 'shown'")
        assert "\nshown\n" in screen, screen
