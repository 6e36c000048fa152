"""Request bodies that arrive slowly (issue 35, items 7, 1, 2): a streamed upload may pause between
pieces (before: a pause of 1 s dropped it without an answer, also after `Expect: 100-continue`);
a body that stops gets 408 at the request timeout."""
import socket
import time
import uuid

import pytest

from hardening import status_of

REQUEST_TIMEOUT = 3  # SNM_HTTP_REQUEST_TIMEOUT of the project
PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 1000


@pytest.fixture(scope="module")
def slow(start_extra_project):
    return start_extra_project("http-slow-bodies",
                               env={"SNM_HTTP_REQUEST_TIMEOUT": str(REQUEST_TIMEOUT)})


def upload_head(project, name, length, extra=""):
    key = project.service_role_key
    return (f"POST /storage/v1/object/dog-photos/{name} HTTP/1.1\r\nHost: x\r\napikey: {key}\r\n"
            f"Authorization: Bearer {key}\r\nContent-Type: image/png\r\nConnection: close\r\n"
            f"Content-Length: {length}\r\n{extra}\r\n").encode()


def answer(connection, timeout):
    """What the server sends until it closes (or `timeout` seconds pass)."""
    connection.settimeout(timeout)
    chunks = []
    try:
        while chunk := connection.recv(65536):
            chunks.append(chunk)
    except (socket.timeout, ConnectionResetError):
        pass
    return b"".join(chunks)


def pieces(body, count):
    step = -(-len(body) // count)
    return [body[start:start + step] for start in range(0, len(body), step)]


def test_a_body_may_pause_between_pieces(slow):
    name = f"slow/{uuid.uuid4().hex[:8]}.png"
    with socket.create_connection(("127.0.0.1", slow.port), timeout=10) as connection:
        connection.sendall(upload_head(slow, name, len(PNG)))
        for piece in pieces(PNG, 3):
            time.sleep(1.5)  # the pause under test: longer than the old 1 s poll, within the limit
            connection.sendall(piece)
        raw = answer(connection, 3 * REQUEST_TIMEOUT)
    assert status_of(raw) == 200, raw[:200]


def test_a_body_may_pause_after_100_continue(slow):
    name = f"slow/{uuid.uuid4().hex[:8]}.png"
    with socket.create_connection(("127.0.0.1", slow.port), timeout=10) as connection:
        connection.sendall(upload_head(slow, name, len(PNG), "Expect: 100-continue\r\n"))
        interim = b""
        connection.settimeout(10)
        while b"\r\n\r\n" not in interim:
            chunk = connection.recv(4096)
            assert chunk, "closed before 100 Continue"
            interim += chunk
        assert interim.startswith(b"HTTP/1.1 100 Continue\r\n\r\n"), interim
        for piece in pieces(PNG, 3):
            time.sleep(1.5)
            connection.sendall(piece)
        raw = answer(connection, 3 * REQUEST_TIMEOUT)
    assert status_of(raw) == 200, raw[:200]


def test_a_body_that_stops_gets_408(slow):
    name = f"slow/{uuid.uuid4().hex[:8]}.png"
    with socket.create_connection(("127.0.0.1", slow.port), timeout=10) as connection:
        connection.sendall(upload_head(slow, name, len(PNG)) + PNG[:100])
        raw = answer(connection, 4 * REQUEST_TIMEOUT)
    assert status_of(raw) == 408, raw[:200]
