"""Passwords never show in what snm prints: diagnostics of a line that holds one (at the prompt, in
scripts, `-c`, standard input, `snm check`, `snm test` and its reports) print it as '********', with
the caret still under the spot on the line as printed.
"""
import json
import os
import re

import pexpect

from conftest import SNM, run_snm

PASSWORD = "hunter2-" + "x9"
LINE = f"login email 'kim@example.com' password '{PASSWORD}' extra"
MASKED = "login email 'kim@example.com' password '********' extra"


def env_for(project, tmp_path):
    return {"SUPABASE_URL": project.url, "SUPABASE_ANON_KEY": project.anon_key,
            "XDG_STATE_HOME": str(tmp_path / "state"), "XDG_CACHE_HOME": str(tmp_path / "cache"),
            "XDG_CONFIG_HOME": str(tmp_path / "config"), "NO_COLOR": "1"}


def assert_masked_diagnostic(text, name):
    """The diagnostic names the column as written, shows the masked line, the caret under 'extra'."""
    assert PASSWORD not in text, text
    column = LINE.index("extra") + 1  # counted on the line as written
    assert f"{name}:1:{column}: error: unexpected 'extra'" in text, text
    lines = text.splitlines()
    shown = next(i for i, line in enumerate(lines) if line.endswith(MASKED))
    caret = lines[shown + 1]
    offset = len(lines[shown]) - len(MASKED)  # `snm test` indents the block
    assert caret.index("^") - offset == MASKED.index("extra"), text
    assert caret.rstrip().endswith("^~~~~"), text


def test_a_password_on_a_line_with_a_parse_error_is_masked_everywhere(project, tmp_path):
    env = env_for(project, tmp_path)
    script = tmp_path / "signin.snm"
    script.write_text(LINE + "\n")
    junit, tap, report = tmp_path / "r.xml", tmp_path / "r.tap", tmp_path / "r.json"
    runs = {
        "check": (run_snm("check", str(script), env=env), str(script)),
        "file": (run_snm(str(script), env=env), str(script)),
        "-c": (run_snm("-c", LINE, env=env), "-c"),
        "stdin": (run_snm(input=LINE + "\n", env=env), "stdin"),
        "test": (run_snm("test", str(script), "--report", f"junit={junit}", "--report",
                         f"tap={tap}", "--report", f"json={report}", env=env), str(script)),
    }
    for how, (result, name) in runs.items():
        assert result.returncode == 2, (how, result.stderr)
        assert_masked_diagnostic(result.stdout + result.stderr, name)
    for path in (junit, tap, report):
        assert PASSWORD not in path.read_text(), path
    assert MASKED in junit.read_text()
    failure = json.loads(report.read_text())["files"][0]["failures"][0]
    assert MASKED in failure["text"]


def test_a_password_on_a_line_with_a_parse_error_is_masked_at_the_prompt(project, tmp_path):
    env = dict(os.environ, TERM="xterm", PAGER="cat", **env_for(project, tmp_path))
    shell = pexpect.spawn(SNM, env=env, encoding="utf-8", timeout=30, dimensions=(24, 160))
    try:
        shell.expect_exact("snm anon@local> ")
        shell.sendline(LINE)
        shell.expect_exact(LINE)  # the line as typed, echoed by the editor
        shell.expect_exact("snm anon@local> ")
        printed = re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", shell.before).replace("\r", "")
        assert_masked_diagnostic(printed, "prompt")
        shell.sendline("exit")
        shell.expect(pexpect.EOF)
    finally:
        shell.close(force=True)


ENV_SECRET = "env-secret-" + "7f3a"
SIGN_IN = """set on_error continue
login email 'nobody@example.com' password $env.SNM_E2E_PW
let pw = $env.SNM_E2E_PW
expect $pw == 'something else'
"""


def test_an_env_secret_never_shows_in_echo_failures_or_reports(project, tmp_path):
    env = dict(env_for(project, tmp_path), SNM_E2E_PW=ENV_SECRET)
    signin = tmp_path / "signin.snm"
    signin.write_text(SIGN_IN)
    echoes = tmp_path / "echoes.snm"
    echoes.write_text("let pw = $env.SNM_E2E_PW\necho 'the password is ${pw}'\nexpect rows 1\n")
    junit, tap, report = tmp_path / "r.xml", tmp_path / "r.tap", tmp_path / "r.json"
    run = run_snm("--echo", str(signin), env=env)
    test = run_snm("test", "--echo", str(signin), str(echoes), "--report", f"junit={junit}",
                   "--report", f"tap={tap}", "--report", f"json={report}", env=env)
    assert run.returncode == 3, run.stderr  # the sign-in failed; the script went on
    assert test.returncode == 3, test.stdout
    assert "password $env.SNM_E2E_PW" in run.stdout  # --echo shows the name
    assert 'found:    "********"' in run.stderr
    for text in (run.stdout, run.stderr, test.stdout, test.stderr, junit.read_text(),
                 tap.read_text(), report.read_text()):
        assert ENV_SECRET not in text, text
    assert "the password is ********" in junit.read_text()
