"""snm's Realtime statements offline (explain, snm check, help) and against servers that break
the WebSocket or Phoenix protocol: each ends the statement with an error saying which, exit 1,
never a crash. (The statements against the local project's Realtime: test_realtime_shell.py.)

The hostile server is a few lines of Python on a free port (the local project would never answer
so); it answers the upgrade, reads the client's masked join and sends back what the case says.
"""
import base64
import hashlib
import json
import os
import socket
import struct
import subprocess
import sys
import threading

import pytest

from conftest import run_snm

OFFLINE = {"SUPABASE_URL": "", "SUPABASE_ANON_KEY": "secret-anon-key-value"}
GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


def test_explain_shows_the_join_message_and_the_swift_calls(snm_bin):
    result = run_snm("explain", "--json", "listen todos insert where owner eq 'bob'", env=OFFLINE)
    assert result.returncode == 0, result.stderr
    explained = json.loads(result.stdout)
    assert explained["socket"] == "ws://127.0.0.1:54321/realtime/v1/websocket?vsn=2.0.0"
    join = explained["messages"][0]
    assert join[2:4] == ["realtime:todos", "phx_join"]
    assert join[4]["config"]["postgres_changes"] == [
        {"event": "INSERT", "schema": "public", "table": "todos", "filter": "owner=eq.bob"}]
    assert join[4]["access_token"] == "$TOKEN"
    assert "secret-anon-key-value" not in result.stdout
    assert ('channel.postgresChange(InsertAction.self, schema: "public", table: "todos", '
            'filter: "owner=eq.bob")') in explained["swift"]


def test_check_refuses_an_or_in_a_realtime_filter_with_a_caret(snm_bin, tmp_path):
    script = tmp_path / "listen.snm"
    script.write_text("listen todos where done eq true or id eq 1\n")
    result = run_snm("check", str(script), env=OFFLINE)
    assert result.returncode == 2
    assert "listen.snm:1:20: error: a Realtime filter joins conditions with 'and' only" in \
        result.stderr
    assert "                   ^~~~" in result.stderr


def test_help_realtime_lists_the_statements(snm_bin, home):
    result = run_snm("--url", "http://127.0.0.1:9", "--key", "k", "-c", "help realtime", env=home)
    assert result.returncode == 0, result.stderr
    for statement in ("listen channel room1", "broadcast room1 cursor", "expect event",
                      "unlisten"):
        assert statement in result.stdout


def frame(opcode, payload, fin=True):
    """A server frame (unmasked)."""
    head = bytes([(0x80 if fin else 0) | opcode])
    if len(payload) < 126:
        head += bytes([len(payload)])
    elif len(payload) < 65536:
        head += bytes([126]) + struct.pack(">H", len(payload))
    else:
        head += bytes([127]) + struct.pack(">Q", len(payload))
    return head + payload


def read_client_frame(conn):
    """One masked client frame's payload."""
    def exactly(count):
        data = b""
        while len(data) < count:
            chunk = conn.recv(count - len(data))
            if not chunk:
                raise EOFError
            data += chunk
        return data
    first, second = exactly(2)
    length = second & 0x7F
    if length == 126:
        length = struct.unpack(">H", exactly(2))[0]
    elif length == 127:
        length = struct.unpack(">Q", exactly(8))[0]
    mask = exactly(4)
    payload = exactly(length)
    return bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


class HostileRealtime:
    """Answers the upgrade, reads the join, then sends `answer(join)` (bytes, or pieces of them)."""

    def __init__(self, answer):
        self.answer = answer
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(4)
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}"
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self):
        try:
            conn, _ = self.listener.accept()
        except OSError:
            return
        with conn:
            data = b""
            while b"\r\n\r\n" not in data:
                data += conn.recv(4096)
            key = [line.split(b":", 1)[1].strip() for line in data.split(b"\r\n")
                   if line.lower().startswith(b"sec-websocket-key:")][0]
            accept = base64.b64encode(hashlib.sha1(key + GUID).digest())
            conn.sendall(b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
                         b"Connection: Upgrade\r\nSec-WebSocket-Accept: " + accept + b"\r\n\r\n")
            try:
                join = json.loads(read_client_frame(conn))
                answer = self.answer(join)
                for chunk in [answer] if isinstance(answer, bytes) else answer:
                    conn.sendall(chunk)
                while read_client_frame(conn):
                    pass
            except (EOFError, OSError):
                pass

    def stop(self):
        self.listener.close()


HOSTILE = {
    "bad UTF-8": (lambda join: frame(0x1, b"\xc3\x28"), "not valid UTF-8"),
    "a frame announcing 2^63 bytes": (
        lambda join: b"\x82\x7f\x7f\xff\xff\xff\xff\xff\xff\xff", "over the limit"),
    "an unknown binary kind": (lambda join: frame(0x2, b"\x09\x01\x02"), "kind"),
    "a message that is not Phoenix's": (lambda join: frame(0x1, b'{"a":1}'), "2.0.0 message"),
    "a close with a code": (lambda join: frame(0x8, struct.pack(">H", 1008) + b"go away"),
                            "closed the websocket with code 1008: go away"),
}


