"""The pager at a real terminal: started from an interactive bash with job control (where a pager in
a process group of its own is stopped and freezes the shell) and from a shell without it (where such
a pager gets EIO and drops everything after the first screen).

A function made for this module returns 200 rows, more than the 20-line terminal shows.
"""
import re
import time

import pytest

from conftest import SNM
from test_shell_prompt import shell_env  # noqa: F401 (a fixture)
from tmux_shell import PROMPT, TmuxShell, job_control_bash

ROWS = 200
QUERY = f'rpc pager_rows {{"n": {ROWS}}}'


@pytest.fixture(scope="module")
def many_rows(project):
    project.sql("create function public.pager_rows(n integer) returns table(n integer) "
                "language sql stable as $$ select generate_series(1, n) $$; "
                "notify pgrst, 'reload schema'")
    yield project
    project.sql("drop function public.pager_rows(integer); notify pgrst, 'reload schema'")
    time.sleep(0.3)  # the gateway reloads its schema cache before the next module asks


@pytest.fixture
def env(many_rows, shell_env):
    """The prompt tests' environment, with no pager chosen and a plain bash prompt."""
    return {k: v for k, v in shell_env.items() if k != "PAGER"} | {"PS1": "bash$ "}


@pytest.fixture
def bash(env):
    """An interactive bash in tmux's pty, with job control on (checked), and snm not yet started."""
    with job_control_bash(env) as shell:
        yield shell


def start_snm(shell, prefix=""):
    shell.type(f"{prefix}{SNM}")
    shell.press("Enter")
    shell.wait_for_prompt()
    # The gateway may still be loading the new function: wait until it answers.
    for _ in range(50):
        screen = shell.run('rpc pager_rows {"n": 1}')
        if "(1 row)" in screen.split('{"n": 1}')[-1]:
            return
        time.sleep(0.1)
    raise AssertionError(shell.screen())


def printed_rows(screen):
    return [int(line) for line in re.findall(r"^\s*(\d+)\s*$", screen, re.M)]


def test_less_under_job_control_takes_q_and_gives_the_prompt_back(bash):
    start_snm(bash, "env -u PAGER -u SNM_PAGER ")
    before = bash.prompt_count()
    bash.type(QUERY)
    bash.press("Enter")
    bash.wait_for(lambda s: re.search(r"^\s+17\s*$", s, re.M) and s.endswith(":"), timeout=5)
    bash.press("q")
    bash.wait_for_prompt(before + 1, timeout=5)
    screen = bash.run('rpc sum {"numbers": [1, 2, 3]}')
    assert re.search(r"^\s+6$", screen, re.M), screen


def test_less_without_job_control_shows_every_row(env):
    env = {**env, "PAGER": "less -SRXF"}
    with TmuxShell([SNM], env=env, height=20) as shell:
        shell.wait_for_prompt()
        before = shell.prompt_count()
        shell.type(QUERY)
        shell.press("Enter")
        shell.wait_for(lambda s: re.search(r"^\s+17\s*$", s, re.M) and s.endswith(":"), timeout=5)
        shell.press("G")  # to the end: the last rows and the footer
        screen = shell.wait_for_text(f"({ROWS} rows)", timeout=5)
        shell.press("q")
        shell.wait_for_prompt(before + 1, timeout=5)
        assert PROMPT.search(screen.split(QUERY)[-1]) is None, screen


def test_a_pager_that_cannot_start_leaves_every_row_printed(bash):
    start_snm(bash, "SNM_PAGER=/nonexistent/pager ")
    screen = bash.run(QUERY, timeout=5)
    after = screen.split(QUERY)[-1]
    assert printed_rows(after) == list(range(1, ROWS + 1)), screen
    assert f"({ROWS} rows)" in after


def test_set_pager_off_prints_every_row(bash):
    start_snm(bash, "env -u PAGER -u SNM_PAGER ")
    assert "pager is off" in bash.run("set pager off")
    screen = bash.run(QUERY, timeout=5)
    after = screen.split(QUERY)[-1]
    assert printed_rows(after) == list(range(1, ROWS + 1)), screen
    assert f"({ROWS} rows)" in after
