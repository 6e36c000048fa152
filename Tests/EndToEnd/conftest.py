"""Shared fixtures for the end-to-end tests: the built snm binary and a running local project.

scripts/test sets SNM_BIN (the release binary) and SNM_TEST_WORKDIR (scratch space under .build).
Every test here runs the real binary; a test that needs a server uses the `project` fixture, which
starts one local project (real Postgres + snm's gateways) for the whole session and stops it after.

Each run works in a folder of its own, WORKDIR = SNM_TEST_WORKDIR/run-<pytest's pid>: its projects,
its XDG_DATA_HOME (snm's registry of projects and the default project) and its SNM_CLUSTERS_DIR
(the clusters snm as root keeps outside their folders), so a run never reads, lists, prunes or
resets the machine's projects or another run's; the machine's own records of projects are covered
for the run by empty folders of its own (run_folder.py, docs/testing.md).
"""
import json
import os
import pathlib
import subprocess

import pytest

from run_folder import RunFolder

ROOT = pathlib.Path(__file__).resolve().parents[2]
# The project and keys of the environment the suite runs in are never inherited: each test names
# its own (a client key's variable set but empty beside a server key's is refused by snm, so tests
# leave the variables they do not use unset rather than empty).
for _name in ("SUPABASE_URL", "SUPABASE_ANON_KEY", "SUPABASE_PUBLISHABLE_KEY", "SUPABASE_SECRET_KEY",
              "SUPABASE_SERVICE_ROLE_KEY", "SNM_PROFILE"):
    os.environ.pop(_name, None)

SNM = os.environ.get("SNM_BIN") or str(ROOT / ".build" / "release" / "snm")
RUNS = pathlib.Path(os.environ.get("SNM_TEST_WORKDIR") or ROOT / ".build" / "e2e")
RUN = RunFolder(RUNS, SNM)
WORKDIR = RUN.path
LONG = os.environ.get("SNM_TEST_LONG") == "1"


def run_snm(*args, input=None, env=None, timeout=60, check=False, cwd=None):
    """Runs the snm binary; returns the CompletedProcess with text stdout/stderr."""
    full_env = dict(os.environ)
    full_env.update(env or {})
    return subprocess.run(
        [SNM, *args], input=input, capture_output=True, text=True, env=full_env,
        timeout=timeout, check=check, cwd=cwd)


@pytest.fixture(scope="session", autouse=True)
def suite_xdg(tmp_path_factory):
    """The suite's own config, cache and state folders, never the machine's, for what lives as
    long as the session: the projects the session fixtures start run with these. Each test gets
    folders of its own on top (`isolated_xdg`)."""
    base = tmp_path_factory.mktemp("xdg")
    saved = {name: os.environ.get(name) for name in XDG_FOLDERS}
    for name in XDG_FOLDERS:
        os.environ[name] = str(base / name.lower())
    yield base
    for name, value in saved.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value


@pytest.fixture(autouse=True)
def isolated_xdg(suite_xdg, tmp_path_factory, monkeypatch):
    """Every test's own config, cache and state folders: a schema cache, a session, history or a
    profile left by an earlier test (or by runs on this machine) never changes what a test sees.
    Everything a test spawns with the environment inherits them (run_snm, subprocess, pexpect,
    tmux: each TmuxShell is a server of its own started with this environment). Tests that need
    HOME as well take the `home` fixture on top."""
    base = tmp_path_factory.mktemp("xdg-test")
    for name in XDG_FOLDERS:
        monkeypatch.setenv(name, str(base / name.lower()))
    return base


XDG_FOLDERS = ("XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME")


@pytest.fixture(scope="session")
def snm_bin():
    assert os.access(SNM, os.X_OK), f"snm binary not built at {SNM}"
    return SNM


@pytest.fixture
def home(tmp_path):
    """A user's own XDG state, config and cache folders (and HOME) for one test: sessions,
    history and profiles never leak between tests. Pass as `env=home` to run_snm."""
    return {"XDG_STATE_HOME": str(tmp_path / "state"), "XDG_CONFIG_HOME": str(tmp_path / "config"),
            "XDG_CACHE_HOME": str(tmp_path / "cache"), "HOME": str(tmp_path), "NO_COLOR": "1"}


