"""Request bodies that arrive slowly or hold much (issue 35, items 7, 1, 2): a streamed upload may
pause between pieces (before: a pause of 1 s dropped it without an answer, also after `Expect:
100-continue`); a body that stops gets 408 at the request timeout; a form's fields are bounded in
number and size (before: 500 fields of 1 MB were all kept in memory)."""
import json
import socket
import threading
import time
import uuid

import pytest

from hardening import jwt_secret, mint, status_of, user_claims

REQUEST_TIMEOUT = 3  # SNM_HTTP_REQUEST_TIMEOUT of the project
PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 1000
# Three pieces of 64 KiB: each request-timeout window brings more than the 16 KiB/s a body that
# spans windows must keep up.
LARGER = b"\x89PNG\r\n\x1a\n" + b"\x00" * (3 * 65_536 - 8)
SLOW = 36  # slow uploaders: the gateway's 32 workers and a few more
POOL_TIMEOUT = 8  # SNM_HTTP_REQUEST_TIMEOUT of the project the slow uploaders use


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
        connection.sendall(upload_head(slow, name, len(LARGER)))
        for piece in pieces(LARGER, 3):
            time.sleep(1.5)  # the pause under test: longer than the old 1 s poll, within the limit
            connection.sendall(piece)
        raw = answer(connection, 3 * REQUEST_TIMEOUT)
    assert status_of(raw) == 200, raw[:200]


def test_a_body_may_pause_after_100_continue(slow):
    name = f"slow/{uuid.uuid4().hex[:8]}.png"
    with socket.create_connection(("127.0.0.1", slow.port), timeout=10) as connection:
        connection.sendall(upload_head(slow, name, len(LARGER), "Expect: 100-continue\r\n"))
        interim = b""
        connection.settimeout(10)
        while b"\r\n\r\n" not in interim:
            chunk = connection.recv(4096)
            assert chunk, "closed before 100 Continue"
            interim += chunk
        assert interim.startswith(b"HTTP/1.1 100 Continue\r\n\r\n"), interim
        for piece in pieces(LARGER, 3):
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


def form(boundary, fields, file=PNG):
    """A multipart/form-data body: `fields` (name, value) first, then the file part."""
    parts = [b"--%s\r\nContent-Disposition: form-data; name=\"%s\"\r\n\r\n%s\r\n"
             % (boundary, name.encode(), value) for name, value in fields]
    parts.append(b"--%s\r\nContent-Disposition: form-data; name=\"\"; filename=\"a.png\"\r\n"
                 b"Content-Type: image/png\r\n\r\n%s\r\n--%s--\r\n" % (boundary, file, boundary))
    return b"".join(parts)


def send_form(project, fields):
    """Uploads a form as the service role (whom every policy lets write); the raw answer."""
    key = project.service_role_key
    boundary = b"x" + uuid.uuid4().hex.encode()
    body = form(boundary, fields)
    name = f"form/{uuid.uuid4().hex[:8]}.png"
    head = (f"POST /storage/v1/object/dog-photos/{name} HTTP/1.1\r\nHost: x\r\napikey: {key}\r\n"
            f"Authorization: Bearer {key}\r\n"
            f"Content-Type: multipart/form-data; boundary={boundary.decode()}\r\n"
            f"Content-Length: {len(body)}\r\n\r\n").encode()
    with socket.create_connection(("127.0.0.1", project.port), timeout=10) as connection:
        try:
            connection.sendall(head + body)
        except (BrokenPipeError, ConnectionResetError):
            pass  # refused midway: the answer is still there to read
        return answer(connection, 3 * REQUEST_TIMEOUT)


def too_large(raw):
    """Storage's 413 (HTTP 400, statusCode 413), and the connection closes."""
    head, _, body = raw.partition(b"\r\n\r\n")
    assert status_of(raw) == 400, raw[:300]
    assert b"Connection: close" in head
    return json.loads(body)


def test_a_forms_fields_are_bounded_in_size(slow):
    # Two fields of 600 KB: each within 1 MiB, together over it.
    raw = send_form(slow, [("a", b"x" * 600_000), ("b", b"y" * 600_000)])
    assert too_large(raw) == {
        "statusCode": "413", "code": "EntityTooLarge", "error": "Payload too large",
        "message": "The form's fields exceeded 1048576 bytes"}


def test_a_forms_fields_are_bounded_in_number(slow):
    raw = send_form(slow, [(f"f{index}", b"1") for index in range(500)])
    assert too_large(raw) == {
        "statusCode": "413", "code": "EntityTooLarge", "error": "Payload too large",
        "message": "The form exceeded 64 fields"}


def test_a_form_with_a_few_fields_uploads(slow):
    raw = send_form(slow, [("cacheControl", b"60"), ("metadata", b'{"a":1}')])
    assert status_of(raw) == 200, raw[:300]


@pytest.fixture(scope="module")
def pooled(start_extra_project):
    return start_extra_project("http-slow-pool",
                               env={"SNM_HTTP_REQUEST_TIMEOUT": str(POOL_TIMEOUT)})


