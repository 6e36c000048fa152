"""First contact and the adversary (field lane): what a script, a first start and a refused
prompt tell the person at the keyboard before anything is sent or stored.

A missing `$env.X` is found before a script sends anything: it failed only when its line ran,
after the statements before it had been sent (a user signed up, a row written) and with the
script's first lines printed."""
import json
import os
import subprocess
import threading
import uuid

import pytest

from conftest import SNM, free_port
from test_shell_prompt import shell_env  # noqa: F401 (a fixture)

UNSET = "SNM_FIELD_NEVER_SET_7"


@pytest.fixture
def env(shell_env):
    environment = {**os.environ, **shell_env, "NO_COLOR": "1"}
    environment.pop(UNSET, None)
    return environment


def snm(env, *args, cwd=None):
    return subprocess.run([SNM, *args], capture_output=True, text=True, env=env, timeout=60,
                          cwd=cwd)


def users_named(project, email):
    return project.sql(f"select count(*) from auth.users where email = '{email}'").strip()


def test_a_missing_env_variable_is_found_before_the_script_sends_anything(env, project, tmp_path):
    email = f"envcheck-{uuid.uuid4().hex[:10]}@example.com"
    script = tmp_path / "signup.snm"
    script.write_text("echo 'before'\n"
                      f"signup email '{email}' password 'pw-1234567890'\n"
                      f"login email '{email}' password $env.{UNSET}\n")
    result = snm(env, str(script))
    assert result.returncode == 2, (result.returncode, result.stdout, result.stderr)
    assert result.stdout == ""
    assert (f"{script}:3:{len(email) + 25}: error: the environment variable '{UNSET}' is not set"
            in result.stderr), result.stderr
    assert users_named(project, email) == "0", "the signup before it was sent"
    # -c is checked whole as well.
    result = snm(env, "-c", f"echo 'before'\necho $env.{UNSET}")
    assert result.returncode == 2 and result.stdout == "", (result.stdout, result.stderr)
    assert f"-c:2:6: error: the environment variable '{UNSET}' is not set" in result.stderr
    # So is a file the script runs, before the script's own first line.
    (tmp_path / "inner.snm").write_text(f"echo $env.{UNSET}\n")
    outer = tmp_path / "outer.snm"
    outer.write_text("echo 'before'\nrun inner.snm\n")
    result = snm(env, str(outer))
    assert result.returncode == 2 and result.stdout == "", (result.stdout, result.stderr)
    assert f"inner.snm:1:6: error: the environment variable '{UNSET}' is not set" in result.stderr
    # Set, the same script runs.
    result = snm({**env, UNSET: "x"}, "-c", f"echo 'before'\necho $env.{UNSET}")
    assert result.returncode == 0 and result.stdout == "before\nx\n", result.stderr


def test_expect_env_exists_is_the_scripts_own_check_and_guards_the_lines_after_it(env, tmp_path):
    script = tmp_path / "guarded.snm"
    script.write_text(f"echo 'before'\nexpect $env.{UNSET} exists\necho $env.{UNSET}\n")
    result = snm(env, str(script))
    # The script chose where to fail: at its expectation, after what comes before it.
    assert result.stdout == "before\n", (result.stdout, result.stderr)
    assert result.returncode == 1, (result.returncode, result.stderr)
    assert f"{script}:2:1" in result.stderr, result.stderr
    # `not exists` guards nothing: a use after it is still found up front.
    script.write_text(f"echo 'before'\nexpect $env.{UNSET} not exists\necho $env.{UNSET}\n")
    result = snm(env, str(script))
    assert result.returncode == 2 and result.stdout == "", (result.stdout, result.stderr)
    assert f"{script}:3:6: error: the environment variable '{UNSET}' is not set" in result.stderr


# ---- a script that does not parse chooses no project ------------------------------------------

NONSENSE = ("from where nonsense\n", "1:12: error: expected an action (select, insert, upsert, put, "
            "update or delete) after the table 'where', found 'nonsense'")


def unnamed(tmp_path):
    """Nothing names a project, and the local project cannot be made: XDG_DATA_HOME is a file."""
    environment = {name: value for name, value in os.environ.items()
                   if not name.startswith("SUPABASE_") and name != "CI"}
    data_home = tmp_path / "data-home-is-a-file"
    data_home.write_text("")
    return {**environment, "XDG_DATA_HOME": str(data_home), "NO_COLOR": "1"}


