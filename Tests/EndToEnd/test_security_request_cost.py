"""What one REST request may cost the database (issue 13, items 1 and 2): a `select` embeds at
most 20 resources, 8 levels deep (400 PGRST100 past that; 300 sibling embeds took one backend
3.9 GB before); a backend that has grown past 64 MiB is closed when its connection comes back;
each role runs under its own `statement_timeout` (anon 3 s, authenticated 8 s, as on Supabase,
changed with ALTER ROLE); and a client that hangs up, or a request past the gateway's deadline,
has its query cancelled in Postgres, so hung-up clients cannot hold the pool."""
import concurrent.futures
import json
import socket
import subprocess
import time
import uuid

import httpx
import pytest
from postgrest import APIError, SyncPostgrestClient

from hardening import wait_until


def psql(project, sql):
    result = subprocess.run(["psql", project.status["db_url"], "-XAtc", sql],
                            capture_output=True, text=True, timeout=30, check=True)
    return result.stdout.strip()


ALICE = "0c8e5f7a-6b9d-4f1e-9a3b-2d4c6e8f0a1b"


def rest(project, method, path, key=None, token=None, headers=None, **kwargs):
    return httpx.request(method, f"{project.rest_url}/{path}",
                         headers={**project.headers(key=key, token=token), **(headers or {})},
                         timeout=60, **kwargs)


def siblings(count, prefix="x"):
    return "id," + ",".join(f"{prefix}{i}:user_info(name)" for i in range(count))


def nested(depth, table="dog_profile"):
    if depth == 0:
        return "id"
    child = "user_info" if table == "dog_profile" else "dog_profile"
    return f"id,e:{child}({nested(depth - 1, child)})"


def backend_memory(project):
    """RssAnon in MiB of each idle REST backend (the pool's connections)."""
    pids = psql(project, "select pid from pg_stat_activity where usename = 'authenticator' "
                         "and state = 'idle' and query not like 'LISTEN%'").split()
    sizes = {}
    for pid in pids:
        try:
            with open(f"/proc/{pid}/status") as status:
                for line in status:
                    if line.startswith("RssAnon:"):
                        sizes[int(pid)] = int(line.split()[1]) // 1024
        except OSError:
            pass
    return sizes


def active_calls(project, function):
    return int(psql(project, "select count(*) from pg_stat_activity where state = 'active' "
                             f"and query like '%pgrst_call%' and query like '%{function}%' "
                             "and pid <> pg_backend_pid()"))


@pytest.fixture(scope="module")
def costly(start_extra_project):
    return start_extra_project("request-cost")


def sign_up(project):
    response = httpx.post(f"{project.auth_url}/signup", headers=project.headers(),
                          json={"email": f"cost-{uuid.uuid4().hex[:8]}@example.com",
                                "password": "password123"}, timeout=30)
    assert response.status_code == 200, response.text
    return response.json()["access_token"]


def test_a_select_embeds_at_most_20_resources_8_deep(costly):
    refused = rest(costly, "GET", "dog_profile", params={"select": siblings(300)})
    assert refused.status_code == 400, refused.text
    assert refused.json() == {
        "code": "PGRST100", "details": "the select embeds 300 resources; at most 20 are allowed",
        "hint": "Select fewer embedded resources, or split the request",
        "message": "the select parameter asks for too much"}
    assert rest(costly, "GET", "dog_profile", params={"select": siblings(21)}).status_code == 400
    assert rest(costly, "GET", "dog_profile", params={"select": siblings(20)}).status_code == 200
    user = sign_up(costly)
    deep = rest(costly, "GET", "dog_profile", token=user, params={"select": nested(50)})
    assert deep.status_code == 400
    assert deep.json()["details"] == \
        "the select nests embedded resources 50 levels deep; at most 8 are allowed"
    assert rest(costly, "GET", "dog_profile", token=user,
                params={"select": nested(8)}).status_code == 200
    # The rows a write returns go through the same limit, and the write does not happen.
    before = psql(costly, "select count(*) from public.dog_profile")
    write = rest(costly, "POST", "dog_profile", key=costly.service_role_key,
                 params={"select": siblings(30)}, json={"owner": ALICE, "name": "x"},
                 headers={"Prefer": "return=representation"})
    assert write.status_code == 400 and write.json()["code"] == "PGRST100", write.text
    assert psql(costly, "select count(*) from public.dog_profile") == before
    # The official client sees PostgREST's error shape.
    client = SyncPostgrestClient(costly.rest_url, headers=costly.headers())
    with pytest.raises(APIError) as error:
        client.from_("dog_profile").select(siblings(25)).execute()
    assert error.value.code == "PGRST100"


def test_backends_past_64_mib_are_recycled(costly):
    # Each distinct 20-embed select leaves a plan of several MiB in its backend; without
    # recycling one connection kept them all (a pool of them: 6.6 GB for 100 of 100 embeds).
    with httpx.Client(timeout=60) as client:
        peaks = []
        for shape in range(24):
            response = client.get(f"{costly.rest_url}/dog_profile", headers=costly.headers(),
                                  params={"select": siblings(20, prefix=f"s{shape}_")})
            assert response.status_code == 200, response.text
            peaks.append(max(backend_memory(costly).values(), default=0))
    print(f"largest idle REST backend after each of 24 distinct 20-embed selects (MiB): {peaks}")
    assert max(peaks) <= 64, peaks


