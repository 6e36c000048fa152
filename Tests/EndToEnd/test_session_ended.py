"""A session the server ended (signed out everywhere from another device, a spent refresh token):
the run that finds out fails (exit 3), and the stored session made way for nothing, so the next
run went on as anon, silently: a CI job that signed in once checked row-level-security rows as
anon and passed on its empty answers. The stored session now makes way for a mark that the
server ended it (no token in it): a later script, `-c` or pipe fails, exit 3, naming the file,
the server's code and when, until `login` or `logout` replaces the mark; `session show` and
`session check` say so. (At the prompt a warning, and the shell goes on signed out: README.)

Against the real local project: an anonymous user of its own, whose refresh tokens a global
logout with its access token ends, as another device would.
"""
import json
import os
import pathlib
import re

import httpx

from conftest import SNM, run_snm
from pty_screen import PtyScreen

ENDED = re.compile(r"the session saved in (\S+) was ended by the server \(refresh_token_not_found\) "
                   r"at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z; sign in again with 'login'")


def env_for(project, home):
    return {**home, "SUPABASE_URL": project.url, "SUPABASE_ANON_KEY": project.anon_key}


def ended_on_the_server(project, env):
    """Signs in anonymously, then ends every session of that user on the server (a global
    logout with its token, as from another device); returns the session file and its tokens."""
    login = run_snm("-c", "login", env=env)
    assert login.returncode == 0, login.stderr
    [path] = list(pathlib.Path(env["XDG_STATE_HOME"]).rglob("session-*.json"))
    session = json.loads(path.read_text())["session"]
    out = httpx.post(f"{project.auth_url}/logout?scope=global",
                     headers=project.headers(token=session["access_token"]), timeout=30)
    assert out.status_code == 204, out.text
    return path, session


def test_the_run_after_the_server_ended_the_session_fails_until_logout(project, home):
    env = env_for(project, home)
    path, session = ended_on_the_server(project, env)
    found = run_snm("-c", "session refresh", env=env)
    assert found.returncode == 3, found.stderr
    assert "the session ended on the server (refresh_token_not_found); sign in again with " \
           "'login'" in found.stderr, found.stderr
    # The file is a mark now: the code and when, no token.
    kept = path.read_text()
    assert session["access_token"] not in kept and session["refresh_token"] not in kept
    assert json.loads(kept)["ended"]["code"] == "refresh_token_not_found"
    for statement in ("from dog_profile select id", "session check", "session token"):
        later = run_snm("-c", statement, env=env)
        assert later.returncode == 3, (statement, later.returncode, later.stdout)
        said = ENDED.search(later.stderr)
        assert said and said.group(1) == str(path), (statement, later.stderr)
        assert "nothing is sent signed out in its place (run 'logout' first to go on signed out)" \
            in later.stderr, later.stderr
        assert later.stdout == "", (statement, later.stdout)
    shown = run_snm("-c", "session show", env=env)
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.startswith("not signed in: the session saved in "), shown.stdout
    assert ENDED.search(shown.stdout), shown.stdout
    logout = run_snm("-c", "logout", env=env)
    assert logout.returncode == 0, logout.stderr
    assert not path.exists()
    anon = run_snm("-c", "from dog_profile select id", env=env)
    assert anon.returncode == 0, anon.stderr
    assert "rows)" in anon.stdout or "(1 row)" in anon.stdout, anon.stdout


def test_a_sign_in_replaces_the_mark(project, home):
    env = env_for(project, home)
    path, _ = ended_on_the_server(project, env)
    assert run_snm("-c", "session refresh", env=env).returncode == 3
    marked = run_snm("-c", "session check", env=env)
    assert marked.returncode == 3 and ENDED.search(marked.stderr), marked.stderr
    again = run_snm("-c", "login email 'alice@example.com' password 'password123'\n"
                    "session show", env=env)
    assert again.returncode == 0, again.stderr
    assert "email       alice@example.com" in again.stdout, again.stdout
    assert "ended" not in json.loads(path.read_text())
    assert run_snm("-c", "session check", env=env).returncode == 0


def test_the_script_that_finds_out_goes_no_further_signed_out(project, home, tmp_path):
    """Within the run that finds out, a later statement fails alike (not sent as anon): a script
    file with the saved session (`--session shared`; its own is a new one each run)."""
    env = env_for(project, home)
    ended_on_the_server(project, env)
    script = tmp_path / "gate.snm"
    script.write_text("session refresh\nfrom dog_profile select id\n")
    result = run_snm("--session", "shared", "--continue-on-error", str(script), env=env)
    assert result.returncode == 3, result.stderr
    assert f"{script}:2:1: error: the session ended on the server: from dog_profile select " \
           "id" in result.stderr, result.stderr
    assert "(" not in result.stdout, result.stdout