def test_a_script_that_does_not_parse_is_refused_before_a_project_is_chosen(tmp_path):
    """With no project named, `snm -c nonsense` started the machine's local project (port
    54321) before checking the script, and a start that failed (the port taken) exited 3 saying
    nothing of the mistake. Every way in says where and why, exit 2, with nothing chosen: here
    a start would fail (its data home is a file) and say so."""
    env = unnamed(tmp_path)
    text, error = NONSENSE
    bad = tmp_path / "bad.snm"
    bad.write_text(text)
    good = tmp_path / "good.snm"
    good.write_text("echo 'ran'\n")
    cases = [
        ("-c", ["-c", text], None, f"-c:{error}"),
        ("file", [str(bad)], None, f"{bad}:{error}"),
        # Every file is checked before the first runs.
        ("second file", [str(good), str(bad)], None, f"{bad}:{error}"),
        ("snm -", ["-"], text, f"stdin:{error}"),
        ("pipe", [], "\n\n# a comment first\n" + text, f"stdin:4:{error.split(':', 1)[1]}"),
        ("check", ["check", str(bad)], None, f"{bad}:{error}"),
    ]
    for name, args, stdin, expected in cases:
        result = subprocess.run([SNM, *args], input=stdin, capture_output=True, text=True,
                                env=env, timeout=60)
        assert (result.returncode, result.stdout) == (2, ""), (name, result.stdout, result.stderr)
        assert result.stderr.startswith(expected + "\n"), (name, result.stderr)
        assert "data dir" not in result.stderr and "local project" not in result.stderr, \
            (name, result.stderr)
    # Standard input redirected from the file (read whole, checked whole).
    with open(bad) as stdin:
        result = subprocess.run([SNM], stdin=stdin, capture_output=True, text=True, env=env,
                                timeout=60)
    assert (result.returncode, result.stdout) == (2, ""), result.stderr
    assert result.stderr.startswith(f"stdin:{error}\n"), result.stderr


def test_a_pipe_whose_first_statement_cannot_run_is_refused_before_a_project_is_chosen(
        tmp_path):
    """A pipe's first statement is checked before a project is chosen, but one still open when
    the input ended (a `(` never closed, a last line ending in `\\`) was left to the prompt loop,
    which runs it as it is: the local project was chosen and started first (here: exit 1, 'cannot
    create the data dir'), and only then the mistake said; so was a pipe that cannot be read on
    (not UTF-8, closed) before its first statement ended, when nothing would run."""
    env = unnamed(tmp_path)
    stopped = "nothing from there on ran"
    cases = [
        ("left open", b"# first\nfrom todos where (id = 1 and\n", "stdin:2:12: error:"),
        ("continued past its end", b"\nfrom where nonsense \\\n", "stdin:2:12: error:"),
        ("not UTF-8", b"# first\nfrom todos where (id = 1 and\n\xff\n",
         f"snm: standard input is not UTF-8 text, at line 3: {stopped}\n"),
    ]
    for name, stdin, expected in cases:
        result = subprocess.run([SNM], input=stdin, capture_output=True, env=env, timeout=60)
        said = result.stderr.decode()
        assert (result.returncode, result.stdout) == (2, b""), (name, result.stdout, said)
        assert said.startswith(expected), (name, said)
        assert "data dir" not in said and "local project" not in said, (name, said)
    closed = subprocess.run(["sh", "-c", f'exec "{SNM}" <&-'], capture_output=True, text=True,
                            env=env, timeout=60)
    assert (closed.returncode, closed.stderr) == (
        2, f"snm: cannot read standard input: not open (EBADF), at line 1: {stopped}\n"), \
        closed.stderr
    # Once a statement has run, the line a read failed at is counted once: it said line 4 here
    # (the open statement's line counted twice).
    named = {**env, "SUPABASE_URL": "http://127.0.0.1:9", "SUPABASE_ANON_KEY": "x"}
    later = subprocess.run([SNM], input=b"echo 'a'\nfrom todos where (id = 1 and\n\xff\n",
                           capture_output=True, env=named, timeout=60)
    assert (later.returncode, later.stdout) == (2, b"a\n"), later.stderr
    assert later.stderr == f"snm: standard input is not UTF-8 text, at line 3: {stopped}\n" \
        .encode(), later.stderr


