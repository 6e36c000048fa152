"""Every code block of README.md, run as a reader would run it against the demo project.

Each block is found by its first line in BLOCKS, which says how it runs:
- a prompt transcript (`snm anon@local> ...`) is typed at the real prompt in a pty (tmux), a
  password typed when snm asks for one, and every line the README shows as output must appear;
- a block of statements runs as a script file against the demo project and must exit 0;
- a diagnostic the README shows is reproduced from a file made for it, byte for byte;
- a shell block runs in bash with `snm` on PATH, the placeholders for a hosted project replaced by
  the local one (the table says which), and every command must succeed.
A block the table does not know fails the first test, so a new example cannot go untested.
"""
import json
import os
import re
import shutil
import subprocess

import httpx
import pytest

from conftest import ROOT, SNM, run_snm
from storage_helpers import PNG
from tmux_shell import TmuxShell

README = (ROOT / "README.md").read_text()
PASSWORD = "password123"  # the demo users' (docs/demo-schema.md)


def blocks():
    """(line number, info string, text) of each fenced block."""
    found = []
    for match in re.finditer(r"^```(\w*)\n(.*?)^```", README, re.S | re.M):
        found.append((README[:match.start()].count("\n") + 1, match.group(1), match.group(2)))
    return found


def strip_comment(line):
    return re.sub(r"\s+#\s.*$", "", line).rstrip()


@pytest.fixture
def env(project, tmp_path):
    return {**os.environ, "SUPABASE_URL": project.url, "SUPABASE_ANON_KEY": project.anon_key,
            "XDG_STATE_HOME": str(tmp_path / "state"), "XDG_CACHE_HOME": str(tmp_path / "cache"),
            "XDG_CONFIG_HOME": str(tmp_path / "config"), "PAGER": "cat", "NO_COLOR": "1",
            "BOB_PASSWORD": PASSWORD}


# --- prompt transcripts ---------------------------------------------------------------------

def transcript(text, env, tmp_path):
    """Types each statement at the prompt; continuation lines (`->`) go on the statement before."""
    statements, shown = [], []
    for line in text.splitlines():
        prompt = re.match(r"^(snm [^>]*>) (.*)$", line)
        continued = re.match(r"^\s+-> (.*)$", line)
        if prompt:
            statements.append([strip_comment(prompt.group(2))])
            # The prompt the README shows is the one snm shows there (who is signed in).
            shown.append(f"{prompt.group(1)} {statements[-1][0]}")
        elif continued and statements:
            statements[-1].append(strip_comment(continued.group(1)))
        else:
            shown.append(line.rstrip())
    (tmp_path / "bori.png").write_bytes(PNG)
    tmux_env = {k: env[k] for k in ("SUPABASE_URL", "SUPABASE_ANON_KEY", "XDG_STATE_HOME",
                                    "XDG_CACHE_HOME", "XDG_CONFIG_HOME", "PAGER", "NO_COLOR")}
    with TmuxShell([SNM], env=tmux_env, cwd=str(tmp_path)) as shell:
        shell.wait_for_prompt()
        for lines in statements:
            before = shell.prompt_count()
            for line in lines:
                shell.type(line)
                shell.press("Enter")
            if re.match(r"^login email '[^']*'$", lines[0]):
                shell.wait_for_text("password for")
                shell.type(PASSWORD)
                shell.press("Enter")
            screen = shell.wait_for_prompt(before + 1, timeout=30)
            output = screen.split(lines[-1], 1)[-1]
            assert not re.search(r"^(snm: |\S+:\d+:\d+: error:)", output, re.M), screen
        screen = shell.screen()
    for line in shown:
        assert line.strip() in screen, f"README shows {line!r}; the prompt printed:\n{screen}"
    if "to 'copy.png'" in text:
        assert (tmp_path / "copy.png").read_bytes() == PNG


# --- statements as a script -----------------------------------------------------------------

