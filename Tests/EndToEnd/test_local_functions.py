"""Edge Functions in the local project (/functions/v1), judged by the official Python client
`supabase-functions` (PyPI) and plain HTTP: discovery from supabase/functions, verify_jwt as
hosted, the environment, answers of every media type, sub-paths and queries, a user's token
reaching REST under RLS, and the hosted error shapes for functions that fail, after which the
gateway keeps serving."""

import concurrent.futures
import os
import pathlib
import socket
import stat
import subprocess
import sys

import httpx
import pytest
from supabase_functions import SyncFunctionsClient
from supabase_functions.errors import FunctionsHttpError

from auth_helpers import new_email
from conftest import run_snm
from functions_helpers import start_from, write_folder
from hardening import wait_until


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return write_folder(tmp_path_factory.mktemp("app"))


@pytest.fixture(scope="module")
def served(snm_bin, workdir, folder):
    root, migrations = folder
    # A call past 8 s is a wall-clock limit (hosted: 150-400 s), so the hanging function ends soon.
    handle = start_from(
        root, "functions", {"SNM_FUNCTIONS_WALL_CLOCK": "8"}, "--migrations", str(migrations))
    yield handle
    handle.stop()


def client(project, key=None, token=None):
    key = key or project.anon_key
    headers = {"apikey": key}
    if token or key.startswith("eyJ"):
        headers["Authorization"] = f"Bearer {token or key}"
    return SyncFunctionsClient(project.url + "/functions/v1", headers)


def functions_url(project, path):
    return project.url + "/functions/v1/" + path


def assert_gateway_serves(project):
    answer = httpx.get(project.rest_url + "/note?select=id&limit=1",
                       headers=project.headers())
    assert answer.status_code == 200, answer.text
    hello = client(project).invoke("hello", {"responseType": "json"})
    assert hello["message"] == "Hello there"


def test_the_official_client_invokes_a_function_with_json(served):
    answer = client(served).invoke("hello", {"body": {"name": "Bori"}, "responseType": "json"})
    assert answer["message"] == "Hello Bori"
    assert answer["method"] == "POST"
    assert answer["path"] == "/hello"
    assert answer["contentType"] == "application/json"
    assert answer["authorization"] is True


def test_a_function_gets_the_projects_environment_and_its_env_file(served):
    env = client(served).invoke("hello", {"responseType": "json"})["env"]
    assert env["url"] == served.url
    assert env["anon"] and env["service"] and env["db"] and env["publishable"]
    assert env["greeting"] == "hi there"
    assert env["home"] is None  # HOME, PATH, PWD, HOSTNAME withheld as hosted


def test_methods_sub_paths_and_query_strings_reach_the_function(served):
    functions = client(served)
    got = functions.invoke("hello/reports/daily?day=3&x=a%20b", {"method": "GET", "responseType": "json"})
    assert (got["method"], got["path"], got["query"]) == ("GET", "/hello/reports/daily", "?day=3&x=a+b")  # the client re-encodes
    put = functions.invoke("hello/item/7", {"method": "PUT", "body": "new text", "responseType": "json"})
    assert (put["method"], put["path"], put["body"], put["contentType"]) == (
        "PUT", "/hello/item/7", "new text", "text/plain")
    deleted = functions.invoke("hello/item/7", {"method": "DELETE", "responseType": "json"})
    assert (deleted["method"], deleted["path"]) == ("DELETE", "/hello/item/7")


def test_text_and_binary_answers_come_back_as_sent(served):
    functions = client(served)
    assert functions.invoke("text") == b"plain words"
    assert functions.invoke("binary", {"body": b"\x00\x01"}) == bytes([0, 1, 2, 254, 255])
    answer = httpx.get(functions_url(served, "binary"), headers=served.headers())
    assert answer.headers["content-type"] == "application/octet-stream"