def test_every_file_is_checked_before_the_first_runs_with_what_the_ones_before_bind(
        env, tmp_path):
    """`snm a.snm b.snm` ran a.snm (its requests sent) before finding b.snm's mistake; each
    file is checked before the first runs, with the names the files before it bind. A pipe's
    first statement is read to be checked, then runs as it came."""
    first = tmp_path / "first.snm"
    first.write_text("echo 'first ran'\nlet who = 'Bori'\n")
    bad = tmp_path / "bad.snm"
    bad.write_text("echo $who\n" + NONSENSE[0])
    result = snm(env, str(first), str(bad))
    assert (result.returncode, result.stdout) == (2, ""), result.stderr
    assert result.stderr == (f"{bad}:2:{NONSENSE[1][2:]}\nfrom where nonsense\n"
                             "           ^~~~~~~~\n"), result.stderr
    second = tmp_path / "second.snm"
    second.write_text("echo 'hello $who'\n")
    result = snm(env, str(first), str(second))
    assert (result.returncode, result.stdout) == (0, "first ran\nhello Bori\n"), result.stderr
    piped = subprocess.run([SNM], input="\n# first\necho 'one'\necho 'two'\nfrom where x\n",
                           capture_output=True, text=True, env=env, timeout=60)
    assert (piped.returncode, piped.stdout) == (2, "one\ntwo\n"), piped.stderr
    assert piped.stderr.startswith("stdin:5:12: error:"), piped.stderr
    # A FIFO the first statement runs is read once, for its check and its run.
    fifo = tmp_path / "once.snm"
    os.mkfifo(fifo)

    def write_once():
        with open(fifo, "w") as writer:
            writer.write("echo 'from the fifo'\n")
    writer = threading.Thread(target=write_once, daemon=True)
    writer.start()
    piped = subprocess.run([SNM], input=f"run {fifo}\n", capture_output=True, text=True, env=env,
                           timeout=60)
    assert (piped.returncode, piped.stdout) == (0, "from the fifo\n"), piped.stderr


# ---- a start says its steps at a terminal ---------------------------------------------------------

STEPS = ["making the project's database cluster (initdb", "starting Postgres (about",
         "applying the schema (", "starting the gateway on http://127.0.0.1:{port} (about"]


def test_a_first_start_says_each_step_at_a_terminal_and_nothing_when_piped(tmp_path):
    """The first start takes some seconds (initdb, Postgres, the schema, the gateway): at a
    terminal each step is said on standard error as it begins, with its estimate, where it said
    nothing until the end; piped, only the result. The shell's first use of the local project
    starts it through the same steps (`LocalProject.ensureRunning`)."""
    import pexpect
    from conftest import free_port
    data = tmp_path / "data"
    port = free_port()
    env = {**os.environ, "NO_COLOR": "1", "TERM": "xterm"}
    try:
        child = pexpect.spawn(SNM, ["local", "start", "--dir", str(data), "--port", str(port)],
                              env=env, encoding="utf-8", timeout=180, dimensions=(24, 200))
        child.expect(pexpect.EOF)
        child.close()
        shown = child.before
        assert child.exitstatus == 0, shown
        places = [shown.find("snm local: " + step.format(port=port)) for step in STEPS]
        assert all(place >= 0 for place in places), shown
        assert places == sorted(places), shown
        stopped = snm(env, "local", "stop", "--dir", str(data))
        assert stopped.returncode == 0, stopped.stderr
        # Piped: a start (Postgres and the gateway again) says no step.
        again = snm(env, "local", "start", "--dir", str(data), "--port", str(port))
        assert again.returncode == 0, again.stderr
        assert "starting Postgres" not in again.stderr and "snm local: start" not in again.stderr
    finally:
        snm(env, "local", "destroy", "--dir", str(data), "--yes")


# ---- a project URL that leads nowhere ------------------------------------------------------------

WRONG = "https://wrongref.invalid"
KEY = "sb_publishable_field0wrong0ref0key0"


