"""What a psql user types at snm's prompt, at a real terminal (tmux's pty): the start-up line,
backslash commands, the startup file, Ctrl-D on a continuation line, and `\\e` opening an editor
that must own the terminal under an interactive job-control bash.
"""
import re
import stat

import pytest

from conftest import SNM
from test_shell_prompt import shell_env  # noqa: F401 (a fixture)
from tmux_shell import TmuxShell, job_control_bash


@pytest.fixture
def env(shell_env, tmp_path):
    return {**shell_env, "NO_COLOR": "1"}


def snm_shell(env, *args, **kwargs):
    shell = TmuxShell([SNM, *args], env=env, **kwargs)
    shell.wait_for_prompt()
    return shell


def after(screen, typed):
    """What the screen shows after the last prompt line that typed `typed`."""
    return screen.rsplit("> " + typed, 1)[-1]


def test_the_prompt_starts_with_a_line_saying_where_help_is(env, project):
    with snm_shell(env) as shell:
        screen = shell.screen()
        assert re.search(r'^snm \d+\.\d+\.\d+, project local at http://127\.0\.0\.1:\d+$', screen,
                         re.M), screen
        assert 'Type "help" for help' in screen
    with snm_shell(env, "--quiet") as shell:
        assert "Type" not in shell.screen()


def test_backslash_h_is_help_and_conninfo_names_the_project_but_never_the_key(env, project):
    with snm_shell(env) as shell:
        screen = after(shell.run("\\h where"), "\\h where")
        assert "where <column> <operator> <value>" in screen and ": error:" not in screen
        screen = after(shell.run("\\conninfo"), "\\conninfo")
        assert f'You are connected to project "local" at {project.url}' in screen
        assert "role anon" in screen and "not signed in" in screen
        shell.run("login email 'alice@example.com' password 'password123'")
        screen = after(shell.run("\\conninfo"), "\\conninfo").replace("\n", "")
        assert "signed in as alice@example.com (authenticated, token valid for" in screen
        whole = shell.screen()
        assert project.anon_key not in whole and project.anon_key[:20] not in whole
        assert "eyJ" not in whole


def test_backslash_question_mark_lists_the_commands_and_d_plus_describes(env):
    with snm_shell(env) as shell:
        screen = after(shell.run("\\?"), "\\?")
        assert "psql-style commands" in screen and ": error:" not in screen
        for command in ("\\conninfo", "\\watch", "\\e ", "\\o FILE", "\\pset null", "\\d+"):
            assert command in screen, command
        screen = after(shell.run("\\d+ dog_profile"), "\\d+ dog_profile")
        assert re.search(r"^ owner\s+\| uuid", screen, re.M), screen
        screen = after(shell.run("\\dt+"), "\\dt+")
        assert "dog_profile" in screen and ": error:" not in screen


def test_backslash_o_sends_results_to_a_file_and_back(env, tmp_path):
    out = tmp_path / "results.txt"
    with snm_shell(env) as shell:
        screen = after(shell.run(f"\\o {out}"), f"\\o {out}")
        assert f"results go to {out}" in screen
        typed = "from dog_profile select id, name order by id"
        screen = after(shell.run(typed), typed)
        assert "Bori" not in screen and "rows)" not in screen
        shell.run("\\o")
        typed = "from dog_profile select name where id eq 4"
        screen = after(shell.run(typed), typed)
        assert "Max" in screen
        screen = after(shell.run("\\o /nonexistent/folder/x.txt"), "\\o /nonexistent/folder/x.txt")
        assert "cannot write results to '/nonexistent/folder/x.txt': No such file" in screen
    text = out.read_text()
    assert "Bori" in text and "(2 rows)" in text and "Max" in text.splitlines()[3]
    assert stat.S_IMODE(out.stat().st_mode) == 0o600


def test_backslash_watch_runs_the_last_statement_until_ctrl_c(env):
    with snm_shell(env) as shell:
        shell.run("from dog_profile select name where id eq 4")
        before = shell.prompt_count()
        shell.type("\\watch 0.2")
        shell.press("Enter")
        shell.wait_for(lambda s: len(re.findall(r"\(every 0\.2 s\)", s)) >= 3)
        shell.press("C-c")
        screen = shell.wait_for_prompt(before + 1)
        runs = re.findall(r"^\w{3} \w{3} +\d+ [\d:]{8} \d{4}  from dog_profile select name "
                          r"where id eq 4  \(every 0\.2 s\)$", screen, re.M)
        assert len(runs) >= 3, screen
        assert "snm exited" not in screen
        screen = after(shell.run("\\watch 0.1 count=2"), "\\watch 0.1 count=2")
        assert len(re.findall(r"\(every 0\.1 s\)", screen)) == 2
        assert screen.count("Max") == 2


