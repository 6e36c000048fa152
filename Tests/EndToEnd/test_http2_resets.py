"""The built snm against an HTTP/2 server that resets its streams or closes its connection
(RST_STREAM, GOAWAY; RFC 9113 §6.4, §6.8, §7), over TLS as a hosted project's answers come, and
through nginx's TLS front. libcurl reads HTTP/2 and refuses these before snm sees a line of the
answer; snm says what happened in its own words, with the error code's name (never libcurl's text
or the server's), exit 3, and never sends a request that writes a second time.

The server is a few lines of Python over the `h2` package (scripts/requirements-test.txt).
"""
import os
import signal
import ssl
import subprocess
import threading
import time

import h2.config
import h2.connection
import h2.errors
import h2.events
import h2.exceptions
import pytest

from conftest import SNM, run_snm
from test_hostile_server import HostileServer, json_answer, read_head
from tls_front import TLSFront, make_certificates

CODES = h2.errors.ErrorCodes


class H2Server(HostileServer):
    """HTTP/2 over TLS (ALPN h2) on a free port, answering each request with `act(connection,
    stream_id, send)` (an h2 H2Connection; `send()` sends what it holds now; a true result
    closes the connection); a client that asks HTTP/1.1 (ALPN) gets `[]` over it.
    `requests` lists each request as (protocol, method)."""

    def __init__(self, act, certificates):
        make_certificates(certificates)
        self.context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        self.context.load_cert_chain(certificates / "server.pem", certificates / "server.key")
        self.context.set_alpn_protocols(["h2", "http/1.1"])
        self.ca = str(certificates / "ca.pem")
        self.act = act
        # `on_data(connection, event)` for each DATA frame of a request's body; true closes.
        self.on_data = None
        # `on_end(connection, stream_id)` once a request's body has ended.
        self.on_end = None
        self.requests = []
        self.connections = set()  # the connections requests came on (id of each H2Connection)
        self.times = []  # when each request came (time.monotonic())
        super().__init__(answer=None)
        self.url = f"https://127.0.0.1:{self.port}"

    def _serve(self, raw):
        try:
            with self.context.wrap_socket(raw, server_side=True) as conn:
                if conn.selected_alpn_protocol() != "h2":
                    head = read_head(conn)
                    if head is not None:
                        self.requests.append(("http/1.1", head.split(b" ", 1)[0].decode()))
                        conn.sendall(json_answer(b"[]"))
                    return
                self._speak_h2(conn)
        except (OSError, ssl.SSLError, h2.exceptions.H2Error):
            return

    def _speak_h2(self, conn):
        h2conn = h2.connection.H2Connection(h2.config.H2Configuration(client_side=False))
        h2conn.initiate_connection()
        conn.sendall(h2conn.data_to_send())
        while True:
            data = conn.recv(65536)
            if not data:
                return
            for event in h2conn.receive_data(data):
                if isinstance(event, h2.events.RequestReceived):
                    method = dict(event.headers)[b":method"].decode()
                    self.requests.append(("h2", method))
                    self.connections.add(id(h2conn))
                    self.times.append(time.monotonic())
                    closing = self.act(h2conn, event.stream_id,
                                       lambda: conn.sendall(h2conn.data_to_send()))
                    if closing:  # the act closed the connection: the socket closes too
                        conn.sendall(h2conn.data_to_send())
                        time.sleep(0.2)
                        return
                if isinstance(event, h2.events.DataReceived) and self.on_data is not None:
                    if self.on_data(h2conn, event):
                        conn.sendall(h2conn.data_to_send())
                        time.sleep(0.2)
                        return
                if isinstance(event, h2.events.StreamEnded) and self.on_end is not None:
                    self.on_end(h2conn, event.stream_id)
            conn.sendall(h2conn.data_to_send())


def reset(code):
    return lambda h2conn, stream, send: h2conn.reset_stream(stream, error_code=code)


def reset_in_body(code):
    def act(h2conn, stream, send):
        h2conn.send_headers(stream, [(":status", "200"), ("content-type", "application/json")])
        h2conn.send_data(stream, b'[{"id":1}')
        send()
        time.sleep(0.5)  # the head and the first bytes read before the reset comes
        h2conn.reset_stream(stream, error_code=code)
    return act


