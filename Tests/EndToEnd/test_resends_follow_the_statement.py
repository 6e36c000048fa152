"""Whether a request goes again on a new connection follows what its statement does, not its HTTP
method: `storage ls` and `storage sign` are POSTs that read, and a read whose kept connection the
server closed before any of the answer (HTTP/1.1: closed once it read the request; HTTP/2: a GOAWAY
that did not take its stream, a connection that ended, REFUSED_STREAM) is sent once more on a new
one, as a GET is (curl and browsers do). snm sent neither again (exit 3; after REFUSED_STREAM "a
request that writes is not sent again"; a GOAWAY that did not take it, or a single REFUSED_STREAM,
sent it once more as a write the server did not process). A POST rpc calls a function, which may
write: sent once, as a write is. And a status line cut off by the close after a write said "the
connection closed before a complete answer", nothing of the write: it may have been applied.

The servers are a few lines of Python on a free port (test_writes_sent_once's ClosingServer over
TCP and TLS, test_http2_resets' H2Server).
"""
import pytest

from conftest import run_snm
from test_http2_resets import CODES, H2Server, refused, writes_answered_after_their_body
from test_writes_sent_once import ClosingServer

SIGNED = b'{"signedURL": "/object/sign/avatars/a.png?token=t"}'
# (statement, path, the answer's JSON, part of what snm prints of it with --format ndjson)
READS = [
    ("storage ls avatars", "/storage/v1/object/list/avatars", b'[{"name": "a.png"}]',
     '{"name":"a.png/",'),
    ("storage sign avatars/a.png expires 60", "/storage/v1/object/sign/avatars/a.png", SIGNED,
     "/object/sign/avatars/a.png?token=t"),
]
READ_IDS = ["storage-ls", "storage-sign"]
CALL = "the call may have been applied (a function may write)"


def snm(server, statements, home, *flags):
    return run_snm("--url", server.url, "--key", "the-anon-key", "--format", "ndjson", *flags,
                   "-c", statements, env=home, timeout=60)


def printed(result, prints):
    """Exit 0, the read's answer printed."""
    assert result.returncode == 0, (result.returncode, result.stderr[-300:])
    assert prints in result.stdout, result.stdout[-300:]


@pytest.mark.parametrize("scheme", ["http", "https"])
@pytest.mark.parametrize("statement,path,answer,prints", READS, ids=READ_IDS)
def test_a_post_that_reads_goes_again_when_its_kept_connection_closed_unanswered(
        home, tmp_path, scheme, statement, path, answer, prints):
    """HTTP/1.1 (over TCP, and over TLS through libcurl): the server answers a read, then closes
    the kept connection once it has read the POST whole, nothing answered. The POST reads: it
    goes again on a new connection and is answered (it failed, exit 3, "the connection closed
    before the request was answered")."""
    server = ClosingServer({2}, tmp_path if scheme == "https" else None,
                           body=lambda number: b'[{"n":1}]' if number == 1 else answer)
    try:
        flags = ["--cacert", server.ca] if scheme == "https" else []
        result = snm(server, f"from t select *; {statement}", home, *flags)
        assert server.requests == [("GET", 1), ("POST", 1), ("POST", 2)], \
            (server.requests, result.stderr[-300:])
        printed(result, prints)
    finally:
        server.stop()


def answer_json(h2conn, stream, body):
    h2conn.send_headers(stream, [(":status", "200"), ("content-type", "application/json")])
    h2conn.send_data(stream, body, end_stream=True)


def test_a_post_that_reads_refused_each_time_says_so_as_a_get_does(home, tmp_path):
    """Refused each time: sent as a GET is, 6 times, and said so (not "a request that writes is
    not sent again", after one)."""
    def act(h2conn, stream, send):
        h2conn.reset_stream(stream, error_code=CODES.REFUSED_STREAM)
    server = H2Server(act, tmp_path)
    try:
        refused(snm(server, "storage ls avatars", home, "--cacert", server.ca), server,
                "the answer is not valid HTTP/2 (the stream was reset: REFUSED_STREAM, each of "
                "the 6 times the request was sent)", path="/storage/v1/object/list/avatars")
        assert server.requests == [("h2", "POST")] * 6
    finally:
        server.stop()


@pytest.mark.parametrize("statement,path,answer,prints", READS, ids=READ_IDS)
def test_a_post_that_reads_whose_kept_http2_connection_ended_goes_again(
        home, tmp_path, statement, path, answer, prints):
    """HTTP/2: the server ends the kept connection (no GOAWAY, no reset) on taking the POST's
    stream: sent again on a new connection and answered (exit 3 before: "the connection closed
    before the request was answered")."""
    server = H2Server(None, tmp_path)
    writes_answered_after_their_body(
        server, lambda h2conn, stream: len(server.requests) == 2 and "close",
        lambda h2conn, stream: answer_json(
            h2conn, stream, b'[{"id":1}]' if len(server.requests) == 1 else answer))
    try:
        result = snm(server, f"from t select *; {statement}", home, "--cacert", server.ca)
        assert server.requests == [("h2", "GET"), ("h2", "POST"), ("h2", "POST")], \
            (server.requests, result.stderr[-300:])
        printed(result, prints)
    finally:
        server.stop()