def test_slow_uploads_do_not_hold_the_workers(pooled):
    """36 uploads by a signed-in user (anyone may sign up), each sending a byte every 0.5 s: a
    fresh REST request is answered while they are all still open (before: never, every worker
    waited on one), and they get 408 at the request timeout (before: never, each byte renewed the
    wait). (The anon key's forms are now refused by their head: see the test after this one.)"""
    project = pooled
    user = str(uuid.uuid4())
    token = mint(jwt_secret(project), user_claims(user))

    def fresh_request():
        with socket.create_connection(("127.0.0.1", project.port), timeout=3 * POOL_TIMEOUT) as fresh:
            fresh.sendall(f"GET /rest/v1/dog_profile?select=id&limit=1 HTTP/1.1\r\nHost: x\r\n"
                          f"apikey: {project.anon_key}\r\nConnection: close\r\n\r\n".encode())
            return answer(fresh, 3 * POOL_TIMEOUT)

    assert status_of(fresh_request()) == 200  # the REST pool warmed up before the attack
    boundary = b"slow" + uuid.uuid4().hex.encode()
    body = form(boundary, [("cacheControl", b"60")])
    uploaders = []
    for _ in range(SLOW):
        connection = socket.create_connection(("127.0.0.1", project.port), timeout=10)
        connection.sendall((
            f"POST /storage/v1/object/dog-photos/{user}/{uuid.uuid4().hex[:8]}.png HTTP/1.1\r\n"
            f"Host: x\r\napikey: {project.anon_key}\r\nAuthorization: Bearer {token}\r\n"
            f"Expect: 100-continue\r\n"
            f"Content-Type: multipart/form-data; boundary={boundary.decode()}\r\n"
            f"Content-Length: {len(body)}\r\n\r\n").encode())
        uploaders.append(connection)
    answers = {connection: b"" for connection in uploaders}
    try:
        stop = threading.Event()

        def trickle():
            sent = 0
            while not stop.is_set() and sent < len(body) and sent < 4 * POOL_TIMEOUT * 2:
                for connection in uploaders:
                    try:
                        connection.sendall(body[sent:sent + 1])
                    except OSError:
                        pass
                sent += 1
                stop.wait(0.5)

        thread = threading.Thread(target=trickle, daemon=True)
        thread.start()
        # Each (trickling) waits for its 100 Continue: the head was accepted, the body may come.
        deadline = time.monotonic() + 10
        for connection in uploaders:
            while b"\r\n\r\n" not in answers[connection] and time.monotonic() < deadline:
                connection.settimeout(max(0.01, deadline - time.monotonic()))
                try:
                    answers[connection] += connection.recv(4096)
                except socket.timeout:
                    break
        started = time.perf_counter()
        raw = fresh_request()
        took = time.perf_counter() - started
        # Nothing but 100 Continue has come to any slow uploader yet.
        finals = 0
        for connection in uploaders:
            connection.setblocking(False)
            try:
                answers[connection] += connection.recv(65536)
            except (BlockingIOError, OSError):
                pass
            connection.setblocking(True)
            if answers[connection].count(b"HTTP/1.1 ") > 1:
                finals += 1
        print(f"\na fresh request while {SLOW} uploads trickle: {took * 1000:.1f} ms")
        assert status_of(raw) == 200, raw[:200]
        assert finals == 0, "the fresh request was answered only once slow uploads ended"
        # At the request timeout each slow upload gets 408 (and the trickle stops).
        for connection in uploaders:
            answers[connection] += answer(connection, 3 * POOL_TIMEOUT)
        stop.set()
        thread.join(timeout=10)
        statuses = [status_of(answers[c].split(b"\r\n\r\n", 1)[1]) for c in uploaders]
        assert statuses == [408] * SLOW, statuses
    finally:
        for connection in uploaders:
            connection.close()


def test_a_form_the_caller_may_not_write_is_refused_by_its_head(slow):
    """Storage decides the right to upload from the bucket and name in the path before it reads
    the body: the anon key's form to dog-photos (only users write there) gets 403 instead of
    100 Continue (before: 100 Continue, and the body was read until its file part began)."""
    boundary = b"b" + uuid.uuid4().hex.encode()
    body = form(boundary, [("cacheControl", b"60")])
    head = (f"POST /storage/v1/object/dog-photos/anon/{uuid.uuid4().hex[:8]}.png HTTP/1.1\r\n"
            f"Host: x\r\napikey: {slow.anon_key}\r\nExpect: 100-continue\r\n"
            f"Content-Type: multipart/form-data; boundary={boundary.decode()}\r\n"
            f"Content-Length: {len(body)}\r\n\r\n").encode()
    with socket.create_connection(("127.0.0.1", slow.port), timeout=10) as connection:
        connection.sendall(head)
        # The first answer to the head alone (no body sent): 100 Continue or the refusal.
        raw = b""
        connection.settimeout(3 * REQUEST_TIMEOUT)
        while b"\r\n\r\n" not in raw:
            chunk = connection.recv(65536)
            assert chunk, raw
            raw += chunk
        if status_of(raw) != 100:
            raw += answer(connection, 3 * REQUEST_TIMEOUT)
    assert status_of(raw) == 400, raw[:300]
    refusal = json.loads(raw.partition(b"\r\n\r\n")[2])
    assert refusal["statusCode"] == "403", refusal
    assert "row-level security" in refusal["message"], refusal


def test_a_form_longer_than_its_bucket_allows_is_refused_by_its_head(slow):
    """dog-photos takes 10 MiB: a form announcing 100 MB is answered before its body is sent
    (before: the server waited for the body, to refuse it once its file part passed the limit)."""
    key = slow.anon_key
    head = (f"POST /storage/v1/object/dog-photos/big/{uuid.uuid4().hex[:8]}.png HTTP/1.1\r\n"
            f"Host: x\r\napikey: {key}\r\nContent-Type: multipart/form-data; boundary=b\r\n"
            "Content-Length: 100000000\r\n\r\n").encode()
    with socket.create_connection(("127.0.0.1", slow.port), timeout=10) as connection:
        connection.sendall(head)
        raw = answer(connection, 3 * REQUEST_TIMEOUT)
    assert too_large(raw) == {
        "statusCode": "413", "code": "EntityTooLarge", "error": "Payload too large",
        "message": "The object exceeded the maximum allowed size"}
