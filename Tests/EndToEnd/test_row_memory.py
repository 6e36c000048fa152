"""Rows printed as csv, json or ndjson to a pipe or a file take constant memory (issue 41,
"Memory"): past 2 MiB the answer goes on in a temporary file (0600 in $TMPDIR, with no name there),
checked as it comes, and the rows are printed from it only once the answer is whole and valid, so
an answer cut off prints nothing. A million rows (a 110 MB answer) peaked at 287 MiB as ndjson,
which the 256 MiB answer limit refused (exit 3); the bound here is 32 MiB.

Each test measures snm's peak resident memory from its own rusage (GNU time's %M), never time.
A spill that cannot be written (a file size limit, a full disk, no such folder) fails the statement (exit 1)
with the folder and the reason, and prints no row; Ctrl-C while the answer spills exits 130 and
leaves nothing.

Every test runs twice: over http:// (the local project, snm's own HTTP/1.1 transport) and over
https:// (the hosted path: libcurl, TLS and HTTP/2 through nginx in front of the same project,
tls_front.py), under the same 32 MiB. Over https:// the answer was held whole in memory: a million
rows peaked at 171 MiB in each format; spilled, at about 36 MiB, 10 rows already at 34.5: the TLS
stack (libcurl, OpenSSL, nghttp2 and what they load) keeps about 10 MiB resident, as much for 10
rows as for a million, and `curl -o /dev/null` itself peaks at about 12 MiB for the same answer.
What brought both under the bound is the binary's layout (Package.swift, scripts/link-order): the
code that starts snm and prints rows placed together, and its relocations packed.
"""
import json
import os
import re
import resource
import signal
import subprocess
import tempfile
import time

import pytest

from conftest import SNM, WORKDIR
from hardening import namespaces_work, wait_for_all_rows, wait_until
from tls_front import TLSFront

ROWS = 1_000_000
# The target, for a release build (a debug build takes 35 MiB for 10 rows).
BOUND_KIB = 32 * 1024
# What a million rows may take beyond 10 rows (the spill's 2 MiB and the pages being printed).
GROWTH_KIB = 8 * 1024
RELEASE = "/debug/" not in SNM
# A row past the 2 MiB spill bound (about 110 bytes a row): its computed column fails there.
FAILING_ROW = 600_000


@pytest.fixture(scope="module")
def million(start_extra_project):
    project = start_extra_project("rowmemory")
    project.sql(
        "create table public.walk_log (id bigint primary key, owner uuid not null, "
        "message text, score numeric, tags jsonb); "
        "grant select on public.walk_log to anon, authenticated, service_role; "
        "insert into public.walk_log select g, '0c8e5f7a-6b9d-4f1e-9a3b-2d4c6e8f0a1b', "
        "case when g % 10 = 0 then '산책 ' || g || ' 🐕' else 'walk \"' || g || '\", park' end, "
        "g % 1000 / 10.0, case when g % 3 = 0 then null else '{\"k\": [1, 2]}'::jsonb end "
        f"from generate_series(1, {ROWS}) g; "
        # Postgres calls it row by row after the sort: the answer is cut at that row.
        "create function public.checked(public.walk_log) returns int language plpgsql stable "
        f"as $$ begin return case when $1.id = {FAILING_ROW} then cast('row ' || $1.id as int) "
        "else 1 end; end $$; "
        "alter role authenticator set pgrst.db_max_rows = '1000000'; "
        "notify pgrst, 'reload schema'")
    wait_for_all_rows(project, "walk_log")
    return project


@pytest.fixture(scope="module")
def front(million):
    """The TLS and HTTP/2 front hosted projects sit behind (nginx), before the same project."""
    handle = TLSFront(WORKDIR / "tls-front-rowmemory", upstream_port=million.port)
    yield handle
    handle.stop()


@pytest.fixture(params=["http", "https"])
def reach(request, million):
    """How snm reaches the project: itself (http://), or through the front (https://, its test
    CA trusted through SSL_CERT_FILE); the environment's entries for it."""
    if request.param == "http":
        return {"SUPABASE_URL": million.url}
    front = request.getfixturevalue("front")
    return {"SUPABASE_URL": front.url("main"), "SSL_CERT_FILE": front.ca}


def assert_over_http2(reach, request):
    """Over https://, the last request for walk_log reached the front as HTTP/2 and was answered
    200 (curl offers h2 by ALPN, nginx takes it)."""
    if not reach["SUPABASE_URL"].startswith("https://"):
        return
    front = request.getfixturevalue("front")
    [*_, line] = [line for line in front.log("main") if "/rest/v1/walk_log" in line]
    assert " HTTP/2.0 " in line and '" 200 ' in line, line


def env_of(project, tmp_path, **more):
    env = dict(os.environ)
    env.update({"SUPABASE_URL": project.url,
                "SUPABASE_SECRET_KEY": project.service_role_key, "NO_COLOR": "1",
                "XDG_STATE_HOME": str(tmp_path / "state"),
                "XDG_CACHE_HOME": str(tmp_path / "cache"),
                "XDG_CONFIG_HOME": str(tmp_path / "config"), "TMPDIR": str(tmp_path / "spill")})
    env.update(more)
    (tmp_path / "spill").mkdir(exist_ok=True)
    return env