def goaway(code):
    return lambda h2conn, stream, send: h2conn.close_connection(error_code=code,
                                                                last_stream_id=0)


def snm_over_h2(server, home, statement="from t select *"):
    return run_snm("--url", server.url, "--key", "the-anon-key", "--format", "json", "--cacert",
                   server.ca, "-c", statement, env=home, timeout=60)


def refused(result, server, says, path="/rest/v1/t?select=%2A"):
    """Exit 3, nothing printed, stderr ending with `says` for the request to `path`."""
    assert result.returncode == 3, (result.returncode, result.stdout, result.stderr[-300:])
    assert result.stdout == ""
    assert result.stderr.endswith(f"malformed answer from {server.url}{path}: {says}\n"), \
        result.stderr[-300:]
    assert "err " not in result.stderr and "closed cleanly" not in result.stderr


@pytest.mark.parametrize("code,name", [
    (CODES.NO_ERROR, "NO_ERROR"), (CODES.INTERNAL_ERROR, "INTERNAL_ERROR"),
    (CODES.FLOW_CONTROL_ERROR, "FLOW_CONTROL_ERROR"), (CODES.STREAM_CLOSED, "STREAM_CLOSED"),
    (CODES.CANCEL, "CANCEL"), (CODES.ENHANCE_YOUR_CALM, "ENHANCE_YOUR_CALM"),
    (CODES.INADEQUATE_SECURITY, "INADEQUATE_SECURITY"), (0x99, "0x99"),
], ids=lambda value: str(value))
def test_a_stream_reset_before_the_answer_is_told_in_snms_words(home, tmp_path, code, name):
    """libcurl's words were printed ("HTTP/2 framing failed (HTTP/2 stream 1 was not closed
    cleanly: CANCEL (err 8))", "... closed cleanly, but before getting  all response header
    fields, treated as error" for NO_ERROR); only PROTOCOL_ERROR read in snm's. Now every code
    reads as PROTOCOL_ERROR does, named by snm (an unknown one in hex), exit 3."""
    server = H2Server(reset(code), tmp_path)
    try:
        result = snm_over_h2(server, home)
        refused(result, server, f"the answer is not valid HTTP/2 (the stream was reset: {name})")
        assert server.requests == [("h2", "GET")]
    finally:
        server.stop()


def test_a_stream_reset_once_the_body_started_is_a_cut_answer(home, tmp_path):
    server = H2Server(reset_in_body(CODES.INTERNAL_ERROR), tmp_path)
    try:
        result = snm_over_h2(server, home)
        refused(result, server, "the answer was cut off (the stream was reset: INTERNAL_ERROR)")
    finally:
        server.stop()


def test_a_write_whose_stream_is_refused_for_http_1_1_is_sent_once(home, tmp_path):
    """libcurl sends a request again over HTTP/1.1 after HTTP_1_1_REQUIRED (the insert went out
    twice, the second answered): the server may have processed the first. A request that writes
    is sent once, and the reset said, exit 3."""
    server = H2Server(reset(CODES.HTTP_1_1_REQUIRED), tmp_path)
    try:
        result = snm_over_h2(server, home, 'from t insert {"a": 1}')
        refused(result, server,
                "the answer is not valid HTTP/2 (the stream was reset: HTTP_1_1_REQUIRED; a "
                "request that writes is not sent again)", path="/rest/v1/t")
        assert server.requests == [("h2", "POST")]
    finally:
        server.stop()


