"""Output habits a psql or pandas user brings (issue 34): CSV lines end in LF (CRLF on request),
`\\x` cycles as psql's does from snm's default of auto, and `\\timing` leaves the pager's time out.
The prompt's habits run at a real terminal (tmux's pty).
"""
import os
import re
import subprocess
import time

import pytest

from conftest import SNM, run_snm
from test_shell_prompt import shell_env  # noqa: F401 (a fixture)
from tmux_shell import TmuxShell

QUERY = "from dog_profile select id, name order by id"


@pytest.fixture
def env(shell_env):
    return {**shell_env, "NO_COLOR": "1"}


def snm_bytes(env, *args):
    """Runs snm; returns (exit code, stdout bytes as written: text mode would turn CRLF into LF)."""
    result = subprocess.run([SNM, *args], capture_output=True, env={**os.environ, **env},
                            timeout=60)
    assert result.returncode == 0, result.stderr.decode()
    return result.stdout


def after(screen, typed):
    """What the screen shows after the last prompt line that typed `typed`."""
    return screen.rsplit("> " + typed, 1)[-1]


def test_csv_lines_end_in_lf_as_psql_and_pandas_write_them(env, tmp_path):
    stdout = snm_bytes(env, "--format", "csv", "-c", QUERY, "-c", QUERY)
    assert stdout == b"id,name\n1,Bori\n4,Max\n\nid,name\n1,Bori\n4,Max\n"
    out = tmp_path / "out.csv"
    result = run_snm("-c", f"{QUERY} > '{out}'", env=env)
    assert result.returncode == 0, result.stderr
    assert out.read_bytes() == b"id,name\n1,Bori\n4,Max\n"


def test_csv_crlf_gives_rfc_4180_line_ends_when_asked_for(env, tmp_path):
    stdout = snm_bytes(env, "--format", "csv", "--csv-crlf", "-c", QUERY, "-c", QUERY)
    assert stdout == b"id,name\r\n1,Bori\r\n4,Max\r\n\r\nid,name\r\n1,Bori\r\n4,Max\r\n"
    out = tmp_path / "out.csv"
    result = run_snm("--csv-crlf", "-c", f"{QUERY} > '{out}'", env=env)
    assert result.returncode == 0, result.stderr
    assert out.read_bytes() == b"id,name\r\n1,Bori\r\n4,Max\r\n"


def test_backslash_x_from_auto_cycles_on_off_on_and_auto_exists(env):
    with TmuxShell([SNM], env=env) as shell:
        shell.wait_for_prompt()
        seen = []
        for _ in range(3):
            screen = after(shell.run("\\x"), "\\x")
            seen.append(re.search(r"expanded display is (\w+)", screen).group(1))
        assert seen == ["on", "off", "on"], shell.screen()
        screen = after(shell.run("\\x auto"), "\\x auto")
        assert "expanded display is auto" in screen
        screen = after(shell.run("\\x"), "\\x")
        assert "expanded display is on" in screen
        screen = after(shell.run("\\x off"), "\\x off")
        assert "expanded display is off" in screen
        typed = "from dog_profile select id where id eq 1"
        screen = after(shell.run(typed), typed)
        assert "(1 row)" in screen and "-[ RECORD 1 ]" not in screen


def test_timing_leaves_out_the_time_the_pager_held_the_rows(env, tmp_path):
    opened, release = tmp_path / "opened", tmp_path / "release"
    pager = tmp_path / "pager.sh"
    pager.write_text(f"#!/bin/sh\ntouch '{opened}'\n"
                     f"while [ ! -e '{release}' ]; do sleep 0.05; done\ncat\n")
    pager.chmod(0o755)
    held = 2.0
    with TmuxShell([SNM], env={**env, "PAGER": str(pager)}, height=12) as shell:
        shell.wait_for_prompt()
        shell.run("\\timing on")
        shell.run("\\x on")
        shell.type("from dog_profile select *")
        shell.press("Enter")
        deadline = time.monotonic() + 15
        while not opened.exists():
            assert time.monotonic() < deadline, shell.screen()
            time.sleep(0.02)
        # The reader keeps the pager open this long: none of it is snm's rendering.
        time.sleep(held)
        release.touch()
        screen = shell.wait_for(lambda s: re.search(r"Time: network .*, rendering ([\d.]+) ms", s))
        rendering = float(re.search(r"rendering ([\d.]+) ms", screen).group(1))
        assert rendering < held * 1000, screen
