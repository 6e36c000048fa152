"""snm's Realtime statements against the local project's Realtime (/realtime/v1): in a script
(broadcast back to its own channel, presence, the events taken in order, a channel the server
refuses), `snm check`-clean scripts run as written. Each wait is for an event, bounded by the
statement's own `within` so a missing event fails instead of hanging."""
import json
import os
import subprocess

import pytest
import websockets.sync.client

from conftest import SNM, run_snm


@pytest.fixture(scope="module")
def rt_project(start_extra_project):
    return start_extra_project("realtime-shell")


def snm_script(project, home, text, *flags):
    return run_snm("--url", project.url, "--key", project.anon_key, *flags, "-c", text, env=home,
                   timeout=60)


def test_a_broadcast_comes_back_to_the_channel_listening(rt_project, home):
    result = snm_script(rt_project, home, """
listen channel room1
broadcast room1 cursor {"x": 1}
broadcast room1 cursor {"x": 2}
expect event room1 cursor where x eq 2 within 10s
echo $event.payload.x
expect event room1 cursor within 10s
echo $event.payload.x
expect no event room1 cursor within 300ms
""")
    assert result.returncode == 0, result.stderr
    assert result.stdout == "2\n1\n"


def test_presence_track_and_untrack_arrive_as_join_and_leave(rt_project, home):
    result = snm_script(rt_project, home, """
listen channel lobby
expect event lobby sync within 10s
track lobby {"status": "online"}
expect event lobby join within 10s
echo $event.joins
untrack lobby
expect event lobby leave within 10s
""")
    assert result.returncode == 0, result.stderr
    assert '"status":"online"' in result.stdout.replace(" ", "")


def test_another_clients_broadcast_reaches_a_listening_script(rt_project, home, tmp_path):
    """The script listens, then tells the test it is live (a line on stdout); only then does another client
    broadcast: listen returned only when the join was answered, so nothing is missed."""
    script = tmp_path / "wait.snm"
    script.write_text("""listen channel room2
echo 'live'
expect event room2 hello within 20s
echo $event.payload.n
""")
    env = {**os.environ, **home}
    process = subprocess.Popen(
        [SNM, "--url", rt_project.url, "--key", rt_project.anon_key, str(script)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    assert process.stdout.readline() == "live\n"
    url = (rt_project.url.replace("http://", "ws://")
           + f"/realtime/v1/websocket?apikey={rt_project.anon_key}&vsn=1.0.0")
    with websockets.sync.client.connect(url) as socket:
        socket.send(json.dumps({"topic": "realtime:room2", "event": "phx_join", "ref": "1",
                                "join_ref": "1", "payload": {"config": {}}}))
        assert json.loads(socket.recv(timeout=10))["payload"]["status"] == "ok"
        socket.send(json.dumps({"topic": "realtime:room2", "event": "broadcast", "ref": "2",
                                "join_ref": "1", "payload": {"type": "broadcast",
                                                             "event": "hello",
                                                             "payload": {"n": 7}}}))
        out, err = process.communicate(timeout=60)
    assert process.returncode == 0, err
    assert out == "7\n"


def test_an_event_that_never_comes_fails_with_exit_1(rt_project, home):
    result = snm_script(rt_project, home, "listen channel quiet\nexpect event quiet ping within 300ms")
    assert result.returncode == 1
    assert "none within" in result.stderr


def test_unlisten_names_what_is_listened_to(rt_project, home):
    result = snm_script(rt_project, home, "listen channel a1\nunlisten a2")
    assert result.returncode in (1, 2)
    assert "not listening to 'a2' (listening to a1)" in result.stderr
