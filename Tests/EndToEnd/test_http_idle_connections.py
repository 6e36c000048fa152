"""Idle connections cannot shut clients out (issue 13, item 5): with 1,100 TCP connections open
and silent, new REST and Auth clients are still served (before: 503 "too many connections" for
every new client while the idle ones held 1,024 worker threads), a request already arriving is
not the one closed to make room, and the worker threads a burst of connections made end once
idle (before: 1,028 threads stayed)."""
import resource
import socket
import time

import httpx
import pytest

from hardening import status_of, wait_until, worker_pid

IDLE = 1100


def threads(pid):
    with open(f"/proc/{pid}/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("Threads:"))


@pytest.fixture(scope="module")
def idle_project(start_extra_project):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < IDLE + 256:
        pytest.skip(f"this process may open only {hard} files")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, IDLE + 256), hard))
    return start_extra_project("idle-connections", env={"SNM_HTTP_WORKER_IDLE": "1"})


def test_idle_connections_do_not_shut_clients_out(idle_project):
    project = idle_project
    worker = wait_until(lambda: worker_pid(project), what="the gateway worker")
    before = threads(worker)
    # A request already under way when the crowd arrives: it is busy, never the one closed.
    arriving = socket.create_connection(("127.0.0.1", project.port), timeout=30)
    arriving.sendall(b"GET /rest/v1/dog_profile?select=id HTTP/1.1\r\nHost: local\r\n")
    time.sleep(0.2)
    crowd = []
    try:
        for _ in range(IDLE):
            crowd.append(socket.create_connection(("127.0.0.1", project.port), timeout=30))
        time.sleep(1)
        during = threads(worker)
        rest = httpx.get(f"{project.rest_url}/dog_profile?select=id", headers=project.headers(),
                         timeout=30)
        auth = httpx.post(f"{project.auth_url}/token?grant_type=password",
                          headers=project.headers(), timeout=30,
                          json={"email": "alice@example.com", "password": "password123"})
        print(f"{IDLE} idle connections: {during} worker threads; REST {rest.status_code}, "
              f"Auth {auth.status_code}")
        assert rest.status_code == 200, rest.text
        assert auth.status_code == 200, auth.text
        arriving.sendall(f"apikey: {project.anon_key}\r\n\r\n".encode())
        answer = arriving.recv(65536)
        assert status_of(answer) == 200, answer[:200]
    finally:
        arriving.close()
        for connection in crowd:
            connection.close()
    after = wait_until(lambda: (lambda n: n if n <= before + 8 else None)(threads(worker)),
                       timeout=15, what="the idle worker threads to end")
    print(f"worker threads: {before} before, {during} with the crowd, {after} after it left")