def assert_constant(kib, env, what):
    """`kib` is at most GROWTH_KIB over 10 rows' peak, and under the target in a release build,
    over https:// as over http://."""
    code, stderr, few = run_measured(
        ["--format", "ndjson", "-c", "from walk_log select * order by id limit 10"], env,
        subprocess.DEVNULL)
    assert code == 0, stderr
    assert kib < few + GROWTH_KIB, (
        f"{what} peaked at {kib // 1024} MiB, 10 rows at {few // 1024} MiB")
    if RELEASE:
        assert kib < BOUND_KIB, (
            f"{what} peaked at {kib / 1024:.1f} MiB (bound {BOUND_KIB // 1024} MiB)")


def run_measured(args, env, stdout, file_limit=None, cwd=None):
    """Runs snm under GNU time with stdout to `stdout` (a file); returns (exit code, stderr,
    peak RSS in KiB). Not getrusage from here: a child forked from pytest starts with pytest's
    resident pages, and its ru_maxrss counts them; GNU time's child is snm alone."""

    def limit_files():
        if file_limit is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (file_limit, file_limit))

    with tempfile.NamedTemporaryFile("r", suffix=".rss") as peak:
        result = subprocess.run(
            ["/usr/bin/time", "-q", "-f", "%M", "-o", peak.name, SNM, *args],
            stdin=subprocess.DEVNULL, stdout=stdout, stderr=subprocess.PIPE, env=env,
            timeout=900, preexec_fn=limit_files, cwd=cwd)
        kib = int(peak.read().split()[-1])
    return result.returncode, result.stderr.decode(), kib


@pytest.mark.parametrize("fmt", ["ndjson", "csv", "json"])
def test_a_million_rows_print_in_constant_memory(million, tmp_path, fmt, reach, request):
    out = tmp_path / f"rows.{fmt}"
    env = env_of(million, tmp_path, **reach)
    with open(out, "wb") as stdout:
        code, stderr, kib = run_measured(
            ["--format", fmt, "-c", "from walk_log select * order by id"], env, stdout)
    assert code == 0, stderr
    assert_over_http2(reach, request)
    if fmt == "json":
        rows = json.loads(out.read_bytes())
        assert (len(rows), rows[-1]["id"]) == (ROWS, ROWS)
    else:
        with open(out, "rb") as printed:
            assert sum(1 for _ in printed) == {"ndjson": ROWS, "csv": ROWS + 1}[fmt]
    # The rows are printed as a small answer's are: the first thousand, byte for byte.
    small = subprocess.run(
        [SNM, "--format", fmt, "-c", "from walk_log select * order by id limit 1000"],
        capture_output=True, env=env, timeout=120)
    assert small.returncode == 0, small.stderr
    expected = small.stdout
    if fmt == "json":
        assert expected.endswith(b"\n]\n")
        expected = expected[:-3]  # the array goes on after the thousandth row
    with open(out, "rb") as printed:
        assert printed.read(len(expected)) == expected
    assert_constant(kib, env, f"{ROWS:,} rows as {fmt}")
    assert os.listdir(tmp_path / "spill") == [], "the answer's file was left in TMPDIR"


def test_a_million_rows_written_to_a_file_take_constant_memory(million, tmp_path, reach):
    env = env_of(million, tmp_path, **reach)
    code, stderr, kib = run_measured(
        ["-c", "from walk_log select id, message order by id > 'walks.ndjson'"], env,
        subprocess.DEVNULL, cwd=tmp_path)
    assert code == 0, stderr
    with open(tmp_path / "walks.ndjson", "rb") as written:
        assert sum(1 for _ in written) == ROWS
    assert_constant(kib, env, f"{ROWS:,} rows to a file")


def test_an_answer_cut_off_after_the_spill_bound_prints_nothing(million, tmp_path, reach):
    env = env_of(million, tmp_path, **reach)
    with open(tmp_path / "out", "wb") as stdout:
        code, stderr, kib = run_measured(
            ["--format", "ndjson", "-c", "from walk_log select id, message, checked order by id"],
            env, stdout)
    assert code == 3, stderr
    assert (tmp_path / "out").read_bytes() == b"", "part of a cut answer was printed"
    assert "the answer was cut off" in stderr, stderr
    assert os.listdir(tmp_path / "spill") == []
    assert_constant(kib, env, "a cut answer")


def test_a_spill_past_a_file_size_limit_fails_and_prints_nothing(million, tmp_path, reach):
    env = env_of(million, tmp_path, **reach)
    result_out = tmp_path / "out"
    # A pipe for stdout: the limit is for files (the spill), not for what snm prints.
    process = subprocess.run(
        [SNM, "--format", "csv", "-c", "from walk_log select * order by id"],
        stdin=subprocess.DEVNULL, capture_output=True, env=env, timeout=600,
        preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (8 << 20, 8 << 20)))
    assert process.returncode == 1, process.stderr
    assert process.stdout == b""
    stderr = process.stderr.decode()
    assert (f"cannot write the answer to a temporary file in '{tmp_path / 'spill'}': "
            "File too large (TMPDIR chooses the folder)") in stderr, stderr
    assert not result_out.exists()
    assert os.listdir(tmp_path / "spill") == []