@pytest.mark.parametrize("case", HOSTILE, ids=list(HOSTILE))
def test_a_hostile_realtime_server_is_an_error_not_a_crash(snm_bin, home, case):
    answer, words = HOSTILE[case]
    server = HostileRealtime(answer)
    try:
        result = run_snm("--url", server.url, "--key", "the-anon-key", "-c",
                         "listen channel room1", env=home, timeout=60)
    finally:
        server.stop()
    assert result.returncode == 1, (result.returncode, result.stderr)
    assert "listen room1: realtime" in result.stderr
    assert words in result.stderr, result.stderr
    assert "the-anon-key" not in result.stderr


def test_a_join_refused_by_the_server_shows_its_reason(snm_bin, home):
    def refuse(join):
        reply = [join[0], join[1], join[2], "phx_reply",
                 {"status": "error", "response": {
                     "reason": "Unauthorized: You do not have permissions to read from this "
                               "Channel topic: room1"}}]
        return frame(0x1, json.dumps(reply).encode())
    server = HostileRealtime(refuse)
    try:
        result = run_snm("--url", server.url, "--key", "the-anon-key", "-c",
                         "listen channel room1 private", env=home, timeout=60)
    finally:
        server.stop()
    assert result.returncode == 1, result.stderr
    assert ("Unauthorized: You do not have permissions to read from this Channel topic: room1"
            in result.stderr)
    assert "select policy on realtime.messages" in result.stderr


def test_events_no_one_reads_take_a_bounded_share_of_the_clients_memory(snm_bin, home):
    """A server may send large events faster than a script takes them: the unread events of a
    session hold 64 MiB at most (the oldest dropped and counted), and a dropped or taken event is
    released at once. 60 events of 8 MB (480 MB) that `expect event` passes over leave the client
    under 300 MiB at its peak (getrusage's ru_maxrss of the child, /proc's VmHWM); before, it
    kept them all (about 520 MiB)."""
    big = json.dumps({"p": "x" * 8_000_000})

    def flood(join):
        yield frame(0x1, json.dumps([join[0], join[1], join[2], "phx_reply",
                                     {"status": "ok", "response": {"postgres_changes": []}}]).encode())
        message = frame(0x1, ('[null,null,"%s","broadcast",{"type":"broadcast","event":"big",'
                              '"payload":%s}]' % (join[2], big)).encode())
        for _ in range(60):
            yield message
        yield frame(0x1, json.dumps([None, None, join[2], "broadcast",
                                     {"type": "broadcast", "event": "done", "payload": {}}]).encode())

    server = HostileRealtime(flood)
    measure = ("import resource, subprocess, sys\n"
               "result = subprocess.run(sys.argv[1:], capture_output=True, text=True, timeout=300)\n"
               "print(result.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
               "sys.stderr.write(result.stderr)\n")
    try:
        result = subprocess.run(
            [sys.executable, "-c", measure, snm_bin, "--url", server.url, "--key", "the-anon-key",
             "-c", "listen channel room1\nexpect event room1 done within 120s\n"
                   "expect event room1 big within 1s"],
            capture_output=True, text=True, timeout=400, env={**os.environ, **home})
    finally:
        server.stop()
    code, peak_kib = (int(word) for word in result.stdout.split())
    assert code == 0, result.stderr
    assert peak_kib < 300 * 1024, f"the client peaked at {peak_kib // 1024} MiB"


def test_a_message_of_millions_of_small_values_ends_the_socket_in_bounded_memory(snm_bin, home):
    """One 16 MiB message (the client's limit) of 8.4 million zeros in a broadcast: parsed, each
    value takes tens of bytes, and the client peaked at 483 MiB (debug build) and took it. A
    message of more values than Realtime's largest payload can hold (1,600,000) now ends the socket
    saying so, before the parse holds more: the client stays under 200 MiB at its peak."""
    def flood(join):
        yield frame(0x1, json.dumps([join[0], join[1], join[2], "phx_reply",
                                     {"status": "ok", "response": {"postgres_changes": []}}]).encode())
        head = ('[null,null,"%s","broadcast",{"type":"broadcast","event":"many","payload":{"a":['
                % join[2])
        count = (16 * 1024 * 1024 - 200 - len(head)) // 2
        yield frame(0x1, (head + ",".join(["0"] * count) + "]}}]").encode())

    server = HostileRealtime(flood)
    measure = ("import resource, subprocess, sys\n"
               "result = subprocess.run(sys.argv[1:], capture_output=True, text=True, timeout=300)\n"
               "print(result.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
               "sys.stderr.write(result.stderr)\n")
    try:
        result = subprocess.run(
            [sys.executable, "-c", measure, snm_bin, "--url", server.url, "--key", "the-anon-key",
             "-c", "listen channel room1\nexpect event room1 many within 120s"],
            capture_output=True, text=True, timeout=400, env={**os.environ, **home})
    finally:
        server.stop()
    code, peak_kib = (int(word) for word in result.stdout.split())
    assert code == 3, result.stderr
    assert "a message holds more than 1600000 JSON values" in result.stderr, result.stderr
    assert peak_kib < 200 * 1024, f"the client peaked at {peak_kib // 1024} MiB"