@pytest.fixture(scope="session")
def workdir():
    WORKDIR.mkdir(parents=True, exist_ok=True)
    return WORKDIR


# ---- the local project -------------------------------------------------------------------------

import socket as _socket


def free_port(taken=()):
    """A TCP port in the tests' range 54330-54999 that nothing listens on now and that is not in
    `taken`. The range holds every project a whole run keeps alive at once with room to spare:
    70 ports (54330-54399) ran out in a fresh clone's CI run once the suite kept 30 projects and
    their TLS fronts alive, and TLSFront, wanting 8 ports while 7 were free, looped for ever."""
    import random
    ports = [port for port in range(54330, 55000) if port not in taken]
    random.shuffle(ports)
    for port in ports:
        with _socket.socket() as probe:
            probe.setsockopt(_socket.SOL_SOCKET, _socket.SO_REUSEADDR, 1)
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError(f"no free port in 54330-54999 (besides {len(taken)} taken)")


class LocalProject:
    """A running `snm local` project: url, keys, data dir; `stop()` ends it."""

    def __init__(self, data_dir, port, status):
        self.data_dir = str(data_dir)
        self.port = port
        self.url = status["url"]
        self.anon_key = status["anon_key"]
        self.service_role_key = status["service_role_key"]
        self.status = status

    @property
    def rest_url(self):
        return self.url + "/rest/v1"

    @property
    def auth_url(self):
        return self.url + "/auth/v1"

    def headers(self, key=None, token=None):
        """apikey + Authorization headers as supabase clients send them."""
        key = key or self.anon_key
        return {"apikey": key, "Authorization": f"Bearer {token or key}"}

    def stop(self):
        run_snm("local", "stop", "--dir", self.data_dir, timeout=60)

    @property
    def socket_dir(self):
        """The folder of the cluster's unix socket (port 5432 there)."""
        import hashlib
        cluster_dir = self.status["cluster_dir"]
        socket_dir = cluster_dir + "/run"
        if len(socket_dir) + len("/.s.PGSQL.5432") > 100:  # SNMLocal's ClusterLayout rule
            socket_dir = "/tmp/snm-" + hashlib.sha256(cluster_dir.encode()).hexdigest()[:16]
        return socket_dir

    def sql(self, query):
        """Runs `query` with psql as the cluster's superuser over its unix socket; returns the
        unaligned output."""
        result = subprocess.run(
            ["psql", "-h", self.socket_dir, "-p", "5432", "-U", "postgres", "-d", "postgres", "-At",
             "-c", query], capture_output=True, text=True, timeout=60)
        assert result.returncode == 0, result.stderr
        return result.stdout.strip()


# The suite signs in far more often than GoTrue's per-IP limits allow one address (every client here
# is 127.0.0.1), so its projects run without them; test_security_auth tests the limits themselves.
NO_AUTH_RATE_LIMITS = ("--auth-rate-limit", "token_refresh=0", "--auth-rate-limit",
                       "sign_in_sign_ups=0", "--auth-rate-limit", "anonymous_users=0",
                       "--auth-rate-limit", "token_verifications=0")


def start_project(name, *flags, env=None, fresh=True, auth_rate_limits=False):
    """Starts a project in SNM_TEST_WORKDIR/projects/NAME on a free port; returns LocalProject.

    fresh=True resets the data first (a known seed); extra flags go to `snm local start`;
    auth_rate_limits=True keeps GoTrue's default rate limits (off otherwise).
    """
    if not auth_rate_limits:
        flags = NO_AUTH_RATE_LIMITS + flags
    data_dir = WORKDIR / "projects" / name
    data_dir.parent.mkdir(parents=True, exist_ok=True)
    command = "reset" if fresh and (data_dir / "project.json").exists() else "start"
    if command == "reset":
        run_snm("local", "stop", "--dir", str(data_dir), timeout=60)
    for _attempt in range(3):  # another test run may take the port between the check and the start
        port = free_port()
        result = run_snm(
            "local", command, "--dir", str(data_dir), "--port", str(port), *flags, "--json",
            env=env, timeout=180)
        if "already in use" not in result.stderr:
            break
    assert result.returncode == 0, f"snm local {command} failed: {result.stderr}"
    status = json.loads(result.stdout)
    assert status["running"] is True, f"project not running after {command}: {status}"
    return LocalProject(data_dir, port, status)