def test_a_spill_to_a_missing_folder_fails_and_prints_nothing(million, tmp_path, reach):
    missing = tmp_path / "no-such-folder"
    env = env_of(million, tmp_path, **{**reach, "TMPDIR": str(missing)})
    process = subprocess.run(
        [SNM, "--format", "json", "-c", "from walk_log select * order by id"],
        stdin=subprocess.DEVNULL, capture_output=True, env=env, timeout=600)
    assert process.returncode == 1, process.stderr
    assert process.stdout == b""
    assert (f"cannot make a temporary file for the answer in '{missing}': "
            "No such file or directory (TMPDIR chooses the folder)") in process.stderr.decode()
    # Under the bound nothing is spilled: a small answer needs no folder.
    small = subprocess.run(
        [SNM, "--format", "json", "-c", "from walk_log select id order by id limit 10"],
        stdin=subprocess.DEVNULL, capture_output=True, env=env, timeout=120)
    assert small.returncode == 0 and len(json.loads(small.stdout)) == 10


# A tmpfs of 1 MiB mounted on TMPDIR in snm's own mount namespace (nothing outside sees it):
# then snm, and after it how much of the tmpfs is left used (the spill's file gone with snm).
FULL_DISK = (
    'mount -t tmpfs -o size=1m,mode=0700 tmpfs "$TMPDIR" || exit 99\n'
    '"$@"; code=$?\n'
    'echo "left in TMPDIR: $(ls -A "$TMPDIR" | wc -l) files, '
    '$(df --output=used -k "$TMPDIR" | tail -n 1 | tr -d " ") KiB" >&2\n'
    'exit $code\n')


def test_a_spill_to_a_full_disk_fails_and_prints_nothing(million, tmp_path, reach):
    if not namespaces_work():
        pytest.skip("needs root and mount namespaces (unshare -m) for a small tmpfs")
    env = env_of(million, tmp_path, **reach)
    spill = tmp_path / "spill"
    process = subprocess.run(
        ["unshare", "-m", "sh", "-c", FULL_DISK, "sh", SNM, "--format", "csv", "-c",
         "from walk_log select * order by id"],
        stdin=subprocess.DEVNULL, capture_output=True, env=env, timeout=600)
    stderr = process.stderr.decode()
    assert process.returncode == 1, stderr
    assert process.stdout == b""
    assert (f"cannot write the answer to a temporary file in '{spill}': "
            "No space left on device (TMPDIR chooses the folder)") in stderr, stderr
    assert "left in TMPDIR: 0 files, 0 KiB" in stderr, stderr


def spill_files(pid, folder):
    """What `pid` holds open in `folder` (readlink of /proc/PID/fd): the spill's file, which has
    no name there (O_TMPFILE), reads `FOLDER/#INODE (deleted)`."""
    held = []
    try:
        descriptors = os.listdir(f"/proc/{pid}/fd")
    except OSError:
        return held
    for fd in descriptors:
        try:
            target = os.readlink(f"/proc/{pid}/fd/{fd}")
        except OSError:
            continue
        if target.startswith(f"{folder}/"):
            held.append(target)
    return held


def test_ctrl_c_while_the_answer_spills_exits_130_and_leaves_nothing(million, tmp_path, reach):
    """SIGINT once the answer goes on in its file (snm holds it open, with no name): snm stops
    with 130, prints no row, and nothing is left in TMPDIR."""
    env = env_of(million, tmp_path, **reach)
    spill = tmp_path / "spill"
    with open(tmp_path / "out", "wb") as stdout:
        shell = subprocess.Popen(
            [SNM, "--format", "ndjson", "-c", "from walk_log select * order by id"],
            stdin=subprocess.DEVNULL, stdout=stdout, stderr=subprocess.PIPE, env=env)
        try:
            held = wait_until(lambda: spill_files(shell.pid, spill) or shell.poll() is not None,
                              timeout=120, interval=0.01, what="the answer to spill")
            assert shell.poll() is None, "the answer ended before it spilled"
            # Nameless from its first moment (O_TMPFILE): no look ever sees it by a name, as one
            # could between mkstemp and its unlink.
            assert len(held) == 1 and re.fullmatch(rf"{re.escape(str(spill))}/#\d+ \(deleted\)",
                                                   held[0]), held
            shell.send_signal(signal.SIGINT)
            _, err = shell.communicate(timeout=30)
        finally:
            if shell.poll() is None:
                shell.kill()
                shell.wait()
    assert shell.returncode == 130, err
    assert "interrupted" in err.decode(), err
    assert (tmp_path / "out").read_bytes() == b"", "part of an interrupted answer was printed"
    assert os.listdir(spill) == [], "the answer's file was left in TMPDIR"
