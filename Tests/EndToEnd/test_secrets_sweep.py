"""A session of snm commands (sign-up, sign-in typed and scripted, a wrong password, queries that
fail, --echo, --var, scripts with JUnit/TAP/JSON reports, explain --curl, the prompt with its
history, the service_role key, an unreachable URL, logout) and then a sweep: no key, token,
password or the JWT secret appears in any output or error, in the gateway's or Postgres' log, in the
history, the schema cache, the reports, or any state file but the 0600 session file itself.

`snm local start/status` print the keys on purpose (as `supabase start` does); they are the way to
get them and are not part of the sweep."""
import json
import os
import pathlib
import stat
import subprocess
import uuid

import pytest

from conftest import SNM, run_snm
from hardening import jwt_secret
from tmux_shell import PROMPT, TmuxShell


@pytest.fixture(scope="module")
def sweep_project(start_extra_project):
    return start_extra_project("secrets-sweep")


def tokens_in(path):
    """Every string under a key naming a token in a JSON file (the session file)."""
    found = set()

    def walk(value, key=""):
        if isinstance(value, dict):
            for name, item in value.items():
                walk(item, name)
        elif isinstance(value, list):
            for item in value:
                walk(item, key)
        elif isinstance(value, str) and "token" in key.lower() and len(value) >= 8:
            found.add(value)

    walk(json.loads(pathlib.Path(path).read_text()))
    return found


def forms(secret):
    """The secret as it could leak: whole, JSON- or URL-encoded, or a JWT's signature alone."""
    import urllib.parse
    variants = {secret, json.dumps(secret)[1:-1], urllib.parse.quote(secret, safe="")}
    if secret.count(".") == 2 and secret.startswith("eyJ"):
        variants.add(secret.rsplit(".", 1)[1])
    return {variant for variant in variants if len(variant) >= 8}


