"""One slow endpoint cannot take every worker (issue 35, item 12): 40 anon clients calling a slow
rpc at once run on at most half the gateway's workers (16, of the REST pool's 20 connections), and
a fresh request is answered while they run (before: it waited behind them for a worker and a
connection, and got 504 PGRST003)."""
import socket
import time

import pytest

from hardening import wait_until
from test_security_request_cost import active_calls, create_unbounded_sleep, psql, rest, send_calls

# One slow function's path, spelled four ways: the same routine for the gateway.
SPELLINGS = ("POST", "rpc/spell_sleep"), ("GET", "rpc/spell_sleep"), \
    ("POST", "rpc/spell%5Fsleep"), ("POST", "rpc/%73pell_sleep")

CALLS = 40


def running_pids(project, function):
    return set(psql(project, "select pid from pg_stat_activity where state = 'active' "
                             f"and query like '%pgrst_call%' and query like '%{function}%' "
                             "and pid <> pg_backend_pid()").split())


@pytest.fixture(scope="module")
def shared(start_extra_project):
    return start_extra_project("http-worker-share")


def test_a_slow_rpc_leaves_workers_for_other_requests(shared):
    project = shared
    create_unbounded_sleep(project, "share_sleep")
    assert rest(project, "GET", "dog_profile?select=id").status_code == 200
    sockets = send_calls(project, project.anon_key, "share_sleep", CALLS, 30)
    try:
        wait_until(lambda: active_calls(project, "share_sleep") >= 16, timeout=60, interval=0.1,
                   what="the calls running")
        first = running_pids(project, "share_sleep")
        started = time.perf_counter()
        answer = rest(project, "GET", "dog_profile?select=id")
        took = time.perf_counter() - started
        still = running_pids(project, "share_sleep")
        print(f"\na fresh request while {CALLS} clients call a 30 s rpc: {answer.status_code} "
              f"in {took * 1000:.1f} ms, {len(first)} calls running")
        assert answer.status_code == 200, answer.text
        assert first <= still, "answered only once the first calls had ended"
        assert len(first) == 16, "half the workers on one path"
    finally:
        for connection in sockets:
            connection.close()
    wait_until(lambda: active_calls(project, "share_sleep") == 0, timeout=30, interval=0.1,
               what="the hung-up clients' calls to be cancelled")


def test_a_slow_rpc_spelled_many_ways_still_leaves_workers(shared):
    """40 anon calls of one slow function, by GET and POST and with escaped spellings of its
    name, share one half of the workers: 16 run and a fresh request is answered (before: each
    method and spelling had a half of its own, the calls took every REST connection and the fresh
    request got 504 PGRST003)."""
    project = shared
    create_unbounded_sleep(project, "spell_sleep")
    assert rest(project, "GET", "dog_profile?select=id").status_code == 200
    sockets = []
    try:
        for index in range(CALLS):
            method, path = SPELLINGS[index % len(SPELLINGS)]
            key = project.anon_key
            if method == "GET":
                request = (f"GET /rest/v1/{path}?seconds=30 HTTP/1.1\r\nHost: x\r\n"
                           f"apikey: {key}\r\n\r\n").encode()
            else:
                request = (f"POST /rest/v1/{path} HTTP/1.1\r\nHost: x\r\napikey: {key}\r\n"
                           "Content-Type: application/json\r\nContent-Length: 15\r\n\r\n"
                           '{"seconds": 30}').encode()
            connection = socket.create_connection(("127.0.0.1", project.port))
            connection.sendall(request)
            sockets.append(connection)
        wait_until(lambda: active_calls(project, "spell_sleep") >= 16, timeout=60, interval=0.1,
                   what="the calls running")
        first = running_pids(project, "spell_sleep")
        answer = rest(project, "GET", "dog_profile?select=id")
        assert answer.status_code == 200, answer.text
        assert len(first) == 16, "half the workers on one routine, whatever the spelling"
    finally:
        for connection in sockets:
            connection.close()
    wait_until(lambda: active_calls(project, "spell_sleep") == 0, timeout=30, interval=0.1,
               what="the hung-up clients' calls to be cancelled")