def test_pset_null_changes_how_tables_show_null(env):
    with snm_shell(env) as shell:
        typed = "from dog_profile select name, breed where id eq 4"
        assert re.search(r"^ Max  \| NULL$", after(shell.run(typed), typed), re.M)
        shell.run("\\pset null '(null)'")
        assert re.search(r"^ Max  \| \(null\)$", after(shell.run(typed), typed), re.M)


def test_ctrl_d_on_a_continuation_line_drops_the_statement_and_stays(env):
    with snm_shell(env) as shell:
        before = shell.prompt_count()
        shell.type('rpc sum {')
        shell.press("Enter")
        shell.wait_for(lambda s: s.splitlines()[-1].strip() == "->")
        shell.press("C-d")
        screen = shell.wait_for_prompt(before + 1)
        assert "unfinished statement dropped (Ctrl-D again leaves)" in screen
        assert "snm exited" not in screen and "error" not in after(screen, "rpc sum {")
        screen = after(shell.run('rpc sum {"numbers": [2, 3]}'), 'rpc sum {"numbers": [2, 3]}')
        assert re.search(r"^\s+5$", screen, re.M), screen
        shell.press("C-d")
        shell.wait_for_text("[snm exited 0]")


def test_a_clause_on_the_next_line_says_how_statements_continue(env):
    with snm_shell(env) as shell:
        shell.run("from dog_profile select name")
        screen = after(shell.run("where id eq 4"), "where id eq 4")
        assert "unknown statement 'where'" in screen
        assert "end the line before with '\\' to go on" in screen


def test_the_startup_file_applies_settings_and_reports_what_is_not_one(env, tmp_path):
    folder = tmp_path / "config" / "snm"
    folder.mkdir(parents=True)
    (folder / "snmrc").write_text(
        "# my settings\nset format json\nfrom dog_profile select *\nset timming on\n")
    with snm_shell(env) as shell:
        screen = shell.screen()
        assert f"{folder}/snmrc:3:1: error: the startup file holds settings only" in screen
        assert f"{folder}/snmrc:4:5: error:" in screen and "did you mean 'timing'?" in screen
        typed = "from dog_profile select name where id eq 4"
        screen = after(shell.run(typed), typed)
        assert '"name": "Max"' in screen or '"name":"Max"' in screen, screen
    with snm_shell(env, "-X") as shell:
        assert "snmrc" not in shell.screen()
        typed = "from dog_profile select name where id eq 4"
        screen = after(shell.run(typed), typed)
        assert re.search(r"^ Max$", screen, re.M), screen


def test_scripts_and_pipes_never_read_the_startup_file(env, tmp_path):
    import subprocess
    folder = tmp_path / "config" / "snm"
    folder.mkdir(parents=True)
    (folder / "snmrc").write_text("set format json\n")
    result = subprocess.run([SNM, "-c", "from dog_profile select name where id eq 4"],
                            env={**__import__("os").environ, **env}, capture_output=True,
                            text=True, timeout=30)
    assert result.returncode == 0 and result.stdout.splitlines()[0] == " name"


EDITOR = """#!/bin/sh
# An editor that needs the terminal: it sets the terminal's modes and reads a line from it, as
# vi does; in a process group of its own under job control it would be stopped (SIGTTOU/SIGTTIN).
stty -echo
printf 'EDITING %s\\n' "$(cat "$1")" > /dev/tty
IFS= read -r line
stty echo
printf '%s\\n' "$line" > "$1"
"""


@pytest.fixture
def bash(env, tmp_path):
    editor = tmp_path / "editor.sh"
    editor.write_text(EDITOR)
    editor.chmod(0o755)
    with job_control_bash({**env, "VISUAL": str(editor)}, height=30) as shell:
        yield shell


def test_backslash_e_edits_the_last_statement_in_an_editor_that_owns_the_terminal(bash):
    bash.type(SNM)
    bash.press("Enter")
    bash.wait_for_prompt()
    bash.run("from dog_profile select name where id eq 1")
    before = bash.prompt_count()
    bash.type("\\e")
    bash.press("Enter")
    bash.wait_for_text("EDITING from dog_profile select name where id eq 1", timeout=10)
    bash.type("from dog_profile select name where id eq 4")
    bash.press("Enter")
    screen = bash.wait_for_prompt(before + 1, timeout=10)
    assert "Stopped" not in screen and "stopped" not in screen
    shown = after(screen, "EDITING")
    assert re.search(r"^ Max$", shown, re.M), screen
    # The edited statement is now the last one: \e offers it next.
    bash.type("\\e")
    bash.press("Enter")
    bash.wait_for_text("EDITING from dog_profile select name where id eq 4", timeout=10)
    bash.press("Enter")
    screen = bash.wait_for_prompt(before + 2, timeout=10)
    assert "the file is empty: nothing run" in screen
    bash.press("C-d")
    bash.wait_for_text("bash$ ", timeout=10)
