"""The window changes size while a line is typed at the prompt: the line is drawn again at once at
the new width, once, nothing above it erased, in a bare pseudo-terminal whose screen model keeps its
rows as drawn (as xterm does: pty_screen.py); under a job-control bash too (Ctrl-Z, a resize while
stopped, `fg`, Ctrl-C after a resize). snm used to ignore SIGWINCH: libedit read the width again
only as a new line started, so the line being typed was drawn on at the old width, garbled."""
import os
import re
import shlex

from conftest import SNM
from pty_screen import PtyScreen
from test_shell_prompt import shell_env  # noqa: F401 (a fixture)

PROMPT = "snm anon@local> "
# Long enough to wrap at 80 columns; the closing quote is typed after the resizes.
TEXT = ("echo 'the line typed before the window changed size, long enough to take two rows "
        "at eighty columns")
REST = " and it runs whole'"


def plain_env(shell_env, **more):
    """The shell's environment in an xterm."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("TMUX")}
    env.update(shell_env, TERM="xterm", NO_COLOR="1", **more)
    return env


def edited_rows(term, prompt=PROMPT):
    """The screen's rows from the (last) prompt's first down to the cursor's."""
    lines = term.lines()
    head = prompt[:min(len(prompt), term.screen.columns)]
    starts = [i for i, line in enumerate(lines) if line.startswith(head)]
    if not starts:
        return None
    return lines[starts[-1]:term.cursor[0] + 1]


def drawn_once(term, expected, prompt=PROMPT):
    """Whether the screen shows `expected` (prompt and line) once, wrapped at the window's width,
    the cursor at its end, nothing below it, and the prompt nowhere else."""
    rows = edited_rows(term, prompt)
    if rows is None:
        return False
    width = term.screen.columns
    shown = "".join(rows)
    y, x = term.cursor
    below = term.lines()[y + 1:]
    return (shown.rstrip() == expected.rstrip() and len(shown) >= len(expected)
            and x == len(expected) % width
            and len(rows) == len(expected) // width + 1
            and all(not line.strip() for line in below)
            and term.text().count(prompt.strip()[:min(len(prompt) - 1, width)]) == 1)


def test_a_resize_while_typing_draws_the_line_again_at_the_new_width_once(shell_env):
    with PtyScreen([SNM], env=plain_env(shell_env), columns=80) as term:
        term.wait_for(lambda t: t.text().endswith(PROMPT.rstrip()))
        banner = term.lines()[1].rstrip()  # `Type "help" for help, ...`
        assert banner.startswith('Type "help"'), term.text()
        term.type(TEXT)
        term.wait_for(lambda t: drawn_once(t, PROMPT + TEXT))
        narrowest = 80
        for columns in (20, 12, 300, 80):  # 12: narrower than the prompt itself
            narrowest = min(narrowest, columns)  # the model cuts rows as xterm does
            sent = len(term.raw)
            term.resize(columns=columns)
            term.wait_for(lambda t: drawn_once(t, PROMPT + TEXT))
            term.settle()
            assert drawn_once(term, PROMPT + TEXT), f"at {columns} columns:\n{term.text()}"
            # Drawn again once, and nothing above the prompt was erased.
            assert term.raw[sent:].count(b"snm anon@") == 1, term.raw[sent:]
            assert term.lines()[1].rstrip() == banner[:narrowest].rstrip(), term.text()
        term.type(REST + "\r")
        said = (TEXT + REST).removeprefix("echo '").removesuffix("'")
        term.wait_for(lambda t: said.encode() in t.raw and t.text().endswith(PROMPT.rstrip()))


def bash_with_job_control(shell_env, tmp_path):
    """An interactive bash in the pty, job control on (a session of its own), prompt `bash$ `."""
    env = plain_env(shell_env, PS1="bash$ ", HOME=str(tmp_path))
    term = PtyScreen(["/bin/bash", "--norc", "--noprofile", "-i"], env=env, columns=80)
    term.wait_for(lambda t: t.text().endswith("bash$"))
    return term


def rows_from_last_prompt(term, prompt=PROMPT):
    """The screen from the last row starting with the prompt down to the cursor's row, joined."""
    rows = edited_rows(term, prompt)
    return "".join(rows).rstrip() if rows else None


def terminal_settings(path):
    """`stty -a` as saved, without the window's size (which the test changes on purpose)."""
    return re.sub(r"rows \d+; columns \d+;", "", path.read_text())


def test_ctrl_z_a_resize_while_stopped_and_fg_draw_the_line_once_at_the_new_width(
        shell_env, tmp_path):
    """Under bash with job control: Ctrl-Z, the window narrowed while snm is stopped, `fg`: the
    line comes back drawn once at 20 columns below bash's lines (whose `fg` line stays); Ctrl-C
    after another resize abandons it cleanly; the terminal's settings end as they began."""
    before, after = tmp_path / "before", tmp_path / "after"
    with bash_with_job_control(shell_env, tmp_path) as term:
        term.type(f"stty -a > {before}; {shlex.quote(SNM)}\r")
        term.wait_for(lambda t: t.text().endswith(PROMPT.rstrip()))
        term.type(TEXT)
        term.wait_for(lambda t: drawn_once(t, PROMPT + TEXT))
        term.type("\x1a")  # Ctrl-Z
        term.wait_for(lambda t: "Stopped" in t.text() and t.text().endswith("bash$"))
        term.resize(columns=20)
        term.settle()
        sent = len(term.raw)
        term.type("fg\r")
        expected = (PROMPT + TEXT).rstrip()
        term.wait_for(lambda t: rows_from_last_prompt(t) == expected)
        term.settle()
        assert rows_from_last_prompt(term) == expected, term.text()
        assert term.raw[sent:].count(b"snm anon@") == 1, term.raw[sent:]
        # bash's own lines are still there: `fg`, then the job's command it printed (libedit's
        # redisplay erased as many rows above the line as the line had had).
        lines = [line.rstrip() for line in term.lines()]
        fg = lines.index("bash$ fg")
        prompt = max(i for i, line in enumerate(lines) if line.startswith(PROMPT.rstrip()))
        assert "".join(lines[fg + 1:prompt]) == SNM, term.text()
        # Ctrl-C mid-line after another resize: the line ends with ^C, a fresh prompt follows.
        term.resize(columns=30)
        term.wait_for(lambda t: drawn_once(t, PROMPT + TEXT) or
                      rows_from_last_prompt(t) == expected)
        term.type("\x03")
        term.wait_for(lambda t: t.text().endswith(PROMPT.rstrip()) and "^C" in t.text())
        term.settle()
        lines = term.lines()
        last = max(i for i, line in enumerate(lines) if line.startswith(PROMPT.rstrip()))
        earlier = max(i for i, line in enumerate(lines[:last]) if line.startswith(PROMPT[:16]))
        assert "".join(lines[earlier:last]).rstrip() == expected + "^C", term.text()
        term.type("echo 'after the resizes'\r")
        term.wait_for(lambda t: "\nafter the resizes\n" in t.text())
        term.type("\\q\r")
        term.wait_for(lambda t: t.text().endswith("bash$"))
        term.type(f"stty -a > {after}\r")
        term.wait_for(lambda t: after.exists() and after.read_text().strip())
        assert terminal_settings(after) == terminal_settings(before)