def start_on_port(data_dir, port):
    """A fresh local project in data_dir on `port`, which another project may have served before
    (start_project picks a free port); returns LocalProject."""
    run_snm("local", "destroy", "--dir", str(data_dir), "--yes", timeout=120)
    result = run_snm("local", "start", "--dir", str(data_dir), "--port", str(port), "--json",
                     timeout=180)
    assert result.returncode == 0, result.stderr
    return LocalProject(data_dir, port, json.loads(result.stdout))


@pytest.fixture(scope="session")
def project(snm_bin, workdir):
    """One local project (demo schema and seed) for the whole session."""
    handle = start_project("session")
    yield handle
    handle.stop()


@pytest.fixture(scope="session")
def start_extra_project(snm_bin, workdir):
    """Starts more projects with other flags: start_extra_project("name", "--jwt-expiry", "2")."""
    started = []

    def start(name, *flags, env=None, auth_rate_limits=False):
        handle = start_project(name, *flags, env=env, auth_rate_limits=auth_rate_limits)
        started.append(handle)
        return handle

    yield start
    for handle in started:
        handle.stop()


@pytest.fixture(scope="session")
def confirming(start_extra_project):
    """A project where new users confirm their e-mail first (`--confirm-email`)."""
    return start_extra_project("auth-confirming", "--confirm-email")


@pytest.fixture(scope="session")
def hosted_style_project(start_extra_project):
    """A project with hosted projects' Auth defaults: new users confirm their e-mail first, and
    anonymous sign-ins are off (`--confirm-email --no-anonymous`)."""
    return start_extra_project("hosted-style", "--confirm-email", "--no-anonymous")


REST_MIGRATIONS = pathlib.Path(__file__).resolve().parent / "fixtures" / "rest_migrations"


@pytest.fixture(scope="session")
def rest_project(start_extra_project):
    """A project with the REST gateway's own schema (fixtures/rest_migrations), for test_rest_*."""
    return start_extra_project("rest", "--migrations", str(REST_MIGRATIONS))


# ---- projects left running --------------------------------------------------------------------

def run_of(pid):
    """The run folder (SNM_E2E_RUN) in process `pid`'s environment: "" when it has none, None when
    the process is gone."""
    try:
        with open(f"/proc/{pid}/environ", "rb") as file:
            variables = file.read().split(b"\0")
    except OSError:
        return None
    for variable in variables:
        if variable.startswith(b"SNM_E2E_RUN="):
            return variable[len(b"SNM_E2E_RUN="):].decode(errors="replace")
    return ""


def serving_projects():
    """The local projects this run serves now: {data dir: port}, from the `snm local serve --dir
    DIR --port N` processes of this run's snm whose environment names this run (SNM_E2E_RUN, which
    every process the run starts inherits) or no run at all (started with an environment of a
    test's own making). Other worktrees' runs use other binaries, and another run of this worktree
    names its own folder: neither is counted."""
    binary = os.path.realpath(SNM)
    found = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as file:
                args = [arg.decode(errors="replace") for arg in file.read().split(b"\0")]
        except OSError:
            continue
        if len(args) < 3 or args[1:3] != ["local", "serve"]:
            continue
        if os.path.realpath(args[0]) != binary or run_of(entry) not in ("", str(WORKDIR)):
            continue
        options = dict(zip(args[3:], args[4:]))
        found[options.get("--dir", "?")] = options.get("--port", "?")
    return found


RUNNING_AT_START = {}
# The test after which each project not running at the start was first seen running.
FIRST_SEEN = {}


