"""A connection that closes before a byte of the answer (no status line; an HTTP/2 stream ended
or reset before its head) is worded by what the statement does, not by its HTTP method, over each
transport: HTTP/1.1 over TCP (snm's plain client), HTTP/1.1 over TLS and HTTP/2 over TLS
(libcurl). `storage ls` and `storage sign` are POSTs that read: snm said "the write may have been
applied" after them; they now say the request was not answered. A POST `rpc` runs a function,
which may write: it said the write may have been applied, it now says the call may have been. A
GET said "the connection closed before a complete answer" (the words of an answer cut off in its
head), it now says the request was not answered. An HTTP/2 stream reset before the answer (any
code but REFUSED_STREAM) said nothing of a write or a call: each now says it may have been
applied. Each request is sent once. The servers are a few lines of Python on a free port
(test_writes_sent_once's ClosingServer, test_http2_resets' H2Server).
"""
import pytest

from conftest import run_snm
from test_http2_resets import CODES, H2Server
from test_writes_sent_once import ClosingServer

NOT_ANSWERED = "the connection closed before the request was answered"
CALL = ("the connection closed before the answer; the call may have been applied (a function may "
        "write)")
WRITE = "the connection closed before the answer; the write may have been applied"

# (statement, method, path, what a closed connection before its answer says)
STATEMENTS = [
    ("storage ls avatars", "POST", "/storage/v1/object/list/avatars", NOT_ANSWERED),
    ("storage sign avatars/a.png expires 60", "POST", "/storage/v1/object/sign/avatars/a.png",
     NOT_ANSWERED),
    ("rpc sum", "POST", "/rest/v1/rpc/sum", CALL),
    ("rpc get sum", "GET", "/rest/v1/rpc/sum", NOT_ANSWERED),
    ("from todos select id", "GET", "/rest/v1/todos?select=id", NOT_ANSWERED),
]
IDS = ["storage-ls", "storage-sign", "rpc", "rpc-get", "select"]
# A write says it may have been applied, as before (test_writes_sent_once); reset, so does a call.
RESET = [STATEMENTS[2], ('from todos insert {"title": "x"}', "POST", "/rest/v1/todos", WRITE)]


def snm_against(server, statement, home, *flags):
    return run_snm("--url", server.url, "--key", "the-anon-key", "--format", "json", *flags,
                   "-c", statement, env=home, timeout=60)


def closed(result, server, path, says):
    """Exit 3, nothing printed, stderr ending with `says` for the request to `path`."""
    assert result.returncode == 3, (result.returncode, result.stdout, result.stderr[-300:])
    assert result.stdout == ""
    assert result.stderr.endswith(f"malformed answer from {server.url}{path}: {says}\n"), \
        result.stderr[-300:]


@pytest.mark.parametrize("scheme", ["http", "https"])
@pytest.mark.parametrize("statement,method,path,says", STATEMENTS, ids=IDS)
def test_a_connection_closed_before_the_answer_says_what_the_statement_may_have_done(
        home, tmp_path, scheme, statement, method, path, says):
    """HTTP/1.1: the server reads the request whole and closes the connection, not a byte
    answered."""
    server = ClosingServer({1}, tmp_path if scheme == "https" else None)
    try:
        flags = ["--cacert", server.ca] if scheme == "https" else []
        result = snm_against(server, statement, home, *flags)
        closed(result, server, path, says)
        assert server.requests == [(method, 1)], (server.requests, result.stderr[-300:])
    finally:
        server.stop()


@pytest.mark.parametrize("statement,method,path,says", STATEMENTS, ids=IDS)
def test_an_http2_stream_ended_before_the_answer_says_what_the_statement_may_have_done(
        home, tmp_path, statement, method, path, says):
    """HTTP/2: the server closes the connection on taking the request's stream, with nothing
    answered (no GOAWAY, no reset)."""
    server = H2Server(lambda h2conn, stream, send: True, tmp_path)
    try:
        result = snm_against(server, statement, home, "--cacert", server.ca)
        closed(result, server, path, says)
        assert server.requests == [("h2", method)], (server.requests, result.stderr[-300:])
    finally:
        server.stop()


@pytest.mark.parametrize("statement,method,path,says", RESET, ids=["rpc", "insert"])
def test_an_http2_stream_reset_before_the_answer_says_what_the_statement_may_have_done(
        home, tmp_path, statement, method, path, says):
    """HTTP/2: the server resets the request's stream (INTERNAL_ERROR) before its answer's head.
    Only REFUSED_STREAM says the server did not process it (RFC 9113 §8.7): after any other code
    a write may have been applied, and a function's call (snm said neither)."""
    server = H2Server(lambda h2conn, stream, send: h2conn.reset_stream(
        stream, error_code=CODES.INTERNAL_ERROR), tmp_path)
    try:
        result = snm_against(server, statement, home, "--cacert", server.ca)
        applied = says.partition("; ")[2]
        closed(result, server, path, "the answer is not valid HTTP/2 (the stream was reset: "
               "INTERNAL_ERROR" + (f"; {applied}" if applied else "") + ")")
        assert server.requests == [("h2", method)], (server.requests, result.stderr[-300:])
    finally:
        server.stop()