def test_a_write_whose_stream_is_refused_goes_once_more_on_a_new_connection(home, tmp_path):
    """REFUSED_STREAM says the server did not process the request (RFC 9113 §8.7), a write too:
    it failed all the same (exit 3, 'a request that writes is not sent again'; libcurl's own send
    again of it is stopped, as it waited to the timeout now and then). snm sends it once more,
    anew, on a new connection, where it is answered."""
    server = H2Server(None, tmp_path)
    writes_answered_after_their_body(
        server, lambda h2conn, stream: len(server.requests) == 1
        and h2conn.reset_stream(stream, error_code=CODES.REFUSED_STREAM) is None)
    try:
        result = snm_over_h2(server, home, 'from t insert {"a": 1} returning *')
        assert result.returncode == 0, result.stderr[-300:]
        assert server.requests == [("h2", "POST")] * 2 and len(server.connections) == 2
    finally:
        server.stop()


def test_a_write_whose_stream_is_refused_each_time_is_sent_twice_no_more(home, tmp_path):
    """Refused on the new connection too: no third send (libcurl went to 6), and both said."""
    server = H2Server(reset(CODES.REFUSED_STREAM), tmp_path)
    try:
        result = snm_over_h2(server, home, 'from t insert {"a": 1}')
        refused(result, server,
                "the answer is not valid HTTP/2 (the stream was reset: REFUSED_STREAM; the server "
                "did not process the write, sent once more on a new connection, no further)",
                path="/rest/v1/t")
        assert server.requests == [("h2", "POST")] * 2 and len(server.connections) == 2
    finally:
        server.stop()


def test_a_request_whose_body_is_a_file_and_whose_stream_is_refused_says_so(home, tmp_path):
    """A body read from a file as libcurl sends it cannot be read again for the new send libcurl
    makes after REFUSED_STREAM: snm said "could not reach ...: necessary data rewind wasn't
    possible" (exit 3), naming neither the reset nor why the request was not sent again. (The
    stream is refused once its body has come: libcurl must read it again to send it again.) snm
    sends it anew once more, the file read again from its start, on a new connection."""
    server = H2Server(lambda h2conn, stream, send: None, tmp_path)  # the body decides
    server.on_data = lambda h2conn, event: h2conn.reset_stream(
        event.stream_id, error_code=CODES.REFUSED_STREAM)
    body = tmp_path / "r.csv"
    body.write_text("a,b\n1,2\n")
    try:
        result = snm_over_h2(server, home, f"invoke reports put file '{body}'")
        assert result.returncode == 3, result.stderr[-300:]
        assert result.stderr.endswith(
            f"malformed answer from {server.url}/functions/v1/reports: the answer is not valid "
            "HTTP/2 (the stream was reset: REFUSED_STREAM; the server did not process the write, "
            "sent once more on a new connection, no further)\n"), result.stderr[-300:]
        assert server.requests == [("h2", "PUT")] * 2
    finally:
        server.stop()


def test_a_read_whose_stream_is_refused_each_time_says_so(home, tmp_path):
    """A read the server refused (not processed, RFC 9113 §8.7) libcurl sends again, up to 6
    times in all, and snm lets it; when each is refused, snm said "the connection closed before
    a complete answer", which it was not. Each is sent after a pause, 0.1 s doubled each time:
    libcurl sent the five again at once, within milliseconds, to a server refusing them."""
    server = H2Server(reset(CODES.REFUSED_STREAM), tmp_path)
    try:
        result = snm_over_h2(server, home)
        refused(result, server, "the answer is not valid HTTP/2 (the stream was reset: "
                "REFUSED_STREAM, each of the 6 times the request was sent)")
        assert server.requests == [("h2", "GET")] * 6
        gaps = [later - earlier for earlier, later in zip(server.times, server.times[1:])]
        assert all(gap >= 0.1 * 2 ** n for n, gap in enumerate(gaps)), gaps
    finally:
        server.stop()


@pytest.mark.parametrize("code,name", [(CODES.NO_ERROR, "NO_ERROR"),
                                       (CODES.ENHANCE_YOUR_CALM, "ENHANCE_YOUR_CALM"),
                                       (0x99, "0x99")], ids=str)
def test_a_goaway_before_the_answer_is_told_in_snms_words(home, tmp_path, code, name):
    """libcurl gives no words of its own ("HTTP/2 framing failed ()" was printed); the GOAWAY's
    code was left out (a server asking the client to calm down read as any other close)."""
    server = H2Server(goaway(code), tmp_path)
    try:
        result = snm_over_h2(server, home)
        refused(result, server,
                "the answer is not valid HTTP/2 (the connection was closed by GOAWAY before the "
                f"answer: {name})")
    finally:
        server.stop()