def test_each_role_has_its_statement_timeout(costly):
    user = sign_up(costly)

    def call(who, seconds):
        token = user if who == "authenticated" else None
        key = costly.service_role_key if who == "service_role" else None
        started = time.monotonic()
        response = rest(costly, "POST", "rpc/sleep_for", key=key, token=token,
                        json={"seconds": seconds})
        return who, response, time.monotonic() - started

    with concurrent.futures.ThreadPoolExecutor(3) as pool:
        outcomes = list(pool.map(lambda case: call(*case),
                                 [("anon", 3.6), ("authenticated", 3.6), ("service_role", 3.6)]))
    for who, response, seconds in outcomes:
        print(f"{who}: sleep_for(3.6) -> {response.status_code} after {seconds:.1f} s")
    anon = outcomes[0][1]
    assert anon.status_code == 500, anon.text
    assert anon.json()["code"] == "57014"
    assert anon.json()["message"] == "canceling statement due to statement timeout"
    assert outcomes[1][1].status_code == 200 and outcomes[2][1].status_code == 200

    # Configurable as on Supabase: ALTER ROLE, then reload the gateway's configuration.
    psql(costly, "alter role authenticated set statement_timeout = '1s'")
    psql(costly, "notify pgrst, 'reload config'")
    try:
        wait_until(lambda: rest(costly, "POST", "rpc/sleep_for", token=user,
                                json={"seconds": 1.5}).status_code == 500,
                   timeout=20, interval=0.5, what="the 1 s timeout to apply")
    finally:
        psql(costly, "alter role authenticated set statement_timeout = '8s'")
        psql(costly, "notify pgrst, 'reload config'")


def create_unbounded_sleep(project, name):
    """A function `name(seconds)` that sleeps with its own statement_timeout lifted, once the
    gateway's schema cache has it."""
    psql(project, f"create or replace function public.{name}(seconds float8) returns float8 "
                  "language plpgsql set statement_timeout = 0 as "
                  "$$ begin perform pg_sleep(seconds); return seconds; end $$; "
                  "notify pgrst, 'reload schema'")
    wait_until(lambda: rest(project, "POST", f"rpc/{name}", key=project.service_role_key,
                            json={"seconds": 0}).status_code == 200,
               timeout=30, interval=0.3, what=f"{name} in the schema cache")


def send_calls(project, key, function, count, seconds):
    """`count` raw rpc calls of `function`, sent and left open (the caller hangs up later)."""
    body = json.dumps({"seconds": seconds}).encode()
    request = (f"POST /rest/v1/rpc/{function} HTTP/1.1\r\nHost: x\r\napikey: {key}\r\n"
               f"Authorization: Bearer {key}\r\nContent-Type: application/json\r\n"
               f"Content-Length: {len(body)}\r\n\r\n").encode() + body
    sockets = []
    for _ in range(count):
        connection = socket.create_connection(("127.0.0.1", project.port))
        connection.sendall(request)
        sockets.append(connection)
    return sockets


def test_hung_up_clients_do_not_hold_the_pool(costly):
    # 30 clients (the pool has 20 connections) ask for 30 s of sleep and hang up once the pool is
    # busy with them. Before, every other request got 504 PGRST003 until the sleeps ended. The
    # function lifts its own statement_timeout, so only the cancel can end it before 30 s, and
    # the test waits for what it needs (the queries running) rather than for a fixed time, which
    # a busy machine outlasts. Two functions, 15 calls each: one path runs on at most half the
    # gateway's 32 workers (16), so one alone no longer fills the pool.
    create_unbounded_sleep(costly, "hang_sleep")
    create_unbounded_sleep(costly, "hang_sleep_too")
    sockets = (send_calls(costly, costly.service_role_key, "hang_sleep", 15, 30)
               + send_calls(costly, costly.service_role_key, "hang_sleep_too", 15, 30))
    try:
        wait_until(lambda: active_calls(costly, "hang_sleep") >= 20, timeout=60, interval=0.1,
                   what="the pool busy with the calls")
    finally:
        for connection in sockets:
            connection.close()
    started = time.monotonic()
    wait_until(lambda: active_calls(costly, "hang_sleep") == 0, timeout=20, interval=0.1,
               what="the hung-up clients' queries to be cancelled")
    print(f"30 hung-up hang_sleep(30) calls: cancelled within {time.monotonic() - started:.1f} s")
    served = rest(costly, "GET", "dog_profile?select=id")
    assert served.status_code == 200, served.text
    wait_until(lambda: active_calls(costly, "hang_sleep") == 0, timeout=20, interval=0.1,
               what="the queued calls to be cancelled too")


def test_a_request_past_the_gateway_deadline_is_cancelled(start_extra_project):
    # A function may lift its own statement_timeout; the gateway's deadline still ends it.
    project = start_extra_project("request-deadline", env={"SNM_REST_DEADLINE": "2"})
    create_unbounded_sleep(project, "slow_unbounded")
    started = time.monotonic()
    answer = rest(project, "POST", "rpc/slow_unbounded", key=project.service_role_key,
                  json={"seconds": 30})
    print(f"slow_unbounded(30) under a 2 s deadline: {answer.status_code} "
          f"after {time.monotonic() - started:.1f} s")
    assert answer.status_code == 504, answer.text
    assert answer.json()["code"] == "57014"
    assert active_calls(project, "slow_unbounded") == 0