def test_an_event_stream_is_passed_on_as_the_function_writes_it(served, tmp_path):
    gate = tmp_path / "gate"
    with httpx.stream("GET", functions_url(served, "stream"), params={"gate": str(gate)},
                      headers=served.headers(), timeout=30) as answer:
        assert answer.status_code == 200
        assert answer.headers["content-type"] == "text/event-stream"
        lines = answer.iter_lines()
        assert next(lines) == "data: one"  # before the function wrote the rest
        gate.write_text("go")
        rest = [line for line in lines if line]
    assert rest == ["data: two"]
    # The client reads a whole stream as bytes.
    gate.write_text("go")
    assert client(served).invoke(f"stream?gate={gate}", {"method": "GET"}) == b"data: one\n\ndata: two\n\n"


def test_verify_jwt_refuses_calls_without_a_valid_token_as_hosted(served):
    missing = httpx.post(functions_url(served, "hello"))
    assert missing.status_code == 401
    assert missing.json() == {"msg": "Error: Missing authorization header"}
    bad = httpx.post(functions_url(served, "hello"), headers={"Authorization": "Bearer not.a.jwt"})
    assert (bad.status_code, bad.json()) == (401, {"msg": "Invalid JWT"})
    forged = served.anon_key[:-4] + ("AAAA" if not served.anon_key.endswith("AAAA") else "BBBB")
    assert httpx.post(functions_url(served, "hello"),
                      headers={"Authorization": f"Bearer {forged}"}).json() == {"msg": "Invalid JWT"}
    basic = httpx.post(functions_url(served, "hello"), headers={"Authorization": "Basic eA=="})
    assert basic.json() == {"msg": "Error: Auth header is not 'Bearer {token}'"}
    with pytest.raises(FunctionsHttpError) as refused:
        SyncFunctionsClient(served.url + "/functions/v1", {}).invoke("hello")
    assert refused.value.status == 401


def test_the_new_keys_and_a_legacy_apikey_alone_pass_verify_jwt(served):
    for key in (served.status["publishable_key"], served.status["secret_key"], served.anon_key):
        answer = httpx.post(functions_url(served, "hello"), headers={"apikey": key})
        assert answer.status_code == 200, (key[:14], answer.text)
    # A new-format key is no JWT: sent alone as the token, it is refused.
    bare = httpx.post(functions_url(served, "hello"),
                      headers={"Authorization": "Bearer " + served.status["publishable_key"]})
    assert (bare.status_code, bare.json()) == (401, {"msg": "Invalid JWT"})


def test_verify_jwt_false_in_config_toml_takes_calls_without_any_key(served):
    answer = httpx.post(functions_url(served, "open"))
    assert (answer.status_code, answer.json()) == (200, {"open": True})


def test_an_unknown_or_disabled_function_is_not_found(served):
    for name in ("nope", "disabled", "_shared", "1bad"):
        answer = httpx.post(functions_url(served, name), headers=served.headers())
        assert (answer.status_code, answer.text) == (404, "Function not found"), name
    with pytest.raises(FunctionsHttpError) as missing:
        client(served).invoke("nope")
    assert missing.value.status == 404


def test_a_signed_in_users_token_reaches_rest_through_the_function_under_rls(served):
    tokens = {}
    for who in ("ann", "bo"):
        signup = httpx.post(served.auth_url + "/signup", headers={"apikey": served.anon_key},
                            json={"email": new_email(who), "password": "a-long-password-1"})
        assert signup.status_code == 200, signup.text
        tokens[who] = signup.json()["access_token"]
    # authenticated may only read: the notes are written with their owners as the superuser.
    for who, token in tokens.items():
        owner = httpx.get(served.auth_url + "/user", headers=served.headers(token=token)).json()["id"]
        for body in (f"{who} one", f"{who} two"):
            served.sql(f"insert into public.note (owner, body) values ('{owner}', '{body}')")
    ann = client(served, token=tokens["ann"]).invoke("notes", {"responseType": "json"})
    assert [row["body"] for row in ann] == ["ann one", "ann two"]
    bo = client(served, token=tokens["bo"]).invoke("notes", {"responseType": "json"})
    assert [row["body"] for row in bo] == ["bo one", "bo two"]
    assert client(served).invoke("notes", {"responseType": "json"}) == []