def test_a_project_host_not_found_says_what_to_check_and_where_it_came_from(tmp_path):
    """`https://WRONGREF.supabase.co` said only `host not found`, as a network fault would: the
    second line says which URL to check and what named it (the flag, the variable, the profile),
    for a request, a sign-in, a function, `listen`, `tables` and `describe`; never a key."""
    environment = {name: value for name, value in os.environ.items()
                   if not name.startswith("SUPABASE_") and name != "CI"}
    config = tmp_path / "config"
    (config / "snm").mkdir(parents=True)
    (config / "snm" / "config.json").write_text(json.dumps(
        {"profiles": {"staging": {"url": WRONG, "anon_key": KEY}}}))
    base = {**environment, "NO_COLOR": "1", "XDG_CONFIG_HOME": str(config),
            "XDG_STATE_HOME": str(tmp_path / "state"), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    origins = [("--url", ["--url", WRONG, "--key", KEY], {}),
               ("SUPABASE_URL", [], {"SUPABASE_URL": WRONG, "SUPABASE_PUBLISHABLE_KEY": KEY}),
               ("--profile staging", ["--profile", "staging"], {})]
    # `tables` and `describe` (the schema catalog kept its failure as text) said only `host not
    # found` before.
    statements = ["from dog_profile select name", "login email 'kim@example.com' password 'pw'",
                  "invoke hello", "listen dog_profile", "tables", "describe dog_profile"]
    for origin, args, env in origins:
        for statement in statements:
            result = subprocess.run([SNM, *args, "-c", statement], capture_output=True, text=True,
                                    env={**base, **env}, timeout=60)
            assert result.returncode == 3, (origin, statement, result.stderr)
            assert (f"snm: no host is named wrongref.invalid: check the project URL (from {origin});"
                    " or this machine cannot look names up (no network, no DNS)\n"
                    in result.stderr), (origin, statement, result.stderr)
            assert KEY not in result.stdout + result.stderr


def stable_hash(text):
    """snm's FNV-1a of `text` as 16 hex digits (FileIO.stableHashHex: the schema cache's names)."""
    value = 0xcbf29ce484222325
    for byte in text.encode():
        value = ((value ^ byte) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return f"{value:016x}"


def test_a_cached_schema_of_a_host_not_found_says_what_to_check(tmp_path):
    """`describe` and `tables` served from the cache when the project's host is not found (a
    schema cached before the ref was mistyped, or the machine went offline) said only `host not
    found` inside the cache's notice: the advice follows it, as for any request."""
    environment = {name: value for name, value in os.environ.items()
                   if not name.startswith("SUPABASE_") and name != "CI"}
    cache = tmp_path / "cache" / "snm" / "schema"
    cache.mkdir(parents=True)
    for folder in (cache.parent, cache):
        folder.chmod(0o700)
    document = {"swagger": "2.0", "paths": {"/dog_profile": {}}, "definitions": {"dog_profile": {
        "properties": {"id": {"type": "integer", "format": "bigint"}}}}}
    (cache / f"wrongref.invalid-{stable_hash(WRONG + chr(10) + KEY)}.json").write_text(
        json.dumps(document))
    env = {**environment, "NO_COLOR": "1", "XDG_CACHE_HOME": str(tmp_path / "cache"),
           "XDG_STATE_HOME": str(tmp_path / "state"), "XDG_CONFIG_HOME": str(tmp_path / "config")}
    for statement, shown in [("tables", "dog_profile"), ("describe dog_profile", "bigint")]:
        result = subprocess.run([SNM, "--url", WRONG, "--key", KEY, "-c", statement],
                                capture_output=True, text=True, env=env, timeout=60)
        assert result.returncode == 3 and shown in result.stdout, (statement, result)
        assert "showing the schema cached just now" in result.stderr, result.stderr
        assert result.stderr.endswith(
            "which may be out of date\nsnm: no host is named wrongref.invalid: check the project "
            "URL (from --url); or this machine cannot look names up (no network, no DNS)\n"), \
            (statement, result.stderr)


def test_tables_where_nothing_answers_say_so_as_a_request_does(tmp_path):
    """`tables` and `describe` where nothing listens said `could not reach the project` and
    `connection refused`; a request said `nothing answers at URL`: they say it too."""
    environment = {name: value for name, value in os.environ.items()
                   if not name.startswith("SUPABASE_") and name != "CI"}
    env = {**environment, "NO_COLOR": "1", "XDG_CACHE_HOME": str(tmp_path / "cache"),
           "XDG_STATE_HOME": str(tmp_path / "state"), "XDG_CONFIG_HOME": str(tmp_path / "config")}
    url = f"http://127.0.0.1:{free_port()}"
    for statement in ["from dog_profile select id", "tables", "describe dog_profile"]:
        result = subprocess.run([SNM, "--url", url, "--key", KEY, "-c", statement],
                                capture_output=True, text=True, env=env, timeout=60)
        assert result.returncode == 3, (statement, result.stderr)
        assert result.stderr.startswith(f"-c:1:1: error: nothing answers at {url}: {statement}\n"), \
            (statement, result.stderr)


def test_a_data_dir_that_cannot_be_made_names_the_part_at_fault(tmp_path):
    """XDG_DATA_HOME a file: `snm --local` said `Error Domain=NSCocoaErrorDomain Code=512 "(null)"
    UserInfo={...}`; it names the part of the path that is a file."""
    env = unnamed(tmp_path)
    result = subprocess.run([SNM, "--local", "-c", "echo 'x'"], capture_output=True, text=True,
                            env=env, timeout=60)
    data_home = env["XDG_DATA_HOME"]
    assert result.returncode != 0 and result.stdout == "", result.stderr
    assert result.stderr == (f"snm: cannot create the data dir {data_home}/snm/local: "
                             f"{data_home} is a file, not a folder\n"), result.stderr
