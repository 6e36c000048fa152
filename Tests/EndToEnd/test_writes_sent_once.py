"""A write (POST, PUT, PATCH, DELETE) is never sent a second time by snm or libcurl unless the
user asks: a kept connection that closes once the server has read the write, with nothing
answered, fails it (exit 3) saying that it may have been applied, never that it was not. A read
may go again on a new connection, as before.

Both transports sent the write again on a new connection (snm's over http://; libcurl's
"Connection died, retrying a fresh connect" over https://), so a server that applied it and then
closed without answering got it twice. The servers here are a few lines of Python on a free port:
HTTP/1.1 over TCP and over TLS, and HTTP/2 over TLS (test_http2_resets' H2Server).
"""
import os
import shutil
import socket
import ssl
import struct
import subprocess
import threading
import time

import pytest

from conftest import SNM, run_snm
from test_hostile_server import HostileServer, json_answer, read_request
from test_http2_resets import H2Server, answer_rows
from tls_front import TLSFront, make_certificates

UNANSWERED = "the connection closed before the answer; the write may have been applied"


class ClosingServer(HostileServer):
    """Serves request after request on each connection (keep-alive; a body read by its
    Content-Length), answering the Nth request over all connections `[{"n":N}]`, and closing the
    connection without a byte of answer once it has read whole each request numbered in
    `unanswered` (or with `says` alone: a status line cut off). Over TLS (HTTP/1.1) with
    `certificates`. `requests` lists (method, the connection's number from 1) of each request;
    `body(number)` is the JSON each answered one gets."""

    def __init__(self, unanswered, certificates=None, says=b"",
                 body=lambda number: b'[{"n":%d}]' % number):
        self.unanswered = unanswered
        self.says = says
        self.body = body
        self.requests = []
        self.connections = 0
        self.lock = threading.Lock()
        self.context = None
        if certificates is not None:
            make_certificates(certificates)
            self.context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            self.context.load_cert_chain(certificates / "server.pem", certificates / "server.key")
            self.ca = str(certificates / "ca.pem")
        super().__init__(answer=None)
        if certificates is not None:
            self.url = f"https://127.0.0.1:{self.port}"

    def _serve(self, conn):
        if self.context is not None:
            try:
                conn = self.context.wrap_socket(conn, server_side=True)
            except (OSError, ssl.SSLError):
                conn.close()
                return
        with self.lock:
            self.connections += 1
            connection = self.connections
        with conn:
            data = b""
            while True:
                try:
                    request = read_request(conn, data)
                    if request is None:
                        return
                    head, _, data = request
                    with self.lock:
                        self.requests.append((head.split(b" ", 1)[0].decode(), connection))
                        number = len(self.requests)
                    if number in self.unanswered:
                        conn.sendall(self.says)
                        return  # read whole, and closed with nothing (or `says`) answered
                    conn.sendall(json_answer(self.body(number)))
                except (OSError, ssl.SSLError):
                    return


class ResettingServer(ClosingServer):
    """ClosingServer answering every request, whose first connection, once its first request is
    answered (and kept by the client), is reset when `reset` is set: closed with SO_LINGER 0, an
    RST and no FIN, as a server or a box between drops an idle connection."""

    def __init__(self):
        self.reset = threading.Event()
        super().__init__(set())

    def _serve(self, conn):
        with self.lock:
            first = self.connections == 0
            if first:
                self.connections = 1
        if not first:
            return super()._serve(conn)
        request = read_request(conn)
        if request is None:
            return conn.close()
        with self.lock:
            self.requests.append((request[0].split(b" ", 1)[0].decode(), 1))
        conn.sendall(json_answer(b'[{"n":1}]'))
        self.reset.wait(60)
        conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        conn.close()


@pytest.mark.skipif(shutil.which("strace") is None, reason="strace holds snm's send")
def test_a_write_not_a_byte_of_which_left_goes_again_on_a_new_connection(home, tmp_path):
    """The server resets a kept connection after snm's idle check and before its write goes out
    (strace holds each send(2) 3 s as it starts; the reset comes once the write's send began):
    the kernel takes not a byte of it (ECONNRESET), so nothing reached the server. snm failed it
    (exit 3, "the write may have been applied": honest, but not so); it goes again on a new
    connection, once, and is answered. (A byte taken would have been no such proof.)"""
    server = ResettingServer()
    trace = tmp_path / "sends.log"
    environment = dict(os.environ, **home)
    process = subprocess.Popen(
        ["strace", "-f", "-qq", "-e", "signal=none", "-e", "trace=sendto", "-e",
         "inject=sendto:delay_enter=3000000", "-o", str(trace), SNM, "--url", server.url,
         "--key", "k", "--format", "ndjson", "-c",
         'from t select *; from t insert {"a": 1}'],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=environment)
    try:
        # The write's send(2) has begun (strace writes a call as it starts), held 3 s.
        deadline = time.monotonic() + 60
        while '"POST ' not in (trace.read_text() if trace.exists() else ""):
            assert process.poll() is None and time.monotonic() < deadline, process.poll()
            time.sleep(0.01)
        server.reset.set()
        out, err = process.communicate(timeout=60)
        assert process.returncode == 0, err[-300:]
        assert out == '{"n":1}\n{"n":2}\n'
        assert server.requests == [("GET", 1), ("POST", 2)], server.requests
        # The first send of the write was refused whole (the reset had come), the next one taken.
        sends = [line for line in trace.read_text().splitlines() if '"POST ' in line]
        assert len(sends) == 2 and "= -1 ECONNRESET" in sends[0], sends
    finally:
        server.reset.set()
        if process.poll() is None:
            process.kill()
            process.wait()
        server.stop()


