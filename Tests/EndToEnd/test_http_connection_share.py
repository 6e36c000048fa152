"""One client cannot keep everyone out of the connection table (issue 35, item 11): at the limit,
a connection that does not keep the server's pace for 2 s (a head still arriving, a body that does
not come, an answer its client does not read) gives its place to a new client. Before, only idle
connections (and since round three's first fix, trickling heads) made room: a table full of
stalled bodies or unread answers refused every new client with 503 until the request or write
timeout (30 s). The project's table holds 16 connections (SNM_HTTP_MAX_CONNECTIONS)."""
import socket
import time

import httpx
import pytest

from hardening import status_of

TABLE = 16
ROWS = 1000  # within max_rows: one answer in memory
WIDTH = 8000  # bytes of text a row: 8 MB an answer, more than the sockets' buffers take


@pytest.fixture(scope="module")
def small(start_extra_project):
    project = start_extra_project("http-connection-share",
                                  env={"SNM_HTTP_MAX_CONNECTIONS": str(TABLE)})
    project.sql(
        f"create table public.wide as select g as id, repeat('x', {WIDTH}) as t "
        f"from generate_series(1, {ROWS}) g; "
        "grant select on public.wide to anon; notify pgrst, 'reload schema'")
    headers = project.headers(project.anon_key)
    deadline = time.time() + 30
    while time.time() < deadline:
        if httpx.get(f"{project.rest_url}/wide?select=id&limit=1", headers=headers).status_code == 200:
            break
        time.sleep(0.3)
    return project


def newcomer(project):
    """A new client's answer, asked again while it is refused (503) for up to 20 s: within the
    request and write timeouts (30 s), after which the old server made room too."""
    deadline = time.monotonic() + 20
    while True:
        with socket.create_connection(("127.0.0.1", project.port), timeout=20) as connection:
            connection.sendall(f"GET /rest/v1/dog_profile?select=id&limit=1 HTTP/1.1\r\nHost: x\r\n"
                               f"apikey: {project.anon_key}\r\nConnection: close\r\n\r\n".encode())
            raw = b""
            try:
                while chunk := connection.recv(65536):
                    raw += chunk
            except (socket.timeout, ConnectionResetError):
                pass
        if status_of(raw) != 503 or time.monotonic() > deadline:
            return raw
        time.sleep(0.1)


def fill(project, request, read_first=False):
    """TABLE connections each sending `request` (and reading nothing of the answer but, with
    `read_first`, its first bytes: each was answered)."""
    connections = []
    for _ in range(TABLE):
        connection = socket.socket()
        connection.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 65536)
        connection.settimeout(30)
        connection.connect(("127.0.0.1", project.port))
        connection.sendall(request)
        if read_first:
            assert status_of(connection.recv(4096)) == 200
        connections.append(connection)
    return connections


def test_stalled_bodies_make_room_for_a_new_client(small):
    head = (f"POST /rest/v1/dog_profile HTTP/1.1\r\nHost: x\r\napikey: {small.anon_key}\r\n"
            "Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n").encode()
    stalled = fill(small, head)
    try:
        raw = newcomer(small)
        assert status_of(raw) == 200, raw[:300]
        first = stalled[0].recv(65536)
        assert status_of(first) == 408, first[:300]
    finally:
        for connection in stalled:
            connection.close()


def test_unread_answers_make_room_for_a_new_client(small):
    get = (f"GET /rest/v1/wide?select=* HTTP/1.1\r\nHost: x\r\napikey: {small.anon_key}\r\n"
           "\r\n").encode()
    unread = fill(small, get, read_first=True)
    try:
        raw = newcomer(small)
        assert status_of(raw) == 200, raw[:300]
    finally:
        for connection in unread:
            connection.close()
