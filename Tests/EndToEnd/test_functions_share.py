"""Edge Functions under a hostile caller with the anon key: slow functions called again and
again hold at most their share of the gateway's workers (the rest are refused at once with 546
WORKER_LIMIT), so REST and Auth keep answering everyone else; and the functions' socket folder
is made only when a function is first called, inside the project's data folder, private to its
user, and removed at stop."""

import concurrent.futures
import glob
import os
import pathlib
import stat
import subprocess
import tempfile
import textwrap

import httpx
import pytest

from functions_helpers import start_from
from hardening import wait_until

# Marks its arrival with a file in `marks`, then waits until the file `gate` exists.
WAITS = """
    Deno.serve(async (req) => {
      const url = new URL(req.url);
      await Deno.writeTextFile(url.searchParams.get("marks") + "/" + crypto.randomUUID(), "");
      const gate = url.searchParams.get("gate");
      while (true) {
        try { await Deno.stat(gate); break; } catch { await new Promise((r) => setTimeout(r, 20)); }
      }
      return new Response("released");
    });
"""

# Twice the gateway's 32 workers' worth of calls would freeze it without the share.
CALLS = 40
SHARE = 8


MIGRATION = """
create table public.item (id bigint generated always as identity primary key, name text);
insert into public.item (name) values ('one');
grant select on public.item to anon;
"""


def write_waiting_functions(root):
    """Two functions that wait, and a migrations folder with a table anon may read; returns
    (root, migrations)."""
    root = pathlib.Path(root)
    migrations = root / "migrations"
    migrations.mkdir(parents=True, exist_ok=True)
    (migrations / "0001_item.sql").write_text(MIGRATION)
    for name in ("slow", "slower"):
        folder = root / "supabase" / "functions" / name
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "index.ts").write_text(textwrap.dedent(WAITS).strip() + "\n")
    return root, migrations


@pytest.fixture
def waiting_project(snm_bin, workdir, tmp_path):
    root, migrations = write_waiting_functions(tmp_path / "app")
    handle = start_from(root, "functions-share", None, "--migrations", str(migrations))
    yield handle
    handle.stop()


def function_sockets_in_tmp():
    return set(glob.glob("/tmp/snm-functions-*"))


def test_slow_functions_cannot_take_the_workers_rest_and_auth_need(waiting_project):
    project = waiting_project
    # The functions write in /tmp only (--allow-write=/tmp).
    scratch = pathlib.Path(tempfile.mkdtemp(prefix="share-", dir="/tmp"))
    marks = scratch / "marks"
    marks.mkdir()
    gate = scratch / "gate"
    refused = []

    def invoke(index):
        name = "slow" if index % 2 else "slower"
        answer = httpx.post(
            f"{project.url}/functions/v1/{name}", params={"marks": str(marks), "gate": str(gate)},
            headers=project.headers(), timeout=120)
        if answer.status_code == 546:
            refused.append(answer)
        return answer

    try:
        with concurrent.futures.ThreadPoolExecutor(CALLS) as pool:
            calls = [pool.submit(invoke, index) for index in range(CALLS)]
            # Every call has either reached its function or been refused: none waits for a worker.
            wait_until(lambda: len(list(marks.iterdir())) + len(refused) == CALLS, timeout=90,
                       what="each call to reach its function or be refused")
            assert len(list(marks.iterdir())) == SHARE
            for answer in refused:
                assert answer.json() == {
                    "code": "WORKER_LIMIT",
                    "message": "Worker failed to respond due to a resource limit (please check logs)"}
            # Meanwhile the project answers everyone else.
            rows = httpx.get(project.rest_url + "/item?select=name", headers=project.headers(),
                             timeout=30)
            assert rows.status_code == 200, rows.text
            assert rows.json() == [{"name": "one"}]
            health = httpx.get(project.auth_url + "/health", headers=project.headers(), timeout=30)
            assert health.status_code == 200, health.text
            # Released, the calls in flight complete.
            gate.write_text("")
            answers = [call.result(timeout=120) for call in calls]
        assert sorted(answer.status_code for answer in answers) == [200] * SHARE + [546] * (CALLS - SHARE)
        assert all(answer.text == "released" for answer in answers if answer.status_code == 200)
        # The share is free again.
        again = httpx.post(f"{project.url}/functions/v1/slow",
                           params={"marks": str(marks), "gate": str(gate)},
                           headers=project.headers(), timeout=60)
        assert again.status_code == 200 and again.text == "released"
    finally:
        gate.write_text("")


def test_a_project_serving_only_rest_makes_no_folder_for_function_sockets(
        snm_bin, workdir, tmp_path):
    root, migrations = write_waiting_functions(tmp_path / "app")
    before = function_sockets_in_tmp()
    project = start_from(root, "functions-rest-only", None, "--migrations", str(migrations))
    sockets = pathlib.Path(project.data_dir) / "functions" / "run"
    try:
        rows = httpx.get(project.rest_url + "/item?select=name", headers=project.headers(),
                         timeout=30)
        assert rows.status_code == 200, rows.text
        appeared = function_sockets_in_tmp() - before
        assert not sockets.exists()
    finally:
        project.stop()
    # Other local projects may make and keep such folders meanwhile: this project's are the
    # ones that appeared while it ran and went when it stopped.
    assert appeared - function_sockets_in_tmp() == set()


def test_the_socket_folder_is_made_at_the_first_call_in_the_project_and_private(
        snm_bin, workdir, tmp_path):
    root, migrations = write_waiting_functions(tmp_path / "app")
    before = function_sockets_in_tmp()
    project = start_from(root, "functions-folder", None, "--migrations", str(migrations))
    sockets = pathlib.Path(project.data_dir) / "functions" / "run"
    try:
        assert not sockets.exists()
        # The first call makes it, in the project's data folder, for the project's user only.
        scratch = pathlib.Path(tempfile.mkdtemp(prefix="folder-", dir="/tmp"))
        (scratch / "marks").mkdir()
        (scratch / "gate").write_text("")
        answer = httpx.post(f"{project.url}/functions/v1/slow",
                            params={"marks": str(scratch / "marks"), "gate": str(scratch / "gate")},
                            headers=project.headers(), timeout=60)
        assert answer.status_code == 200 and answer.text == "released"
        appeared = function_sockets_in_tmp() - before
        status = sockets.stat()
        assert stat.S_ISDIR(status.st_mode)
        assert stat.S_IMODE(status.st_mode) == 0o700
        assert status.st_uid == os.geteuid()
        assert [path.suffix for path in sockets.iterdir()] == [".sock"]
        if os.geteuid() == 0:
            # Another local user cannot list it (nor reach the sockets in it).
            other = subprocess.run(["/bin/ls", str(sockets)], user=65534, group=65534,
                                   extra_groups=[], cwd="/", capture_output=True, text=True)
            assert other.returncode != 0
            assert "Permission denied" in other.stderr
    finally:
        project.stop()
    # Removed at stop, and none was made in /tmp (see the test above for other projects').
    assert not sockets.exists()
    assert appeared - function_sockets_in_tmp() == set()