def test_an_answer_broken_off_behind_nginx_is_cut_off_in_snms_words(home, tmp_path):
    """nginx resets the HTTP/2 stream (INTERNAL_ERROR) when its upstream's answer breaks off
    after its head: snm printed libcurl's "HTTP/2 stream 1 was not closed cleanly:
    INTERNAL_ERROR (err 2)" inside its own words."""
    def broken(conn):
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                     b"Content-Length: 1000\r\n\r\n[{\"id\":1}")
    upstream = HostileServer(lambda head: broken)
    front = TLSFront(tmp_path / "front", upstream_port=upstream.port)
    try:
        result = run_snm("--url", front.url("main"), "--key", "the-anon-key", "--format",
                         "json", "--cacert", front.ca, "-c", "from t select *", env=home,
                         timeout=60)
        assert result.returncode == 3, (result.returncode, result.stderr[-300:])
        assert result.stdout == ""
        assert result.stderr.endswith(
            "/rest/v1/t?select=%2A: the answer was cut off (the stream was reset: "
            "INTERNAL_ERROR)\n"), result.stderr[-300:]
    finally:
        front.stop()
        upstream.stop()


def answer_rows(h2conn, stream):
    h2conn.send_headers(stream, [(":status", "200"), ("content-type", "application/json")])
    h2conn.send_data(stream, b'[{"id":1}]', end_stream=True)


def writes_answered_after_their_body(server, refuse, answer=answer_rows):
    """Sets `server` to refuse a request where `refuse(h2conn, stream)` is true (it does the
    refusing; "close" closes the connection), and to answer any other with `answer(h2conn,
    stream)` (rows) once its body has ended, as a server that reads a write's body first does
    (answered before its body went out, a POST waited to the timeout now and then: libcurl
    7.88's, the first send as any other)."""
    taken = set()

    def act(h2conn, stream, send):
        refused = refuse(h2conn, stream)
        if not refused:
            taken.add((id(h2conn), stream))
        return refused == "close"

    def on_end(h2conn, stream):
        if (id(h2conn), stream) in taken:
            answer(h2conn, stream)
    server.act = act
    server.on_end = on_end


def goaway_after(code, *, at):
    """The first `at - 1` requests on a connection answered, the `at`-th refused by a GOAWAY
    whose last stream is the one before it (the request went out on a connection the server
    was closing)."""
    def act(h2conn, stream, send):
        if stream < 2 * at - 1:
            return answer_rows(h2conn, stream)
        h2conn.close_connection(error_code=code, last_stream_id=stream - 2)
    return act


def big_write(server, home, tmp_path):
    """snm runs a script inserting a 300 KB row (its body past HTTP/2's first window of 64 KB)."""
    script = tmp_path / "big.snm"
    script.write_text('from t insert {"note": "' + "x" * 300_000 + '"}\n')
    return run_snm("--url", server.url, "--key", "the-anon-key", "--cacert", server.ca,
                   str(script), env=home, timeout=60)


@pytest.mark.parametrize("last", [0, 1], ids=["not taken", "maybe taken"])
@pytest.mark.parametrize("code,name", [(CODES.NO_ERROR, "NO_ERROR"),
                                       (CODES.ENHANCE_YOUR_CALM, "ENHANCE_YOUR_CALM")], ids=str)