def test_no_secret_leaks_anywhere(sweep_project, tmp_path):
    project = sweep_project
    run_id = uuid.uuid4().hex[:8]
    email = f"sweep-{run_id}@example.com"
    password = f"Pw-{run_id}-{uuid.uuid4().hex}"
    wrong = f"Wrong-{uuid.uuid4().hex}"
    state, cache = tmp_path / "state", tmp_path / "cache"
    env = {"SUPABASE_URL": project.url, "SUPABASE_ANON_KEY": project.anon_key,
           "XDG_STATE_HOME": str(state), "XDG_CACHE_HOME": str(cache),
           "XDG_CONFIG_HOME": str(tmp_path / "config"), "NO_COLOR": "1", "PAGER": "cat",
           "SWEEP_PASSWORD": password}
    secrets = {"anon key": project.anon_key, "service_role key": project.service_role_key,
               "publishable key": project.status["publishable_key"],
               "secret key": project.status["secret_key"],
               "JWT secret": jwt_secret(project).decode().strip(), "password": password,
               "wrong password": wrong}
    outputs = []
    session_tokens = set()

    def session_file():
        files = list((state / "snm").glob("session-*.json"))
        return files[0] if files else None

    def snm(*args, expect=None, **kwargs):
        result = run_snm(*args, env={**env, **kwargs.pop("env", {})}, timeout=120, **kwargs)
        outputs.append((" ".join(args)[:80], result.stdout + result.stderr))
        if expect is not None:
            wanted = expect if isinstance(expect, tuple) else (expect,)
            assert result.returncode in wanted, (args, result.stdout, result.stderr)
        if session_file():
            session_tokens.update(tokens_in(session_file()))
        return result

    snm("-c", f"signup email '{email}' password '{password}'", expect=0)
    snm("-c", "session show", expect=0)
    snm("--format", "json", "-c", "session show", expect=0)
    snm("--echo", "-c", f"login email '{email}' password '{password}'; "
                        "from user_info select name order by name; session check", expect=0)
    snm("--echo", "-c", f"login email '{email}' password '{wrong}'", expect=3)
    snm("--var", f"pw={password}", "-c", f"login email '{email}' password $pw", expect=0)
    snm("-c", f"login email '{email}' password $env.SWEEP_PASSWORD", expect=0)
    snm("--continue-on-error", "--echo", "-c",
        "from no_such_table select *; from user_info insert {\"id\": \"not-a-uuid\"}; "
        "from dog_profile insert {\"owner\": \"0c8e5f7a-6b9d-4f1e-9a3b-2d4c6e8f0a1b\", "
        "\"name\": \"x\"}; from user_info update {\"age\": 1} where all", expect=1)
    snm("explain", "--curl", "from user_info select * where age >= 3", expect=0)
    snm("explain", "--json", "from user_info insert {\"name\": \"Kim\"}", expect=0)
    snm("-c", "explain from dog_profile select name", expect=0)
    snm("--key", project.service_role_key, "-c", "from walk_request select id; "
        "from walk_request insert {\"sender\": \"nobody\"}", expect=1)
    snm("--url", "http://127.0.0.1:9", "--key", project.service_role_key, "-c",
        "from user_info select *", expect=3)
    # The new keys, in the variables hosted projects document.
    snm("-c", "from dog_profile select name limit 1; session show", expect=0,
        env={"SUPABASE_ANON_KEY": "", "SUPABASE_PUBLISHABLE_KEY": project.status["publishable_key"]})
    snm("--key", project.status["secret_key"], "-c", "from walk_request select id; "
        "from no_such_table select *", expect=1)

    scripts = tmp_path / "scripts"
    scripts.mkdir()
    (scripts / "01-pass.snm").write_text(
        f"login email '{email}' password $env.SWEEP_PASSWORD\n"
        "let me = from user_info select name order by name limit 1\nexpect rows 1\n")
    (scripts / "02-fail.snm").write_text(
        f"login email '{email}' password '{wrong}'\nfrom user_info select *\n")
    (scripts / "03-fail-later.snm").write_text(
        f"login email '{email}' password '{password}'\nfrom nowhere select *\n")
    reports = {kind: tmp_path / f"report.{kind}" for kind in ("junit", "tap", "json")}
    snm("test", *sum((["--report", f"{kind}={path}"] for kind, path in reports.items()), []),
        str(scripts), expect=(1, 3))
    assert all(path.exists() for path in reports.values()), "snm test wrote no reports"
    snm("--echo", "--continue-on-error", str(scripts / "03-fail-later.snm"), expect=1)

    # At the prompt: a typed password (no echo), statements, then the history file.
    with TmuxShell([SNM], env=env) as shell:
        shell.wait_for_prompt()
        shell.type(f"login email '{email}'")
        shell.press("Enter")
        shell.wait_for_text("password for")
        shell.type(password)
        shell.press("Enter")
        shell.wait_for_prompt(count=2)
        for line in [f"login email '{email}' password '{password}'",
                     "from user_info select name order by name", "session show",
                     "from nowhere select *"]:
            prompts = shell.prompt_count()
            shell.type(line)
            shell.press("Enter")
            shell.wait_for_prompt(count=prompts + 1, timeout=30)
        # What the user typed is on the screen because they typed it; the rest is snm's output.
        screen = "\n".join(line for line in shell.screen().splitlines()
                           if not PROMPT.match(line))
        shell.press("C-d")
        shell.wait_for_text("[snm exited")
    outputs.append(("prompt", screen))
    if session_file():
        session_tokens.update(tokens_in(session_file()))
    snm("-c", "logout", expect=0)

    assert session_tokens, "no session was ever stored"
    for number, token in enumerate(sorted(session_tokens)):
        secrets[f"session token {number}"] = token

    # Everything the run left behind.
    status = json.loads(run_snm("local", "status", "--dir", project.data_dir, "--json").stdout)
    places = {f"output of snm {command}": text for command, text in outputs}
    files = [pathlib.Path(status["log_file"]), pathlib.Path(status["cluster_dir"]) / "postgres.log"]
    files += [path for path in state.rglob("*") if path.is_file()]
    files += [path for path in cache.rglob("*") if path.is_file()]
    files += list(reports.values())
    for path in files:
        if path.name.startswith("session-") and path.suffix == ".json":
            assert stat.S_IMODE(path.stat().st_mode) == 0o600, path
            continue
        places[str(path)] = path.read_bytes().decode("utf-8", errors="replace")
    assert (state / "snm" / "history").exists(), "the prompt kept no history"
    assert pathlib.Path(status["log_file"]).stat().st_size > 0, "the gateway logged nothing"

    leaks = [f"{name} in {place}" for name, secret in secrets.items() for variant in forms(secret)
             for place, text in places.items() if variant in text]
    assert leaks == [], "\n".join(sorted(set(leaks)))
    # The sweep looks in the right places: the statements and the user are there.
    assert "from user_info select name order by name" in places[str(state / "snm" / "history")]
    assert any(email in text for text in places.values())
