"""snm local's Realtime limits, as Realtime enforces them and answers when each is reached, set low
in a project folder's supabase/config.toml `[realtime]` (Realtime's tenant names): sockets that
joined a channel (max_concurrent_users: the handshake's 429, the join's
ConnectionRateLimitReached), joins a second (max_joins_per_second: ClientJoinRateLimitReached and
the socket closed, then 429), broadcasts a second (max_events_per_second: the receiving channel
ended with `Too many messages per second`, the REST endpoint's 429) and presence calls a channel
(5 in 30 s: `Client presence rate limit exceeded`). Realtime averages its rates over 5-second
buckets, so a limit is reached at the end of a bucket: each test repeats its action until the
answer comes, bounded by a deadline so a limit that never answers fails."""
import asyncio
import json
import os
import shutil
import subprocess
import time

import httpx
import pytest
import websockets
import websockets.sync.client
from realtime import AsyncRealtimeClient

from conftest import SNM, LocalProject, WORKDIR, free_port, run_snm

DEADLINE = 30  # seconds: several of Realtime's 5-second buckets


def start_folder_project(name, realtime_keys):
    """A project started in a folder whose supabase/config.toml has `[realtime]` realtime_keys."""
    root = WORKDIR / "limits" / name
    data = root / "data"
    if (data / "project.json").exists():
        run_snm("local", "destroy", "--dir", str(data), "--yes", timeout=120)
    shutil.rmtree(root, ignore_errors=True)
    (root / "supabase").mkdir(parents=True)
    keys = "".join(f"{key} = {value}\n" for key, value in realtime_keys.items())
    (root / "supabase" / "config.toml").write_text(f'project_id = "{name}"\n\n[realtime]\n{keys}')
    for _attempt in range(3):
        port = free_port()
        result = run_snm("local", "start", "--dir", str(data), "--port", str(port), "--json",
                         cwd=root, timeout=180)
        if "already in use" not in result.stderr:
            break
    assert result.returncode == 0, result.stderr
    assert "not supported" not in result.stderr, result.stderr
    return LocalProject(data, port, json.loads(result.stdout))


@pytest.fixture(scope="module")
def small(snm_bin):
    project = start_folder_project(
        "rt-small", {"max_concurrent_users": 2, "max_events_per_second": 1})
    yield project
    project.stop()


@pytest.fixture(scope="module")
def few_events(snm_bin):
    project = start_folder_project("rt-events", {"max_events_per_second": 1})
    yield project
    project.stop()


@pytest.fixture(scope="module")
def few_joins(snm_bin):
    project = start_folder_project("rt-joins", {"max_joins_per_second": 1})
    yield project
    project.stop()


def socket_url(project):
    return project.url.replace("http://", "ws://") + (
        f"/realtime/v1/websocket?apikey={project.anon_key}&vsn=1.0.0")


def run(coroutine):
    return asyncio.run(asyncio.wait_for(coroutine, 90))


async def join(ws, topic, ref, config=None):
    """Sends a phx_join; returns its reply's payload."""
    await ws.send(json.dumps({"topic": f"realtime:{topic}", "event": "phx_join", "ref": str(ref),
                              "join_ref": str(ref), "payload": {"config": config or {}}}))
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), 10))
        if message["event"] == "phx_reply" and message["ref"] == str(ref):
            return message["payload"]


async def refused_handshake(project):
    """The status and body of a refused handshake, or None when it was taken."""
    try:
        async with websockets.connect(socket_url(project)):
            return None
    except websockets.exceptions.InvalidStatus as refusal:
        return refusal.response.status_code, json.loads(refusal.response.body)