def test_a_goaway_during_a_writes_body_is_told_and_the_write_may_have_been_applied(
        home, tmp_path, code, name, last):
    """The server closes the connection with a GOAWAY while a write's body still goes out (its
    stream taken, or not): taken, snm said "the connection closed before a complete answer"
    (libcurl: "Recv failure: Connection reset by peer"), the GOAWAY and its code left out; and
    neither said that the write may have been applied. Taken, it is sent once and may have been
    applied; not taken (the GOAWAY's last stream below its own: not processed, RFC 9113 §8.7),
    it is sent once more on a new connection, and no further."""
    server = H2Server(lambda h2conn, stream, send: None, tmp_path)  # the body decides
    server.on_data = lambda h2conn, event: h2conn.close_connection(error_code=code,
                                                                   last_stream_id=last) or True
    try:
        result = big_write(server, home, tmp_path)
        assert result.returncode == 3, (result.returncode, result.stderr[-300:])
        outcome = ("the server did not process the write, sent once more on a new connection, no "
                   "further" if last == 0 else "the write may have been applied")
        assert result.stderr.endswith(
            f"malformed answer from {server.url}/rest/v1/t: the answer is not valid HTTP/2 (the "
            f"connection was closed by GOAWAY before the answer: {name}; {outcome})\n"), \
            result.stderr[-300:]
        assert server.requests == [("h2", "POST")] * (2 if last == 0 else 1)
    finally:
        server.stop()


def test_a_goaway_after_the_server_took_a_read_is_no_cut_answer(home, tmp_path):
    """A GOAWAY naming the read's stream as taken, then the connection's end, before any of the
    answer: snm said "the answer was cut off (the connection closed before its HTTP/2 stream
    ended)", the GOAWAY's code left out, where nothing of an answer came."""
    def act(h2conn, stream, send):
        h2conn.close_connection(error_code=CODES.ENHANCE_YOUR_CALM, last_stream_id=stream)
        return True
    server = H2Server(act, tmp_path)
    try:
        refused(snm_over_h2(server, home), server,
                "the answer is not valid HTTP/2 (the connection was closed by GOAWAY before the "
                "answer: ENHANCE_YOUR_CALM)")
        assert server.requests == [("h2", "GET")]
    finally:
        server.stop()


def test_a_read_a_goaway_refused_on_a_kept_connection_goes_again_on_a_new_one(home, tmp_path):
    """The server closes a kept connection (GOAWAY: the last stream it took is the one before)
    as the next read goes out on it: that read was not processed (RFC 9113 §6.8), and libcurl
    does not send it again; the statement failed (exit 3) where a browser asks again. It is
    sent once more, on a new connection, and answered."""
    server = H2Server(goaway_after(CODES.NO_ERROR, at=2), tmp_path)
    try:
        result = snm_over_h2(server, home, "from t select *; from t select *")
        assert result.returncode == 0, result.stderr[-300:]
        assert result.stdout == '[\n  {\n    "id": 1\n  }\n]\n' * 2
        assert server.requests == [("h2", "GET")] * 3 and len(server.connections) == 2
    finally:
        server.stop()


def test_an_options_a_goaway_refused_on_a_kept_connection_goes_again_as_over_http(home, tmp_path):
    """OPTIONS, safe as GET and HEAD are (RFC 9110 §9.2.1), on a kept connection the server closes
    with a GOAWAY (the last stream it took the one before): the plain transport sent it again
    on a new connection, libcurl's path did not (exit 3, the statement failed). One rule for both
    (HTTPMethod.maySendAgain): sent once more, answered."""
    server = H2Server(goaway_after(CODES.NO_ERROR, at=2), tmp_path)
    try:
        result = snm_over_h2(server, home, "from t select *; invoke hello options")
        assert result.returncode == 0, result.stderr[-300:]
        assert result.stdout == '[\n  {\n    "id": 1\n  }\n]\n' * 2
        assert server.requests == [("h2", "GET"), ("h2", "OPTIONS"), ("h2", "OPTIONS")]
        assert len(server.connections) == 2
    finally:
        server.stop()