def test_a_function_that_throws_is_a_worker_error_and_the_next_call_is_served(served):
    # A handler that throws: hello's JSON.parse of a body starting with { that is not JSON.
    thrown = httpx.post(functions_url(served, "hello"), headers=served.headers(), content=b"{oops")
    assert thrown.status_code == 500
    assert thrown.json() == {"code": "WORKER_ERROR",
                             "message": "Function exited due to an error (please check logs)"}
    assert_gateway_serves(served)


def test_a_function_with_a_syntax_error_is_a_boot_error(served):
    answer = httpx.post(functions_url(served, "broken"), headers=served.headers())
    assert answer.status_code == 503
    assert answer.json() == {"code": "BOOT_ERROR", "message": "Worker failed to boot (please check logs)"}
    with pytest.raises(FunctionsHttpError) as failed:
        client(served).invoke("broken")
    assert failed.value.status == 503
    assert_gateway_serves(served)
    log = run_snm("local", "logs", "functions", "--dir", served.data_dir)
    assert log.returncode == 0, log.stderr
    assert "broken: " in log.stdout and "SyntaxError" in log.stdout


def test_a_remote_import_that_cannot_be_fetched_fails_to_boot_and_is_named(served):
    answer = httpx.post(functions_url(served, "remote"), headers=served.headers(), timeout=60)
    assert answer.status_code == 503
    assert answer.json()["code"] == "BOOT_ERROR"
    log = run_snm("local", "logs", "functions", "--dir", served.data_dir).stdout
    assert "remote: the import jsr:@std/assert cannot be fetched" in log
    assert "import map" in log
    assert_gateway_serves(served)


def test_a_function_that_never_answers_hits_the_wall_clock_limit(served):
    answer = httpx.post(functions_url(served, "hangs"), headers=served.headers(), timeout=120)
    assert answer.status_code == 546
    assert answer.json() == {
        "code": "WORKER_LIMIT",
        "message": "Worker failed to respond due to a resource limit (please check logs)"}
    assert_gateway_serves(served)


def test_a_function_past_its_memory_is_a_worker_limit(served):
    answer = httpx.post(functions_url(served, "greedy"), headers=served.headers(), timeout=120)
    assert answer.status_code == 546
    assert answer.json()["code"] == "WORKER_LIMIT"
    assert_gateway_serves(served)


def test_a_changed_function_is_started_again_at_its_next_call(served, folder):
    root, _ = folder
    source = root / "supabase" / "functions" / "open" / "index.ts"
    assert httpx.post(functions_url(served, "open")).json() == {"open": True}
    source.write_text("Deno.serve(() => Response.json({ open: 'again' }));\n")
    assert httpx.post(functions_url(served, "open")).json() == {"open": "again"}


def test_a_function_added_while_the_project_runs_is_served(served, folder):
    root, _ = folder
    added = root / "supabase" / "functions" / "added"
    added.mkdir()
    (added / "index.ts").write_text("Deno.serve(() => new Response('new here'));\n")
    assert client(served).invoke("added") == b"new here"


def test_cors_preflight_reaches_the_function(served, folder):
    root, _ = folder
    cors = root / "supabase" / "functions" / "cors"
    cors.mkdir()
    (cors / "index.ts").write_text(
        "Deno.serve((req) => req.method === 'OPTIONS' ? new Response('ok', { headers:"
        " { 'access-control-allow-headers': 'authorization, x-client-info, apikey, content-type' } })"
        " : new Response('called'));\n")
    answer = httpx.options(functions_url(served, "cors"),
                           headers={"Origin": "http://app.test", "Access-Control-Request-Method": "POST"})
    assert (answer.status_code, answer.text) == (200, "ok")
    assert "x-client-info" in answer.headers["access-control-allow-headers"]