# (statement, method, path, what follows "the connection closed before a complete answer")
CUT = [
    ('from t insert {"a": 1}', "POST", "/rest/v1/t", "; the write may have been applied"),
    ("from t delete where id eq 1", "DELETE", "/rest/v1/t?id=eq.1",
     "; the write may have been applied"),
    ("rpc sum", "POST", "/rest/v1/rpc/sum", f"; {CALL}"),
]


@pytest.mark.parametrize("scheme,says", [
    ("http", b"HTTP/1.1 200 OK\r\nContent-Ty"), ("https", b"HTTP/1.1 200 OK\r\nContent-Ty"),
], ids=["http-fields", "https-fields"])
@pytest.mark.parametrize("statement,method,path,applied", CUT, ids=["insert", "delete", "rpc"])
def test_a_head_cut_off_by_the_close_after_a_write_says_it_may_have_been_applied(
        home, tmp_path, scheme, says, statement, method, path, applied):
    """The server reads the write whole, sends part of a head (its status line and part of its
    fields) and closes: over http:// "the connection closed before a complete answer" said
    nothing of the write, which the server had taken; over https:// libcurl 7.88 took a head cut
    in its fields for a 200 answer without a body (exit 0, the write said done). Sent once, exit
    3, and it may have been applied. (A status line cut before its line's end is nothing
    answered, over both: test_a_status_line_cut_before_its_end_reads_as_nothing_answered.)"""
    server = ClosingServer({1}, tmp_path if scheme == "https" else None, says=says)
    try:
        flags = ["--cacert", server.ca] if scheme == "https" else []
        result = snm(server, statement, home, *flags)
        assert server.requests == [(method, 1)], (server.requests, result.stderr[-300:])
        assert result.returncode == 3, result.stderr[-300:]
        assert result.stderr.endswith(
            f"malformed answer from {server.url}{path}: the connection closed before a complete "
            f"answer{applied}\n"), result.stderr[-300:]
    finally:
        server.stop()


def test_a_head_cut_off_after_a_read_says_so_over_https_as_over_http(home, tmp_path):
    """A read's head cut in its fields says only that over https:// too, as over http://
    (libcurl's 200 without a body was refused as one without the listing), and is sent once:
    the server answered it."""
    server = ClosingServer({1}, tmp_path, says=b"HTTP/1.1 200 OK\r\nContent-Ty")
    try:
        result = snm(server, "storage ls avatars", home, "--cacert", server.ca)
        assert server.requests == [("POST", 1)], (server.requests, result.stderr[-300:])
        assert result.returncode == 3, result.stderr[-300:]
        assert result.stderr.endswith(
            f"malformed answer from {server.url}/storage/v1/object/list/avatars: the connection "
            "closed before a complete answer\n"), result.stderr[-300:]
    finally:
        server.stop()


# (statement, method, path, what a connection closed in the answer's status line says)
STATUS_CUT = [
    ('from t insert {"a": 1}', "POST", "/rest/v1/t",
     "the connection closed before the answer; the write may have been applied"),
    ("rpc sum", "POST", "/rest/v1/rpc/sum", f"the connection closed before the answer; {CALL}"),
    ("storage ls avatars", "POST", "/storage/v1/object/list/avatars",
     "the connection closed before the request was answered"),
]


@pytest.mark.parametrize("statement,method,path,says", STATUS_CUT,
                         ids=["insert", "rpc", "storage-ls"])
def test_a_status_line_cut_before_its_end_reads_as_nothing_answered(
        home, tmp_path, statement, method, path, says):
    """The server reads the request whole, sends `HTTP/1.1 20` and closes. libcurl keeps a status
    line's bytes to itself until its line end and takes them as nothing answered ("Empty reply
    from server"; no option or callback hands them over), so https:// said "the connection closed
    before the answer" where http:// said "... before a complete answer", for the same bytes. The
    plain transport now takes them as libcurl does: the same words over both, exit 3, sent once
    (on a new connection, a read too)."""
    told = []
    for scheme in ("http", "https"):
        server = ClosingServer({1}, tmp_path if scheme == "https" else None, says=b"HTTP/1.1 20")
        try:
            flags = ["--cacert", server.ca] if scheme == "https" else []
            result = snm(server, statement, home, *flags)
            assert server.requests == [(method, 1)], (scheme, server.requests)
            assert result.returncode == 3, (scheme, result.stderr[-300:])
            told.append(result.stderr.replace(server.url, "URL"))
        finally:
            server.stop()
    assert told[0] == told[1], told
    assert told[0].endswith(f"malformed answer from URL{path}: {says}\n"), told[0][-300:]


def test_a_read_whose_kept_connection_closes_in_its_status_line_goes_again(home, tmp_path):
    """A read whose kept connection closes after `HTTP/1.1 20`: libcurl sends it again on a new
    connection (nothing answered, as for a connection closed with no byte), and is answered;
    over http:// it failed, exit 3, "the connection closed before a complete answer". Both now
    send it again."""
    for scheme in ("http", "https"):
        server = ClosingServer({2}, tmp_path if scheme == "https" else None, says=b"HTTP/1.1 20")
        try:
            flags = ["--cacert", server.ca] if scheme == "https" else []
            result = snm(server, "from t select *; from t select *", home, *flags)
            assert result.returncode == 0, (scheme, result.stderr[-300:])
            assert result.stdout == '{"n":1}\n{"n":3}\n', (scheme, result.stdout)
            assert server.requests == [("GET", 1), ("GET", 1), ("GET", 2)], \
                (scheme, server.requests)
        finally:
            server.stop()
