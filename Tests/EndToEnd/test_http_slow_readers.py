"""Clients that do not read their answers (issue 35, item 1): a streamed REST answer (more than
1,000 rows, where max_rows allows it) that its client leaves unread no longer holds a gateway worker
and a database connection until the write timeout (30 s). The rest of the answer is kept in memory
(up to a bound) and sent by the event loop as the client reads; the worker and the connection are
free as soon as the rows are read from the database."""
import json
import socket

import pytest

from hardening import status_of, wait_for_all_rows

ROWS = 4000  # four batches of 1,000: streamed
WIDTH = 2000  # bytes of text a row: about 8 MB an answer, more than the sockets' buffers take
SLOW = 24  # more slow readers than the REST pool's 20 connections
PATHS = ("wide_a", "wide_b")  # two paths: each may take half of the 32 workers


@pytest.fixture(scope="module")
def wide(start_extra_project):
    project = start_extra_project("http-slow-readers")
    project.sql(
        f"create table public.wide_a as select g as id, repeat('x', {WIDTH}) as t "
        f"from generate_series(1, {ROWS}) g; "
        "create view public.wide_b as select * from public.wide_a; "
        "grant select on public.wide_a, public.wide_b to anon; "
        "alter role authenticator set pgrst.db_max_rows = '1000000'; "
        "notify pgrst, 'reload schema'")
    wait_for_all_rows(project, "wide_b", key=project.anon_key)
    return project


def get(project, path):
    return (f"GET /rest/v1/{path} HTTP/1.1\r\nHost: x\r\napikey: {project.anon_key}\r\n"
            "Connection: close\r\n\r\n").encode()


def until_closed(connection, timeout):
    connection.settimeout(timeout)
    chunks = []
    try:
        while chunk := connection.recv(1 << 20):
            chunks.append(chunk)
    except (socket.timeout, ConnectionResetError):
        pass
    return b"".join(chunks)


def dechunked(body):
    """A chunked body's bytes, and whether its last chunk came."""
    data = bytearray()
    while True:
        line, sep, body = body.partition(b"\r\n")
        if not sep:
            return bytes(data), False
        size = int(line, 16)
        if size == 0:
            return bytes(data), True
        data += body[:size]
        body = body[size + 2:]


def test_clients_that_do_not_read_hold_no_workers(wide):
    """24 anon clients ask for 8 MB each and read only the first bytes: a fresh REST request is
    answered while they stay connected (before: 504 PGRST003 after the pool's 10 s wait, every
    REST connection held by a worker writing to a client that did not read), and each slow client
    then reads its whole answer."""
    project = wide
    readers = []
    try:
        for index in range(SLOW):
            connection = socket.socket()
            connection.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 65536)  # takes little
            connection.connect(("127.0.0.1", project.port))
            connection.sendall(get(project, f"{PATHS[index % 2]}?select=*"))
            readers.append(connection)
        # Each has begun to be answered (its head, or a refusal): its request was served.
        firsts = []
        for connection in readers:
            connection.settimeout(30)
            firsts.append(connection.recv(4096))
        with socket.create_connection(("127.0.0.1", project.port), timeout=25) as fresh:
            fresh.sendall(get(project, "dog_profile?select=id&limit=1"))
            raw = until_closed(fresh, 25)
        assert status_of(raw) == 200, raw[:300]
        assert [status_of(first) for first in firsts] == [200] * SLOW
        for first, connection in zip(firsts, readers):
            raw = first + until_closed(connection, 60)
            head, _, body = raw.partition(b"\r\n\r\n")
            assert b"Transfer-Encoding: chunked" in head, head
            data, whole = dechunked(body)
            assert whole, "the answer was cut"
            rows = json.loads(data)
            assert len(rows) == ROWS and rows[-1]["id"] == ROWS
    finally:
        for connection in readers:
            connection.close()
