"""The gateway's HTTP/1.1 server: malformed input gets a 4xx and the server keeps serving."""
import json
import socket
import time

import httpx

from hardening import exchange, status_of


def still_serves(project):
    response = httpx.get(f"{project.auth_url}/health", headers={"apikey": project.anon_key})
    assert response.status_code == 200


def test_malformed_requests_get_4xx_and_the_server_lives(project):
    port = project.port
    cases = [
        (b"HELLO\r\n\r\n", 400),
        (b"GET /auth/v1/health HTTP/9.9\r\n\r\n", 505),
        (b"GET /a b HTTP/1.1\r\nHost: x\r\n\r\n", 400),
        (b"GET / HTTP/1.1\r\nBad Header\r\n\r\n", 400),
        (b"GET / HTTP/1.1\r\nX: " + b"a" * 70000 + b"\r\n\r\n", 431),
        (b"POST / HTTP/1.1\r\nContent-Length: 99999999999\r\n\r\n", 413),
        (b"POST / HTTP/1.1\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n", 400),
        (b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n", 400),
    ]
    for data, expected in cases:
        raw = exchange(port, data)
        assert status_of(raw) == expected, (data[:40], raw[:200])
        body = raw.split(b"\r\n\r\n", 1)[1]
        assert json.loads(body)["message"]
        still_serves(project)


def test_keep_alive_chunked_body_and_continue(project):
    headers = (f"apikey: {project.anon_key}\r\nContent-Type: application/json\r\n").encode()
    body = b'{"email":"alice@example.com","password":"wrong-one"}'
    chunked = b"%x\r\n%s\r\n0\r\n\r\n" % (len(body), body)
    data = (b"POST /auth/v1/token?grant_type=password HTTP/1.1\r\nHost: x\r\n" + headers
            + b"Transfer-Encoding: chunked\r\n\r\n" + chunked
            + b"GET /auth/v1/health HTTP/1.1\r\nHost: x\r\n" + headers + b"Connection: close\r\n\r\n")
    raw = exchange(project.port, data)
    assert raw.count(b"HTTP/1.1 ") == 2
    assert raw.startswith(b"HTTP/1.1 400 ") and b"invalid_credentials" in raw
    assert b"HTTP/1.1 200 OK" in raw

    with socket.create_connection(("127.0.0.1", project.port), timeout=5) as connection:
        connection.sendall(b"POST /auth/v1/signup HTTP/1.1\r\nHost: x\r\n" + headers
                           + b"Expect: 100-continue\r\nContent-Length: 2\r\n\r\n")
        assert connection.recv(100).startswith(b"HTTP/1.1 100 Continue")
        connection.sendall(b"{}")
        answer = connection.recv(65536)
        assert answer.startswith(b"HTTP/1.1 200 ") and b"access_token" in answer


def test_many_concurrent_connections(project):
    import concurrent.futures
    def one(_):
        with httpx.Client() as client:
            return [client.get(f"{project.auth_url}/health",
                               headers={"apikey": project.anon_key}).status_code for _ in range(5)]
    with concurrent.futures.ThreadPoolExecutor(max_workers=40) as pool:
        results = [code for codes in pool.map(one, range(80)) for code in codes]
    assert results == [200] * 400


def test_slow_request_times_out_with_408(start_extra_project):
    project = start_extra_project("slow", env={"SNM_HTTP_REQUEST_TIMEOUT": "2"})
    started = time.monotonic()
    raw = exchange(project.port, b"GET /auth/v1/health HTTP/1.1\r\nHost: x\r\n", read_timeout=15)
    assert status_of(raw) == 408
    assert time.monotonic() - started < 12
    still_serves(project)