def test_a_read_sent_again_after_a_goaway_has_only_what_is_left_of_its_timeout(home, tmp_path):
    """The read a GOAWAY refused on a kept connection, sent again on a new one, had a whole
    --timeout of its own again: a GOAWAY 25 s into a read given --timeout 30, and a new
    connection that never answers, failed it after 55 s, not 30 (over http:// one deadline bounds
    every send). The statement times out at its --timeout, the read sent twice."""
    def act(h2conn, stream, send):
        if len(server.requests) == 1:
            return answer_rows(h2conn, stream)
        if len(server.requests) == 2:
            time.sleep(25)
            h2conn.close_connection(error_code=CODES.NO_ERROR, last_stream_id=stream - 2)
            return None
        time.sleep(120)  # the new connection never answers
    server = H2Server(act, tmp_path)
    try:
        started = time.monotonic()
        result = run_snm("--url", server.url, "--key", "the-anon-key", "--format", "json",
                         "--cacert", server.ca, "--timeout", "30", "-c",
                         "from t select *; from t select *", env=home, timeout=120)
        elapsed = time.monotonic() - started
        assert result.returncode == 3, result.stderr[-300:]
        assert "(timed out)" in result.stderr, result.stderr[-300:]
        assert server.requests == [("h2", "GET")] * 3 and len(server.connections) == 2
        # 30 s and snm's start; 55 s when the new send had 30 s of its own.
        assert elapsed < 45, elapsed
    finally:
        server.stop()


def test_a_write_a_goaway_refused_on_a_kept_connection_goes_again_on_a_new_one(home, tmp_path):
    """The same GOAWAY for a write (its last stream the one before the write's: the server did
    not process it, RFC 9113 §8.7): it failed, exit 3, 'the write may have been applied', which
    the server had said it was not. It is sent once more, on a new connection, and answered."""
    server = H2Server(None, tmp_path)
    refuse = goaway_after(CODES.ENHANCE_YOUR_CALM, at=2)
    # The GET is answered at once (it has no body), the POST refused by the GOAWAY.
    writes_answered_after_their_body(
        server, lambda h2conn, stream: stream != 1 and refuse(h2conn, stream, None) is None)
    try:
        result = snm_over_h2(server, home, 'from t select *; from t insert {"a": 1} returning *')
        assert result.returncode == 0, result.stderr[-300:]
        assert server.requests == [("h2", "GET"), ("h2", "POST"), ("h2", "POST")]
        assert len(server.connections) == 2
    finally:
        server.stop()


def test_a_write_a_goaway_may_have_taken_on_a_kept_connection_is_sent_once(home, tmp_path):
    """A GOAWAY whose last stream is the write's own (the server took it, and may have applied
    it) and the connection's end: sent once, and that it may have been applied."""
    def act(h2conn, stream, send):
        if len(server.requests) == 1:
            return answer_rows(h2conn, stream)
        h2conn.close_connection(error_code=CODES.ENHANCE_YOUR_CALM, last_stream_id=stream)
        return True
    server = H2Server(act, tmp_path)
    try:
        result = snm_over_h2(server, home, 'from t select *; from t insert {"a": 1}')
        assert result.returncode == 3, result.stderr[-300:]
        assert result.stderr.endswith(
            f"malformed answer from {server.url}/rest/v1/t: the connection closed before the "
            "answer; the write may have been applied\n"), result.stderr[-300:]
        assert server.requests == [("h2", "GET"), ("h2", "POST")]
    finally:
        server.stop()


def test_ctrl_c_during_the_pause_after_refused_stream_sends_nothing_more(home, tmp_path):
    """SIGINT while snm waits before sending a refused read again (1.6 s after the fifth): the
    pause ended at once, and the read went out a sixth time all the same before snm stopped.
    Now nothing more is sent; exit 130."""
    process = {}

    def act(h2conn, stream, send):
        h2conn.reset_stream(stream, error_code=CODES.REFUSED_STREAM)
        if len(server.requests) == 5:
            send()
            time.sleep(0.1)  # snm reads the reset and waits 1.6 s
            process["snm"].send_signal(signal.SIGINT)
    server = H2Server(act, tmp_path)
    try:
        process["snm"] = subprocess.Popen(
            [SNM, "--url", server.url, "--key", "k", "--cacert", server.ca, "-c",
             "from t select *"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            env={**os.environ, **home})
        _, stderr = process["snm"].communicate(timeout=60)
        assert process["snm"].returncode == 130, stderr[-300:]
        time.sleep(2)  # past the pause: a sixth request would have come by now
        assert server.requests == [("h2", "GET")] * 5
    finally:
        server.stop()