def test_functions_new_writes_a_function_the_running_project_serves(served, folder):
    root, _ = folder
    made = run_snm("local", "functions", "new", "greet", cwd=str(root))
    assert made.returncode == 0, made.stderr
    assert "created supabase/functions/greet/index.ts" in made.stdout
    config = (root / "supabase" / "config.toml").read_text()
    assert "[functions.greet]\nenabled = true\nverify_jwt = true\n" in config
    assert config.startswith("\n[api]")  # what was there stays
    answer = client(served).invoke("greet", {"body": {"name": "Bori"}, "responseType": "json"})
    assert answer == {"message": "Hello Bori!"}
    again = run_snm("local", "functions", "new", "greet", cwd=str(root))
    assert again.returncode == 1
    assert again.stderr.strip() == "snm local: supabase/functions/greet/index.ts exists already"
    for words, message in ((["new"], "usage: snm local functions new NAME"),
                           (["new", "9lives"], "'9lives' is no function name")):
        refused = run_snm("local", "functions", *words, cwd=str(root))
        assert refused.returncode == 2 and message in refused.stderr, refused.stderr


def test_logs_show_one_functions_lines_when_named(served):
    client(served).invoke("hello")
    with pytest.raises(FunctionsHttpError):
        client(served).invoke("broken")
    broken = run_snm("local", "logs", "functions", "broken", "--dir", served.data_dir)
    assert broken.returncode == 0
    lines = broken.stdout.splitlines()
    assert lines and all(line.split(" ", 1)[1].startswith("broken: ") for line in lines)
    assert "\x1b" not in run_snm("local", "logs", "functions", "--dir", served.data_dir).stdout
    usage = run_snm("local", "logs", "--dir", served.data_dir)
    assert (usage.returncode, usage.stderr.splitlines()[0]) == (
        2, "snm local: usage: snm local logs functions [NAME]")


def test_without_deno_a_call_is_a_boot_error_and_the_log_says_how_to_get_it(snm_bin, workdir, tmp_path):
    root, migrations = write_folder(tmp_path / "app")
    handle = start_from(root, "functions-no-deno", {"SNM_DENO": str(tmp_path / "no-deno")},
                        "--migrations", str(migrations))
    try:
        answer = httpx.post(functions_url(handle, "open"))
        assert (answer.status_code, answer.json()["code"]) == (503, "BOOT_ERROR")
        log = run_snm("local", "logs", "functions", "--dir", handle.data_dir).stdout
        assert f"open: snm: failed to boot: SNM_DENO names {tmp_path / 'no-deno'}, which is no executable file" in log
    finally:
        handle.stop()


def _function_processes(project):
    """The Deno processes of the project's functions (descendants of its gateway)."""
    from hardening import children, gateway_pid
    found, queue = [], [gateway_pid(project)]
    while queue:
        for child in children(queue.pop()):
            queue.append(child)
            if "boot.js" in pathlib.Path(f"/proc/{child}/cmdline").read_bytes().decode(errors="replace"):
                found.append(child)
    return found


def _listening(pid):
    """The TCP ports and Unix socket paths `pid` listens on (from /proc)."""
    inodes = set()
    for fd in pathlib.Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    ports = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in pathlib.Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            if fields[3] == "0A" and fields[9] in inodes:
                ports.append(int(fields[1].rsplit(":", 1)[1], 16))
    paths = []
    for line in pathlib.Path("/proc/net/unix").read_text().splitlines()[1:]:
        fields = line.split()
        if len(fields) >= 8 and fields[6] in inodes and fields[5] == "01":
            paths.append(fields[7])
    return ports, paths


