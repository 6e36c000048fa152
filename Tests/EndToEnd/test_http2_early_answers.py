"""A server (a gateway) that answers a write over HTTP/2 at its head, while the request's body
still goes out: a 413 for an upload past its limit, a 401, ending its side of the stream
(END_STREAM) with no reset, and reading no more of the body. libcurl 7.88 stops sending then but
leaves its own side open, and waited for the stream's end to the whole --timeout ("timed out",
exit 3; 8 of 8 runs here, curl issue 15316, fixed in 8.11; Debian 12 has 7.88). snm now reports
the server's answer, exit 1, and says that the body was not sent whole; the answer's body is read
when its head gives its length, and not waited for when it does not (nothing else says where it
ends). The server is test_http2_resets' H2Server: it never acknowledges the body's DATA, so no
more than HTTP/2's first window (64 KB) of a 300 KB body goes out.
"""
import pytest

from conftest import run_snm
from test_http2_resets import CODES, H2Server

NOT_SENT = ("the server answered before the request's body was sent whole: the rest of it was not "
            "sent")
NOT_WAITED = ", and the answer's body (of no stated length) was not waited for"


def answering_at_the_head(status, body, length):
    """Answers each request at its HEADERS with `status` and the JSON `body`, END_STREAM, no
    reset; with a `content-length` when `length`."""
    def act(h2conn, stream, send):
        fields = [(":status", str(status)), ("content-type", "application/json")]
        if length:
            fields.append(("content-length", str(len(body))))
        h2conn.send_headers(stream, fields)
        h2conn.send_data(stream, body, end_stream=True)
    return act


def snm_sending(server, home, tmp_path, statement):
    """snm with a 10 s --timeout (main's binary waited all of it) runs `statement`, `{big}` in it
    standing for a 300 KB file (an insert's note, or an upload)."""
    big = tmp_path / "big.txt"
    big.write_text("x" * 300_000)
    script = tmp_path / "early.snm"
    script.write_text(statement.format(big=big, note="x" * 300_000) + "\n")
    return run_snm("--url", server.url, "--key", "the-anon-key", "--cacert", server.ca,
                   "--timeout", "10", str(script), env=home, timeout=60)


WRITES = [
    ('from t insert {{"note": "{note}"}}', "POST", "/rest/v1/t"),
    ("storage upload '{big}' to avatars/big.txt", "POST", "/storage/v1/object/avatars/big.txt"),
]


@pytest.mark.parametrize("statement,method,path", WRITES, ids=["insert", "upload"])
@pytest.mark.parametrize("status,message,exit_code", [
    (413, "Payload too large", 1), (401, "Invalid key", 3)], ids=["413", "401"])
def test_an_answer_at_the_head_of_no_stated_length_is_the_servers_answer(
        home, tmp_path, statement, method, path, status, message, exit_code):
    """Exit 1 for the 413, 3 for the 401 (a key refused), as the answer's status says."""
    server = H2Server(answering_at_the_head(
        status, b'{"message":"%s"}' % message.encode(), length=False), tmp_path)
    try:
        result = snm_sending(server, home, tmp_path, statement)
        assert result.returncode == exit_code, (result.returncode, result.stderr[-400:])
        assert f"error (HTTP {status}): no message\n  note: {NOT_SENT}{NOT_WAITED}\n" in \
            result.stderr, result.stderr[-400:]
        assert server.requests == [("h2", method)]
    finally:
        server.stop()


@pytest.mark.parametrize("statement,method,path", WRITES, ids=["insert", "upload"])
def test_an_answer_at_the_head_with_its_length_is_read_whole(
        home, tmp_path, statement, method, path):
    server = H2Server(answering_at_the_head(
        413, b'{"message":"Payload too large"}', length=True), tmp_path)
    try:
        result = snm_sending(server, home, tmp_path, statement)
        assert result.returncode == 1, (result.returncode, result.stderr[-400:])
        assert f"error (HTTP 413): Payload too large\n  note: {NOT_SENT}\n" in result.stderr, \
            result.stderr[-400:]
        assert server.requests == [("h2", method)]
    finally:
        server.stop()