def script(text, env, tmp_path):
    (tmp_path / "_lib").mkdir()
    (tmp_path / "_lib" / "login.snm").write_text(
        "login email 'bob@example.com' password $env.BOB_PASSWORD\n")
    (tmp_path / "example.snm").write_text(text)
    result = run_snm("example.snm", env=env, cwd=tmp_path, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr


# --- diagnostics as shown -------------------------------------------------------------------

def parse_error(text, env, tmp_path):
    location, _, _ = text.partition(": error:")
    name, line, _ = location.split(":")
    source_line = text.splitlines()[1]
    (tmp_path / name).write_text("# a comment\n" * (int(line) - 1) + source_line + "\n")
    result = run_snm(name, env=env, cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr == text


def expectation_failure(text, env, tmp_path):
    location, _, _ = text.partition(": error:")
    name, line, _ = location.split(":")
    (tmp_path / name).parent.mkdir(parents=True)
    lines = ["# a comment"] * (int(line) - 2)
    lines += ["from dog_profile select id where name eq 'nobody'", "expect rows 1"]
    (tmp_path / name).write_text("\n".join(lines) + "\n")
    result = run_snm(name, env=env, cwd=tmp_path)
    assert result.returncode == 1
    # A script file's first line on standard error is its target; the failure follows.
    target, _, rest = result.stderr.partition("\n")
    assert target.startswith("target: http://127.0.0.1:"), result.stderr
    assert rest.startswith(text), result.stderr


# --- shell blocks ---------------------------------------------------------------------------

def shell_block(substitutions=(), setup=None, each_line=None, service_key=False):
    """Runs the block in bash as one script (snm on PATH, the project's environment, `set -e`),
    after `substitutions` (placeholder, the local value as a function of the project). With
    `each_line`, each line runs on its own, followed by what `each_line(line)` gives; with
    `service_key`, the project's service key is in SUPABASE_SERVICE_ROLE_KEY (as a CI job's)."""
    def run(text, env, tmp_path, project):
        bin_dir = tmp_path / "bin"
        bin_dir.mkdir()
        (bin_dir / "snm").symlink_to(SNM)
        env = {**env, "PATH": f"{bin_dir}:{env['PATH']}",
               "SUPABASE_PUBLISHABLE_KEY": project.status["publishable_key"]}
        if service_key:
            env["SUPABASE_SERVICE_ROLE_KEY"] = project.status["secret_key"]
        if setup:
            setup(tmp_path, project)
        lines = [strip_comment(line) for line in text.splitlines()]
        for placeholder, value in substitutions:
            lines = [line.replace(placeholder, value(project)) for line in lines]
        scripts = [line + each_line(line) for line in lines] if each_line else ["\n".join(lines)]
        for command in scripts:
            result = subprocess.run(["bash", "-c", "set -eo pipefail\n" + command], env=env,
                                    cwd=tmp_path, capture_output=True, text=True, timeout=180)
            assert result.returncode == 0, f"{command}\n{result.stdout}{result.stderr}"
    return run


def first_hour(text, env, tmp_path, project):
    """Each line on its own in bash (snm on PATH, the project in the environment with its service
    key, the smoke scripts as tests/, no local project of the reader's): a line whose comment
    starts `exit N:` must exit N, every other 0. Then what the lines promise: the run and its report
    name the target and never the key, the csv holds every row once."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "snm").symlink_to(SNM)
    env = {**env, "PATH": f"{bin_dir}:{env['PATH']}", "XDG_DATA_HOME": str(tmp_path / "data"),
           "SUPABASE_PUBLISHABLE_KEY": project.status["publishable_key"],
           "SUPABASE_SERVICE_ROLE_KEY": project.status["secret_key"], "ALICE_PASSWORD": PASSWORD}
    smoke_tests(tmp_path, project)
    outputs = []
    for line in text.splitlines():
        expected = re.search(r"#\s+exit (\d+):", line)
        command = strip_comment(line)
        result = subprocess.run(["bash", "-c", "set -o pipefail\n" + command], env=env,
                                cwd=tmp_path, capture_output=True, text=True, timeout=300)
        code = int(expected.group(1)) if expected else 0
        assert result.returncode == code, f"{command}\n{result.stdout}{result.stderr}"
        outputs.append(result)
    assert "SUPABASE_URL" in outputs[1].stderr and "--local" in outputs[1].stderr
    assert outputs[2].stdout.startswith(f"target: {project.url} ")
    junit = (tmp_path / "build" / "junit.xml").read_text()
    assert project.url in junit
    for key in ("publishable_key", "secret_key"):
        assert project.status[key] not in junit + outputs[2].stdout + outputs[2].stderr
    ids = [line.split(",")[0] for line in (tmp_path / "dogs.csv").read_text().splitlines()[1:]]
    visible = httpx.get(f"{project.rest_url}/dog_profile?select=id&order=id",
                        headers=project.headers(key=project.status["publishable_key"]))
    assert ids == [str(row["id"]) for row in visible.json()] and ids
    assert json.loads(outputs[5].stdout)["email"] == "alice@example.com"


def one_query(line):
    """A project choice, then one statement against it."""
    query = "'from dog_profile select name'"
    return f" -c {query}" if line.startswith("snm ") else f" && snm -c {query}"


def smoke_tests(tmp_path, project):
    shutil.copytree(ROOT / "scripts" / "smoke", tmp_path / "tests")
    (tmp_path / "scripts").mkdir()
    shutil.copytree(ROOT / "scripts" / "smoke", tmp_path / "scripts" / "smoke")
    (tmp_path / "build").mkdir()


def profile(tmp_path, project):
    config = tmp_path / "config" / "snm"
    config.mkdir(parents=True)
    (config / "config.json").write_text(json.dumps(
        {"profiles": {"prod": {"url": project.url,
                               "publishable_key": project.status["publishable_key"]}}}))
    (config / "config.json").chmod(0o600)


def fresh_machine(text, env, tmp_path, project):
    """The first block names the two commands a fresh machine needs; both exist and start with
    scripts/install, and scripts/run hands its arguments to snm."""
    commands = [strip_comment(line) for line in text.splitlines()]
    assert commands == ["scripts/run", "scripts/test"]
    for command in commands:
        path = ROOT / command
        assert os.access(path, os.X_OK) and "scripts/install" in path.read_text()
    result = subprocess.run([ROOT / "scripts" / "run", "-c", "from dog_profile select name"],
                            env=env, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0 and "Bori" in result.stdout, result.stderr


def service_script(text, env, tmp_path, project):
    """Statements that need the project's service key, which a CI job exports."""
    env = {**env, "SUPABASE_SERVICE_ROLE_KEY": project.status["secret_key"],
           "CI_PASSWORD": "ci-walks-the-dog"}
    script(text, env, tmp_path)


def swift_chain(text, env, tmp_path, project):
    """The builder chain the README shows is the one `snm explain` prints for that statement, and
    each accessor it lists exists."""
    result = run_snm("explain", 'from user_info update {"name": "Lee"} where id eq '
                     "0c8e5f7a-6b9d-4f1e-9a3b-2d4c6e8f0a1b", env=env)
    assert result.returncode == 0, result.stderr
    for part in ("remoteDBManager.updateData()", '.setTable("user_info")',
                 '.setBody(["name": "Lee"])', '.setQuery(.equal("id", '):
        assert part in text and part in result.stdout, part
    sources = "".join(p.read_text() for p in (ROOT / "Sources" / "SNMSupabase").rglob("*.swift"))
    for name in re.findall(r"^request\.(\w+)", text, re.M):
        assert re.search(rf"(func|var) {name}\b", sources), name


def local_usage(text, env, tmp_path, project):
    """`snm local` takes every subcommand and option the synopsis names, and `status --json`
    prints every key it lists."""
    usage = run_snm("local", "--help").stdout
    for word in set(re.findall(r"--[a-z-]+|(?<=snm local )[a-z]+", text)):
        assert word in usage, word
    status = json.loads(run_snm("local", "status", "--dir", project.data_dir, "--json").stdout)
    for key in ("url", "data_dir", "cluster_dir", "db_url", "running", "publishable_key",
                "secret_key", "anon_key", "service_role_key"):
        assert key in status, key


def project_folder(text, env, tmp_path, project):
    """The block runs in bash from a folder holding my-app/, laid out as the Supabase CLI lays it
    out (config.toml on a free port with max_rows, a migration using uuid_generate_v4(), a seed);
    then the project serves that folder: its status names it, the seed is there once (after the
    reset too) and max_rows caps a read."""
    from conftest import free_port
    app = tmp_path / "my-app"
    (app / "supabase" / "migrations").mkdir(parents=True)
    port = free_port()
    (app / "supabase" / "config.toml").write_text(
        f'project_id = "my-app"\n[api]\nport = {port}\nmax_rows = 2\n[studio]\nenabled = true\n')
    (app / "supabase" / "migrations" / "20240101000000_todos.sql").write_text(
        "create table todos (id uuid primary key default uuid_generate_v4(), task text);\n")
    (app / "supabase" / "seed.sql").write_text(
        "insert into todos (task) values ('walk'), ('feed'), ('brush');\n")
    env = {**env, "XDG_DATA_HOME": str(tmp_path / "data")}
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "snm").symlink_to(SNM)
    env["PATH"] = f"{bin_dir}:{env['PATH']}"
    script_text = "\n".join(strip_comment(line) for line in text.splitlines())
    result = subprocess.run(["bash", "-c", "set -eo pipefail\n" + script_text], env=env,
                            cwd=tmp_path, capture_output=True, text=True, timeout=600)
    try:
        assert result.returncode == 0, result.stdout + result.stderr
        assert f"  project folder    {app}\n" in result.stdout
        assert "  5: [studio]" in result.stderr
        status = json.loads(run_snm("local", "status", "--project", str(app), "--json",
                                    env=env).stdout)
        assert status["url"] == f"http://127.0.0.1:{port}"
        key = {"apikey": status["anon_key"], "Prefer": "count=exact"}
        rows = httpx.get(status["url"] + "/rest/v1/todos?select=task", headers=key)
        assert rows.headers["content-range"] == "0-1/3" and len(rows.json()) == 2
    finally:
        run_snm("local", "destroy", "--yes", "--project", str(app), env=env, timeout=120)


def scripts_test_usage(text, env, tmp_path, project):
    """scripts/test takes the options shown (it is not run from inside itself), and so does
    scripts/fuzz."""
    test_script = (ROOT / "scripts" / "test").read_text()
    for option in ("--long", "--only", "fuzz", "e2e"):
        assert option in test_script
    assert "run)" in (ROOT / "scripts" / "fuzz").read_text()


def hosted_ca(text, env, tmp_path, project):
    """A private CA needs a TLS front: test_tls_front.py runs --cacert and SSL_CERT_FILE against
    nginx with a CA of its own; here the option and the variable must still be snm's."""
    assert "--cacert" in run_snm("--help").stdout
    assert "SSL_CERT_FILE" in run_snm("--help").stdout
    assert "SSL_CERT_FILE" in (ROOT / "Tests" / "EndToEnd" / "test_tls_front.py").read_text()


URL = ("https://abcd.supabase.co", lambda project: project.url)
BLOCKS = {  # the block's first line, as written -> how it runs
    "scripts/run     # on a fresh machine": fresh_machine,
    "snm local status                     # exit 3": first_hour,
    "snm anon@local> login email 'alice@example.com' password 'password123'": transcript,
    "snm anon@local> tables": transcript,
    "echo 'from user_info select *' | snm --format json": shell_block(
        [("/etc/bash_completion.d/snm", lambda project: "snm.bash")]),
    'snm --url https://abcd.supabase.co --key "$SUPABASE_PUBLISHABLE_KEY"': shell_block(
        [URL, ("sb_publishable_...", lambda project: project.status["publishable_key"])],
        setup=profile, each_line=one_query),
    "snm --cacert /etc/ssl/private/company-ca.pem": hosted_ca,
    "snm anon@local> login                                  # a new anonymous user": transcript,
    "login email 'alice@example.com' password 'password123'": script,
    "snm explain 'from user_info select * where age >= 3'": shell_block(
        [("'...'", lambda project: "'from user_info select * where age >= 3'")]),
    "script.snm:3:16: error:": parse_error,
    "run _lib/login.snm": script,
    "smoke/pair.snm:12:1: error: expectation failed": expectation_failure,
    "snm test scripts/smoke": shell_block(setup=smoke_tests, service_key=True),
    "# A CI script: its own user and rows": service_script,
    "# A CI user made with the service key": service_script,
    "snm test --shard 1/2 --report json=shard-1.json tests/": shell_block(
        setup=smoke_tests, service_key=True),
    "export SUPABASE_URL=... SUPABASE_ANON_KEY=...": shell_block(
        [("SUPABASE_URL=...", lambda project: f"SUPABASE_URL={project.url}"),
         ("SUPABASE_ANON_KEY=...", lambda project: f"SUPABASE_ANON_KEY={project.anon_key}"),
         ("SUPABASE_SERVICE_ROLE_KEY=...",
          lambda project: f"SUPABASE_SERVICE_ROLE_KEY={project.status['secret_key']}")],
        setup=smoke_tests),
    "let request = try remoteDBManager.updateData()": swift_chain,
    "mkdir -p Sources/DB": shell_block([URL], service_key=True),
    "snm local start [--project DIR]": local_usage,
    "cd my-app                      # holds supabase/": project_folder,
    "scripts/test --long": scripts_test_usage,
}


def runner_for(text):
    first = text.splitlines()[0]
    matches = [key for key in BLOCKS if first.startswith(key)]
    return BLOCKS[max(matches, key=len)] if matches else None


def test_every_readme_block_is_run_by_this_file():
    unknown = [(line, text.splitlines()[0]) for line, _, text in blocks() if not runner_for(text)]
    assert not unknown, f"README blocks no test runs (add them to BLOCKS): {unknown}"
    assert len(blocks()) >= 15


# Blocks that sign in as a script or CI job does, run again against a project with hosted
# projects' Auth defaults (e-mail confirmation on, anonymous sign-ins off), each twice.
HOSTED_RUNNERS = ("snm anon@local> login email 'alice@example.com' password 'password123'",
                  "snm anon@local> tables",
                  "login email 'alice@example.com' password 'password123'", "run _lib/login.snm",
                  "# A CI script: its own user and rows", "# A CI user made with the service key",
                  "snm test scripts/smoke", "export SUPABASE_URL=... SUPABASE_ANON_KEY=...")
HOSTED_BLOCKS = [b for b in blocks() if b[2].splitlines()[0].startswith(HOSTED_RUNNERS)]


def test_the_hosted_style_runs_cover_every_sign_in_block():
    for first_line in HOSTED_RUNNERS:
        assert any(text.startswith(first_line) for _, _, text in HOSTED_BLOCKS), first_line


@pytest.mark.parametrize("line,info,text", HOSTED_BLOCKS,
                         ids=[f"line{b[0]}" for b in HOSTED_BLOCKS])
def test_readme_block_runs_twice_on_a_hosted_style_project(line, info, text,
                                                           hosted_style_project, tmp_path):
    run = runner_for(text)
    for attempt in ("first", "second"):
        folder = tmp_path / attempt
        folder.mkdir()
        env = {**os.environ, "SUPABASE_URL": hosted_style_project.url,
               "SUPABASE_ANON_KEY": hosted_style_project.anon_key,
               "XDG_STATE_HOME": str(folder / "state"), "XDG_CACHE_HOME": str(folder / "cache"),
               "XDG_CONFIG_HOME": str(folder / "config"), "PAGER": "cat", "NO_COLOR": "1",
               "BOB_PASSWORD": PASSWORD}
        if run.__code__.co_argcount == 4:
            run(text, env, folder, hosted_style_project)
        else:
            run(text, env, folder)


@pytest.mark.parametrize("line,info,text", blocks(), ids=[f"line{b[0]}" for b in blocks()])
def test_readme_block_runs(line, info, text, project, env, tmp_path):
    run = runner_for(text)
    assert run, f"README line {line}: no runner"
    if run.__code__.co_argcount == 4:
        run(text, env, tmp_path, project)
    else:
        run(text, env, tmp_path)