def test_only_the_gateway_reaches_a_function_no_local_user_skips_verify_jwt(served):
    """A function's process listens on no TCP port (where any local user could call it without
    a JWT, past the gateway's verify_jwt) but on a Unix socket in a folder only the project's
    user may open."""
    assert client(served).invoke("hello", {"responseType": "json"})["message"] == "Hello there"
    processes = _function_processes(served)
    assert processes
    for pid in processes:
        ports, paths = _listening(pid)
        reached = []
        for port in ports:
            with socket.create_connection(("127.0.0.1", port), timeout=5) as connection:
                connection.sendall(b"GET /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                reached.append(connection.recv(200))
        assert ports == [], f"called without a JWT on 127.0.0.1:{ports}: {reached}"
        assert paths
        for path in paths:
            folder = pathlib.Path(path).parent
            assert stat.S_IMODE(folder.stat().st_mode) == 0o700 and folder.stat().st_uid == os.getuid()
            if os.getuid() == 0:
                other = subprocess.run(
                    ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", sys.executable,
                     "-c", f"import socket; socket.socket(socket.AF_UNIX).connect({path!r})"],
                    capture_output=True, text=True, timeout=30)
                assert other.returncode != 0 and "PermissionError" in other.stderr, other.stderr


HOLDS = """
    Deno.serve(async (req) => {
      const mark = new URL(req.url).searchParams.get("mark");
      await Deno.writeTextFile(mark + "/" + crypto.randomUUID(), "");
      return await new Promise(() => {});
    });
"""


def test_a_slow_function_called_on_many_sub_paths_takes_only_its_share_of_the_workers(
        tmp_path_factory):
    """The workers one path may take (16 of 32) count a function's sub-paths as the function:
    before, 40 anon calls to /functions/v1/holds/<n> (each waiting out the wall clock) were 40
    paths, took every worker, and a REST read waited for the wall clock; now the functions' share
    (8 calls at once, all functions together: test_functions_share) runs, the rest are refused,
    and the read is answered while they wait."""
    root, migrations = write_folder(tmp_path_factory.mktemp("held"))
    (root / "supabase" / "functions" / "holds").mkdir()
    (root / "supabase" / "functions" / "holds" / "index.ts").write_text(HOLDS)
    marks = tmp_path_factory.mktemp("marks")
    project = start_from(root, "functions-held", {"SNM_FUNCTIONS_WALL_CLOCK": "120"},
                         "--migrations", str(migrations))
    try:
        headers = {"apikey": project.anon_key, "Authorization": f"Bearer {project.anon_key}"}

        def call(n):
            try:
                httpx.get(functions_url(project, f"holds/{n}"), params={"mark": str(marks)},
                          headers=headers, timeout=150)
            except httpx.HTTPError:
                pass

        pool = concurrent.futures.ThreadPoolExecutor(40)
        for n in range(40):
            pool.submit(call, n)
        wait_until(lambda: len(list(marks.iterdir())) >= 8, timeout=60, what="8 calls held")
        read = httpx.get(project.rest_url + "/note?select=id&limit=1", headers=project.headers(),
                         timeout=30)
        assert read.status_code == 200, read.text
    finally:
        project.stop()
        pool.shutdown(wait=False, cancel_futures=True)


def test_logs_print_a_tab_as_a_tab_and_hidden_characters_escaped(tmp_path):
    """The runner writes each line escaped but its tabs (a function's `console.log("a\\tb")`);
    `logs functions` printed the tab as \\u{9}. Hidden characters stay escaped, even in a log
    written by hand."""
    folder = tmp_path / "functions"
    folder.mkdir()
    (folder / "functions.log").write_text(
        "2026-12-06T15:40:02Z hello: id\tname\n2026-12-06T15:40:03Z hello: x\x1b[2J\u202ey\n")
    log = run_snm("local", "logs", "functions", "--dir", str(tmp_path))
    assert log.returncode == 0, log.stderr
    assert log.stdout == ("2026-12-06T15:40:02Z hello: id\tname\n"
                          "2026-12-06T15:40:03Z hello: x\\u{1B}[2J\\u{202E}y\n"), log.stdout