def pytest_sessionstart(session):
    """Gives the run its own folder (WORKDIR) and points snm's data home and clusters folder at it
    for everything the run starts, the machine's records of projects covered by empty folders of
    the run's (run_folder.py)."""
    watched = RUN.enter()
    if watched:
        print(f"\n{watched}")
    RUNNING_AT_START.update(serving_projects())


@pytest.fixture(autouse=True)
def projects_left_running(request):
    """Notes which test a project was first seen running after (for the session's check)."""
    yield
    for data_dir in serving_projects():
        if data_dir not in RUNNING_AT_START:
            FIRST_SEEN.setdefault(data_dir, request.node.nodeid)


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session, exitstatus):
    """Fails the run when a local project is running at its end that was not at its start (the
    session's fixtures stopped theirs before this): a test started it and left it, on the
    machine's default port 54321 perhaps. Each is named with the test after which it was first
    seen, then stopped. Fails it too when a test wrote where the machine keeps its records of
    projects (run_folder.MachineRecords): a run keeps to its folder. Then deletes the run's
    folder, or keeps it when the run failed (to be looked at; the next run deletes it)."""
    import time
    left = {}
    for _ in range(10):  # a project stopping now may take a moment to go
        left = {d: p for d, p in serving_projects().items() if d not in RUNNING_AT_START}
        if not left:
            break
        time.sleep(0.5)
    if left:
        lines = ["local projects left running by this run (a test must stop what it starts):"]
        for data_dir, port in sorted(left.items()):
            seen = FIRST_SEEN.get(data_dir, "the session's end (no test)")
            lines.append(f"  {data_dir} (port {port}), first seen running after {seen}")
            run_snm("local", "stop", "--dir", data_dir, timeout=60)
        fail_run(session, "projects left running", lines)
    moved = {name: (value, os.environ.get(name)) for name, value in RUN.environment().items()
             if os.environ.get(name) != value}
    if moved:
        fail_run(session, "the run's folder left", [
            "a test moved this process's environment away from the run's folder (a second run "
            "folder entered here?):", *(f"  {name}: {was!r} -> {now!r}"
                                        for name, (was, now) in sorted(moved.items()))])
    written = RUN.machine.written() if RUN.machine else []
    if written:
        fail_run(session, "the machine's projects written", [
            "this run wrote where the machine keeps its local projects (a test's snm must use "
            "the run's XDG_DATA_HOME and SNM_CLUSTERS_DIR):", *written])
    kept = RUN.leave(passed=session.exitstatus in (0, pytest.ExitCode.NO_TESTS_COLLECTED))
    if kept:
        print(f"\n{kept}")


def fail_run(session, title, lines):
    """Says `lines` under `title` at the run's end and fails the run."""
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.section(title, sep="=", red=True, bold=True)
        for line in lines:
            reporter.write_line(line)
    else:
        print("\n".join(lines))
    session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter):
    """The fidelity suite's counts per suite and area (test_rest_fidelity.py): passed, pending
    (an expected failure still failing), failed (including a pending case that now passes)."""
    counts = {}
    for outcome, column in (("passed", 0), ("xfailed", 1), ("failed", 2), ("error", 2)):
        for report in terminalreporter.stats.get(outcome, []):
            nodeid = getattr(report, "nodeid", "")
            if "test_rest_fidelity.py::test_fidelity[" not in nodeid:
                continue
            suite, area = nodeid.split("[", 1)[1].split("/")[:2]
            row = counts.setdefault((suite, area), [0, 0, 0])
            row[column] += 1
    if not counts:
        return
    terminalreporter.section("PostgREST fidelity (passed / pending / failed)")
    total = [0, 0, 0]
    for (suite, area), row in sorted(counts.items()):
        terminalreporter.write_line(f"{suite + '/' + area:<40} {row[0]:>5} {row[1]:>5} {row[2]:>5}")
        total = [a + b for a, b in zip(total, row)]
    terminalreporter.write_line(f"{'all':<40} {total[0]:>5} {total[1]:>5} {total[2]:>5}")