def test_session_show_in_json_says_the_server_ended_it(project, home):
    """`session show --format json` said `{"signed_in": false, "role": "anon"}` over the mark, as if
    no one had signed in (requests go as anon), where the text says the server ended the session
    kept here: it says so too, with the server's code, when and the file."""
    env = env_for(project, home)
    path, _ = ended_on_the_server(project, env)
    assert run_snm("-c", "session refresh", env=env).returncode == 3
    text = run_snm("-c", "session show", env=env)
    said = ENDED.search(text.stdout)
    assert said, text.stdout
    date = re.search(r" at (\S+); sign in", said.group(0)).group(1)
    # A script's requests fail rather than go signed out: that too, as the text says it.
    stops = "; nothing is sent signed out in its place (run 'logout' first to go on signed out)"
    assert text.stdout == f"not signed in: {said.group(0)}{stops}\n", text.stdout
    for format in ("json", "ndjson"):
        shown = run_snm("--format", format, "-c", "session show", env=env)
        assert shown.returncode == 0, shown.stderr
        assert json.loads(shown.stdout) == {
            "signed_in": False, "role": "anon",
            "ended_by_server": {"code": "refresh_token_not_found", "date": date,
                                "path": str(path)},
            "stored_session_unusable": said.group(0) + stops}, shown.stdout
    assert run_snm("-c", "logout", env=env).returncode == 0
    after = run_snm("--format", "json", "-c", "session show", env=env)
    assert json.loads(after.stdout) == {"signed_in": False, "role": "anon"}, after.stdout


PROMPT = "snm anon@local>"


def prompt_env(env):
    """The whole environment for a shell in a bare pseudo-terminal (an xterm, no pager)."""
    full = {k: v for k, v in os.environ.items() if not k.startswith("TMUX")}
    full.update(env, TERM="xterm", NO_COLOR="1", PAGER="cat")
    return full


def at_the_prompt(env, *lines):
    """Starts the shell in a pseudo-terminal, types `lines` (each waited for: its prompt again),
    and returns every byte it wrote, as text."""
    with PtyScreen([SNM], env=prompt_env(env), rows=50, columns=300) as term:
        term.wait_for(lambda t: t.text().endswith(PROMPT))
        for line in lines:
            prompts = term.raw.count(PROMPT.encode())
            term.type(line + "\r")
            term.wait_for(lambda t: t.raw.count(PROMPT.encode()) > prompts
                          and t.text().endswith(PROMPT))
        term.type("\\q\r")
        term.settle()
        return term.raw.decode(errors="replace").replace("\r\n", "\n")


def test_the_prompt_warns_once_a_shell_and_goes_on_signed_out(project, home):
    """At the prompt the mark is a warning (once a shell, however many statements), then the shell
    goes on signed out as its prompt shows; `session show` says why; `logout` there removes the
    mark, and the next shell starts with no warning."""
    env = env_for(project, home)
    path, _ = ended_on_the_server(project, env)
    assert run_snm("-c", "session refresh", env=env).returncode == 3
    warning = re.compile(r"snm: warning: " + ENDED.pattern + r"; meanwhile requests go signed out "
                         r"\('logout' to go on so unwarned\)")
    for _ in range(2):  # each shell says it once, the mark staying
        seen = at_the_prompt(env, "from dog_profile select id", "session show",
                             "set format json", "session show", "set format table",
                             "from dog_profile select id")
        assert len(warning.findall(seen)) == 1, seen
        assert len(re.findall(r"\(\d+ rows?\)", seen)) == 2, seen
        assert ENDED.search(seen.split("session show", 1)[1]), seen
        assert '"ended_by_server":{"code":"refresh_token_not_found"' in seen, seen
        # The prompt goes on signed out: no word of requests failing.
        assert "nothing is sent signed out" not in seen and "unusable" not in seen, seen
        assert json.loads(path.read_text())["ended"]["code"] == "refresh_token_not_found"
    seen = at_the_prompt(env, "logout")
    assert len(warning.findall(seen)) == 1 and "not signed in" in seen, seen
    assert not path.exists()
    seen = at_the_prompt(env, "session show")
    assert "warning" not in seen and "was ended by the server" not in seen, seen
    assert "not signed in (requests use the project's API key, role anon)" in seen, seen


def test_a_logout_elsewhere_is_not_made_an_end_by_the_server(project, home):
    """The user signs out in another terminal (`logout`: the file is removed, the server told) while
    a shell still holds the session: its next refresh is refused, and it wrote the mark that the
    server ended the session where the user had removed the file, so every later script failed,
    exit 3, 'ended by the server', over a sign-out the user chose. Where the file is gone (or holds
    another session), nothing is written: the shell's refresh fails, and later runs go on
    signed out, as `logout` said."""
    env = env_for(project, home)
    login = run_snm("-c", "login", env=env)
    assert login.returncode == 0, login.stderr
    [path] = list(pathlib.Path(env["XDG_STATE_HOME"]).rglob("session-*.json"))
    with PtyScreen([SNM], env=prompt_env(env), rows=50, columns=300) as term:
        term.wait_for(lambda t: t.text().endswith("@local>") and PROMPT not in t.text())
        logout = run_snm("-c", "logout", env=env)
        assert logout.returncode == 0 and "signed out" in logout.stdout, logout.stderr
        assert not path.exists()
        term.type("session refresh\r")
        term.wait_for(lambda t: "the session ended on the server" in t.text()
                      and t.text().endswith(PROMPT))
        term.type("\\q\r")
        term.settle()
    assert not path.exists(), path.read_text()
    later = run_snm("-c", "from dog_profile select id", env=env)
    assert later.returncode == 0, later.stderr
    assert "rows)" in later.stdout or "(1 row)" in later.stdout, later.stdout