@pytest.mark.parametrize("scheme", ["http", "https"])
def test_a_write_whose_kept_connection_closes_unanswered_is_sent_once(home, tmp_path, scheme):
    """The server closes the kept connection on the second request (a read) and on the fourth (a
    write), each read whole. The read goes again on a new connection and is answered; the write
    is not sent again: exit 3, saying it may have been applied. (Both schemes sent it again on a
    third connection, answered there: exit 0, the POST received twice.)"""
    server = ClosingServer({2, 4}, tmp_path if scheme == "https" else None)
    try:
        flags = ["--cacert", server.ca] if scheme == "https" else []
        result = run_snm("--url", server.url, "--key", "k", "--format", "ndjson", *flags, "-c",
                         'from t select *; from t select *; from t insert {"a": 1}; '
                         "from t select *", env=home, timeout=60)
        assert server.requests == [("GET", 1), ("GET", 1), ("GET", 2), ("POST", 2)], \
            (server.requests, result.stderr[-300:])
        assert result.returncode == 3, result.stderr[-300:]
        assert result.stdout == '{"n":1}\n{"n":3}\n'
        assert result.stderr.endswith(
            f"malformed answer from {server.url}/rest/v1/t: {UNANSWERED}\n"), result.stderr[-300:]
    finally:
        server.stop()


@pytest.mark.parametrize("statement,method", [
    ('from t insert {"a": 1}', "POST"), ('from t update {"a": 2} where id eq 1', "PATCH"),
], ids=["insert", "update"])
def test_a_write_with_a_body_is_sent_once_over_http2_when_its_connection_closes_unanswered(
        home, tmp_path, statement, method):
    """HTTP/2: the server closes the kept connection (no GOAWAY, no reset) on taking the
    write's stream. libcurl sent a write with a body again on a new connection (one without,
    a delete, it did not: "its stream ended without one; the write may have been applied").
    Sent once, exit 3, that it may have been applied."""
    def act(h2conn, stream, send):
        if len(server.requests) == 2:
            return True  # the connection closes, the stream unanswered
        answer_rows(h2conn, stream)
    server = H2Server(act, tmp_path)
    try:
        result = run_snm("--url", server.url, "--key", "k", "--format", "json", "--cacert",
                         server.ca, "-c", f"from t select *; {statement}", env=home, timeout=60)
        assert server.requests == [("h2", "GET"), ("h2", method)], \
            (server.requests, result.stderr[-300:])
        assert result.returncode == 3, result.stderr[-300:]
        assert result.stderr.endswith(f"{UNANSWERED}\n"), result.stderr[-300:]
    finally:
        server.stop()


@pytest.mark.parametrize("statement,method", [
    ('from t insert {"a": 1}', "POST"), ('from t update {"a": 2} where id eq 1', "PATCH"),
    ('from t upsert {"id": 1}', "POST"),
], ids=["insert", "update", "upsert"])
def test_a_write_the_nginx_front_got_no_answer_for_says_it_may_have_been_applied(
        home, tmp_path, statement, method):
    """The hosted path: nginx (HTTP/2, TLS) in front of the gateway, as the https tests start it,
    its upstream connections kept (`keepalive 8`). The upstream closes the kept connection once
    it has read the write, with nothing answered. nginx does not send a POST or PATCH again
    (proxy_next_upstream leaves non-idempotent requests alone) and answers 502 with its HTML
    page: the write reached the upstream once. snm printed that page and nothing about the write
    (exit 1); it now says it may have been applied. (A DELETE, idempotent to nginx, it sends again
    on a new upstream connection itself, so the upstream gets it twice: no client can tell.)"""
    server = ClosingServer({2})
    front = TLSFront(tmp_path / "front", upstream_port=server.port)
    try:
        result = run_snm("--url", front.url("main"), "--key", "k", "--cacert", front.ca,
                         "--format", "ndjson", "-c", f"from t select *; {statement}", env=home,
                         timeout=60)
        assert server.requests == [("GET", 1), (method, 1)], \
            (server.requests, result.stderr[-300:])
        assert result.returncode == 1, result.stderr[-300:]
        assert "error (HTTP 502): <html>" in result.stderr, result.stderr[-300:]
        assert result.stderr.endswith(
            "  advice: a gateway in front of the project had no answer from it (HTTP 502): the "
            "write may have been applied; look before sending it again\n"), result.stderr[-300:]
    finally:
        front.stop()
        server.stop()