def answering_at_the_head_and_closing(status, body):
    """Answers each request at its HEADERS with `status` and the JSON `body` (its length given),
    END_STREAM, then closes the stream with RST_STREAM NO_ERROR: RFC 9113 §8.1's way of saying
    the answer is whole and the rest of the request's body is not wanted, as nginx and Envoy
    answer an upload past their limit."""
    def act(h2conn, stream, send):
        h2conn.send_headers(stream, [(":status", str(status)),
                                     ("content-type", "application/json"),
                                     ("content-length", str(len(body)))])
        h2conn.send_data(stream, body, end_stream=True)
        h2conn.reset_stream(stream, error_code=CODES.NO_ERROR)
    return act


DROPPED = ("the server answered before the request's body was sent whole and closed its HTTP/2 "
           "stream (RST_STREAM NO_ERROR): the rest of it was not sent, and libcurl 7.88 keeps "
           "nothing of such an answer but its status (its fields and body, the server's message "
           "among them, were not read)")


@pytest.mark.parametrize("statement,method,path", WRITES, ids=["insert", "upload"])
@pytest.mark.parametrize("status,message,exit_code", [
    (413, "Payload too large", 1), (401, "Invalid key", 3)], ids=["413", "401"])
def test_an_answer_at_the_head_then_a_reset_with_no_error_is_the_servers_answer(
        home, tmp_path, statement, method, path, status, message, exit_code):
    """libcurl 7.88 drops such an answer (its head never handed over) and fails with no words of
    its own; snm said "the server closed the HTTP/2 stream before the request was sent whole, and
    no answer was read", exit 3, for an answer the server gave. libcurl keeps the answer's status
    from its frame (its store of heads, `curl_easy_header`'s `:status`): the answer is the
    server's, its status decides the exit code (1 for the 413, 3 for the 401, a key refused), and
    the note says what of it was lost."""
    server = H2Server(answering_at_the_head_and_closing(
        status, b'{"message":"%s"}' % message.encode()), tmp_path)
    try:
        result = snm_sending(server, home, tmp_path, statement)
        assert result.returncode == exit_code, (result.returncode, result.stderr[-500:])
        assert f"error (HTTP {status}): no message\n  note: {DROPPED}\n" in result.stderr, \
            result.stderr[-500:]
        assert server.requests == [("h2", method)]
    finally:
        server.stop()


def test_a_2xx_answer_at_the_head_then_a_reset_with_no_error_is_told_not_taken(home, tmp_path):
    """A 201 so: its body (the rows a `returning *` asks for) is lost with the head, so snm cannot
    print what the server said; it fails (exit 3) saying the server answered 201, what libcurl
    kept of it, and that the write may have been applied. Main's binary said no answer was read."""
    server = H2Server(answering_at_the_head_and_closing(201, b'[{"id":1}]'), tmp_path)
    try:
        result = snm_sending(server, home, tmp_path,
                             'from t insert {{"note": "{note}"}} returning *')
        assert result.returncode == 3, (result.returncode, result.stderr[-500:])
        assert result.stdout == ""
        assert result.stderr.endswith(
            f"malformed answer from {server.url}/rest/v1/t?select=%2A: the server answered (HTTP "
            "201) before the request's body was sent whole and closed its HTTP/2 stream "
            "(RST_STREAM NO_ERROR): libcurl 7.88 keeps nothing of such an answer but its status "
            "(its fields and body were not read); the write may have been applied\n"), \
            result.stderr[-500:]
        assert server.requests == [("h2", "POST")]
    finally:
        server.stop()


@pytest.mark.parametrize("statement,method,path", WRITES, ids=["insert", "upload"])
def test_a_2xx_answer_at_the_head_that_reads_no_more_of_the_body_times_out_saying_so(
        home, tmp_path, statement, method, path):
    """A 200 at the head, END_STREAM, no reset, and no more of the body read: libcurl 7.88 sends
    on after a 2xx (the server may read the rest yet: a stream both ways), so the request waits
    to its --timeout, as it should; but snm said "no answer from URL within 10 s", where the
    server had answered. The timeout now says that it answered, with its status, before the
    body was sent whole."""
    server = H2Server(answering_at_the_head(200, b'[]', length=True), tmp_path)
    try:
        result = snm_sending(server, home, tmp_path, statement)
        assert result.returncode == 3, (result.returncode, result.stderr[-500:])
        told = (f"{server.url}{path} answered (HTTP 200) before the request's body was sent "
                "whole, and read no more of the body within 10 s (timed out; the request may "
                "have been applied)\n")
        assert told in result.stderr, result.stderr[-500:]
        assert server.requests == [("h2", method)]
    finally:
        server.stop()