def test_sockets_past_max_concurrent_users_are_refused(small):
    async def scenario():
        idle = await websockets.connect(socket_url(small))  # no channel: not a user yet
        first = await websockets.connect(socket_url(small))
        second = await websockets.connect(socket_url(small))
        assert (await join(first, "a", 1))["status"] == "ok"
        assert (await join(second, "b", 1))["status"] == "ok"
        assert (await join(second, "c", 2))["status"] == "ok"  # a user joins more: still 2
        refused = await refused_handshake(small)
        late = await join(idle, "a", 1)
        await first.close()
        # The closed socket's place frees once the server has seen it go: the handshake is taken
        # again, and a channel of the official client joins.
        deadline = time.monotonic() + DEADLINE
        while await refused_handshake(small) is not None:
            assert time.monotonic() < deadline, "a closed user's place never freed"
            await asyncio.sleep(0.2)
        client = AsyncRealtimeClient(small.url + "/realtime/v1", small.anon_key,
                                     auto_reconnect=False)
        statuses = asyncio.Queue()
        await client.connect()
        channel = client.channel("d")
        await channel.subscribe(lambda status, error: statuses.put_nowait((status, error)))
        status, _ = await asyncio.wait_for(statuses.get(), 10)
        await client.close()
        for ws in (idle, second):
            await ws.close()
        return refused, late, status

    refused, late, status = run(scenario())
    assert refused == (429, {"error": "Too many connected users"})
    assert late == {"status": "error",
                    "response": {"reason": "ConnectionRateLimitReached: Too many connected users"}}
    assert str(status).endswith("SUBSCRIBED")


def test_a_sixth_presence_call_in_30_seconds_ends_the_channel(small):
    async def scenario():
        async with websockets.connect(socket_url(small)) as ws:
            config = {"presence": {"key": "me", "enabled": True}}
            assert (await join(ws, "lobby", 1, config))["status"] == "ok"
            replies = []
            for n in range(6):
                event = "track" if n % 2 == 0 else "untrack"
                await ws.send(json.dumps({
                    "topic": "realtime:lobby", "event": "presence", "ref": str(n + 2),
                    "join_ref": "1", "payload": {"type": "presence", "event": event,
                                                 "payload": {"n": n}}}))
            seen = []
            while not seen or seen[-1]["event"] != "phx_close":
                message = json.loads(await asyncio.wait_for(ws.recv(), 10))
                if message["event"] == "phx_reply":
                    replies.append(message["payload"]["status"])
                elif message["event"] in ("system", "phx_close"):
                    seen.append(message)
            return replies, seen

    replies, seen = run(scenario())
    assert replies == ["ok"] * 5
    assert [m["event"] for m in seen] == ["system", "phx_close"]
    assert seen[0]["payload"] == {"extension": "system", "status": "error",
                                  "message": "Client presence rate limit exceeded",
                                  "channel": "lobby"}


def test_broadcasts_past_max_events_per_second_end_the_receiving_channel(small):
    async def scenario():
        async with websockets.connect(socket_url(small)) as receiver, \
                websockets.connect(socket_url(small)) as sender:
            assert (await join(receiver, "room", 1))["status"] == "ok"
            assert (await join(sender, "room", 1))["status"] == "ok"
            received, ended = [], []
            stop = asyncio.Event()

            async def send():
                n = 0
                while not stop.is_set():
                    n += 1
                    await sender.send(json.dumps({
                        "topic": "realtime:room", "event": "broadcast", "ref": str(n + 1),
                        "join_ref": "1",
                        "payload": {"type": "broadcast", "event": "tick", "payload": {"n": n}}}))
                    await asyncio.sleep(0.05)

            sending = asyncio.create_task(send())
            deadline = time.monotonic() + DEADLINE
            while not ended or ended[-1]["event"] != "phx_close":
                assert time.monotonic() < deadline, "the events limit never ended the channel"
                message = json.loads(await asyncio.wait_for(receiver.recv(), 10))
                if message["event"] == "broadcast" and not ended:
                    received.append(message["payload"]["payload"]["n"])
                elif message["event"] in ("system", "phx_close"):
                    ended.append(message)
            rest = httpx.post(small.url + "/realtime/v1/api/broadcast",
                              headers={"apikey": small.service_role_key},
                              json={"messages": [{"topic": "room", "event": "e", "payload": {}}]})
            stop.set()
            await sending
            return received, ended, rest

    received, ended, rest = run(scenario())
    assert received == list(range(1, len(received) + 1))  # each in order until the end
    assert [m["event"] for m in ended] == ["system", "phx_close"]
    assert ended[0]["payload"] == {"extension": "system", "status": "error",
                                   "message": "Too many messages per second", "channel": "room"}
    assert (rest.status_code, rest.json()) == (429, {"message": "You have exceeded your rate limit"})


