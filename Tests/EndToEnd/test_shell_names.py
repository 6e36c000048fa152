"""Completion and names at a real terminal (issue 16, item 8): Tab completes paths inside folders,
offers the operators that fit a column's type and matches loosely when nothing starts so;
`describe` and `snm check` suggest the names the project has; an e-mail address needs no quotes
after `login email`.
"""
import pathlib
import time

import pytest

from conftest import ROOT, SNM, run_snm
from tmux_shell import TmuxShell


@pytest.fixture
def shell_env(project, tmp_path):
    return {
        "SUPABASE_URL": project.url, "SUPABASE_ANON_KEY": project.anon_key,
        "XDG_STATE_HOME": str(tmp_path / "state"), "XDG_CACHE_HOME": str(tmp_path / "cache"),
        "XDG_CONFIG_HOME": str(tmp_path / "config"), "PAGER": "cat",
    }


@pytest.fixture
def shell(shell_env):
    with TmuxShell([SNM], env=shell_env, cwd=str(ROOT)) as handle:
        handle.wait_for_prompt()
        yield handle


def listing(screen):
    """The words Tab listed: the lines between the typed line and the prompt under them (as many
    as the listing takes: the smoke folder's grew from three rows to four)."""
    lines = screen.splitlines()
    typed = max(i for i, line in enumerate(lines[:-1]) if line.startswith("snm ") and "> " in line)
    return " ".join(lines[typed + 1:-1]).split()


def listed(shell, word, typed):
    """The screen once Tab's listing holds `word` and is whole: the prompt with `typed` drawn
    again under its last row. Waiting for the word alone read a listing still being drawn on a
    loaded machine, and listing() then took its last row for the prompt (`_lib/` lost)."""
    def whole(screen):
        lines = screen.splitlines()
        return (word in screen and len(lines) > 1 and lines[-1].startswith("snm ")
                and lines[-1].rstrip().endswith(typed.rstrip())
                and not lines[-2].rstrip().endswith(typed.rstrip()))
    return shell.wait_for(whole)


def test_tab_completes_scripts_inside_a_folder(shell):
    shell.type("run scripts/smoke/")
    shell.press("Tab")
    screen = listed(shell, "06-photo.snm", "run scripts/smoke/")
    words = listing(screen)
    for name in ("01-sign-in.snm", "05-rls.snm", "_lib/"):
        assert f"scripts/smoke/{name}" in words, screen
    assert "scripts/smoke/README.md" not in words
    shell.type("04")
    shell.press("Tab")
    shell.wait_for(lambda s: s.splitlines()[-1].endswith("run scripts/smoke/04-walk-request.snm"))


def test_tab_offers_the_operators_of_the_columns_type(shell):
    shell.type("from dog_profile select * where age ")
    shell.press("Tab")
    screen = listed(shell, "isdistinct", "from dog_profile select * where age ")
    words = listing(screen)
    assert {"eq", "gte", "lt", "in", "is", ">="} <= set(words), screen
    assert not {"like", "ilike", "cs", "fts", "adj", "~*"} & set(words), screen
    shell.press("C-c")
    shell.wait_for_prompt(2)
    shell.type("from dog_profile select * where name ")
    shell.press("Tab")
    screen = listed(shell, "ilike", "from dog_profile select * where name ")
    assert "like" in listing(screen)


def test_tab_matches_loosely_when_nothing_starts_so(shell):
    shell.type("from dgprf")
    shell.press("Tab")
    shell.wait_for(lambda s: s.splitlines()[-1] == "snm anon@local> from dog_profile")


def test_describe_suggests_the_table_meant(shell):
    screen = shell.run("describe dog_profle")
    assert "no table, view or function 'dog_profle': did you mean 'dog_profile'?" in screen


def test_login_takes_an_email_without_quotes(shell):
    shell.type("login email alice@example.com")
    shell.press("Enter")
    shell.wait_for_text("password for alice@example.com:")
    shell.type("password123")
    shell.press("Enter")
    screen = shell.wait_for_text("signed in as alice@example.com")
    assert "password123" not in screen
    shell.wait_for(lambda s: s.splitlines()[-1] == "snm alice@local>")


def test_a_bare_email_value_suggests_quoting_all_of_it(shell):
    screen = shell.run("from user_info select * where name eq alice@example.com")
    assert "help: quote text values: 'alice@example.com'" in screen
    assert "'alice';" not in screen


def test_snm_check_suggests_names_from_the_cached_schema(shell_env, tmp_path):
    script = tmp_path / "names.snm"
    script.write_text("from dog_profle select *\nfrom user_info select nme\nrpc nearby_dog {}\n")
    before = run_snm("check", str(script), env=shell_env)
    assert (before.returncode, before.stderr) == (0, ""), "no cache yet: nothing to compare with"
    cached = run_snm("-c", "tables", env=shell_env)  # the shell caches the project's schema
    assert cached.returncode == 0, cached.stderr
    after = run_snm("check", str(script), env=shell_env)
    assert after.returncode == 0, after.stderr  # warnings: the cache may be older than the project
    assert (f"{script}:1:6: warning: no table, view or function 'dog_profle' in the cached schema"
            in after.stderr)
    assert "help: did you mean 'dog_profile'?" in after.stderr
    assert f"{script}:2:23: warning: no column 'nme' in 'user_info'" in after.stderr
    assert "help: did you mean 'name'?" in after.stderr
    assert "help: did you mean 'nearby_dogs'?" in after.stderr