def test_joins_past_max_joins_per_second_are_refused_and_the_socket_closed(few_joins):
    async def scenario():
        async with websockets.connect(socket_url(few_joins)) as ws:
            deadline = time.monotonic() + DEADLINE
            n = 0
            while True:
                assert time.monotonic() < deadline, "the joins limit never refused a join"
                n += 1
                reply = await join(ws, f"t{n}", n)
                if reply["status"] != "ok":
                    break
                await asyncio.sleep(0.1)
            try:
                while True:
                    await asyncio.wait_for(ws.recv(), 10)
            except websockets.exceptions.ConnectionClosed as closed:
                close = closed.rcvd.code if closed.rcvd else None
        return n, reply, close, await refused_handshake(few_joins)

    n, reply, close, handshake = run(scenario())
    assert n > 5  # one join a second over a 5-second bucket: the sixth may be refused first
    assert reply == {"status": "error",
                     "response": {"reason": "ClientJoinRateLimitReached: Too many joins per second"}}
    assert close == 1000
    assert handshake == (429, {"error": "Too many joins per second"})


def flood_until_exit(project, topic, process):
    """Broadcasts on `topic` from a socket of its own, past max_events_per_second, until snm
    exits (bounded by DEADLINE): the server ends snm's channel."""
    with websockets.sync.client.connect(socket_url(project)) as sender:
        sender.send(json.dumps({"topic": f"realtime:{topic}", "event": "phx_join", "ref": "1",
                                "join_ref": "1", "payload": {"config": {}}}))
        deadline = time.monotonic() + DEADLINE
        n = 0
        while process.poll() is None and time.monotonic() < deadline:
            n += 1
            sender.send(json.dumps({
                "topic": f"realtime:{topic}", "event": "broadcast", "ref": str(n + 1),
                "join_ref": "1",
                "payload": {"type": "broadcast", "event": "tick", "payload": {"n": n}}}))
            time.sleep(0.05)
    try:
        return process.communicate(timeout=30)
    finally:
        process.kill()


@pytest.mark.parametrize("form", ["script", "snm listen"])
def test_a_channel_the_server_ends_for_a_rate_limit_fails_with_exit_1_and_its_reason(
        few_events, home, form):
    """The server answered and refused to go on (`system` "Too many messages per second", then
    phx_close): a statement failure, exit 1, saying the server's reason; not exit 3, which says
    the project could not be reached (before: 3). The socket dropping stays 3
    (test_realtime_listen, test_realtime_shell)."""
    topic = "flooded" + form.replace(" ", "")
    if form == "script":
        command = [SNM, "--url", few_events.url, "--key", few_events.anon_key, "-c",
                   f"listen channel {topic}\necho 'live'\nexpect event {topic} never within 120s"]
    else:
        command = [SNM, "listen", "--url", few_events.url, "--key", few_events.anon_key,
                   "channel", topic,
                   "--for", "120s"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env={**os.environ, **home})
    ready = process.stdout.readline() if form == "script" else process.stderr.readline()
    assert ready in ("live\n", f"snm: listening to {topic}\n"), ready + process.communicate()[1]
    _out, err = flood_until_exit(few_events, topic, process)
    assert process.returncode == 1, err
    assert (f"{topic}: the subscription ended: the server closed the channel: Too many messages "
            "per second" if form == "snm listen" else
            f"cannot tell whether a 'never' event from {topic} came: the subscription ended: the "
            "server closed the channel: Too many messages per second") in err
