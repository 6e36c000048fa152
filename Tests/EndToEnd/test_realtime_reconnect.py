"""Reconnects with the official Python client `realtime` (PyPI), auto_reconnect on: the server
drops the socket (the project restarted: its sockets close with 1001), the client connects again
and rejoins its channel, and what happens after the rejoin arrives. Each wait is for an event,
bounded so a missing event fails instead of hanging."""
import asyncio

import httpx
import pytest
import websockets
from conftest import NO_AUTH_RATE_LIMITS, run_snm
from realtime import AsyncRealtimeClient

WAIT = 30  # the restart is in it: Postgres stops and starts
SOCKETS = 50


@pytest.fixture(scope="module")
def project(start_extra_project):
    handle = start_extra_project("realtime-reconnect")
    handle.sql("""
        create table public.rc_notes (id bigint generated always as identity primary key, body text);
        grant select on public.rc_notes to anon, authenticated;
        alter publication supabase_realtime add table public.rc_notes;
        """)
    return handle


def restart(project):
    """Stops the project (its sockets close) and starts it again on the same port."""
    result = run_snm("local", "restart", "--dir", project.data_dir, "--port", str(project.port),
                     *NO_AUTH_RATE_LIMITS, timeout=180)
    assert result.returncode == 0, result.stderr


async def next_state(states, wanted):
    """The subscribe callback's states up to `wanted` (the ones before it included)."""
    seen = []
    while not seen or seen[-1] != wanted:
        seen.append(await asyncio.wait_for(states.get(), WAIT))
    return seen


def test_a_stopping_project_closes_its_sockets_going_away(project):
    """Every socket open when the project stops gets Realtime's close frame, 1001 "server shutting
    down", which tells a client to connect again (the stopping gateway used to exit while its
    socket loop was still to write them: in one run in two no socket got one, a cut connection)."""
    async def closed(ws):
        with pytest.raises(websockets.exceptions.ConnectionClosed) as ended:
            await asyncio.wait_for(ws.recv(), WAIT)
        return ended.value.rcvd and (ended.value.rcvd.code, ended.value.rcvd.reason)

    async def scenario():
        url = (project.url.replace("http://", "ws://")
               + f"/realtime/v1/websocket?apikey={project.anon_key}&vsn=1.0.0")
        sockets = [await websockets.connect(url) for _ in range(SOCKETS)]
        for ws in sockets:  # each adopted by the server's loop: its heartbeat answered
            await ws.send('{"topic":"phoenix","event":"heartbeat","payload":{},"ref":"1"}')
            await asyncio.wait_for(ws.recv(), WAIT)
        restarted = asyncio.create_task(asyncio.to_thread(restart, project))
        codes = await asyncio.gather(*(closed(ws) for ws in sockets))
        await restarted
        return codes

    codes = asyncio.run(asyncio.wait_for(scenario(), 120))
    assert codes == [(1001, "server shutting down")] * SOCKETS


def test_the_client_reconnects_after_a_restart_and_gets_later_events(project):
    async def scenario():
        client = AsyncRealtimeClient(project.url + "/realtime/v1", project.anon_key,
                                     auto_reconnect=True, max_retries=10, initial_backoff=0.5)
        changes, system, notes, states = (asyncio.Queue() for _ in range(4))
        channel = client.channel("room", {"config": {"broadcast": {"self": True, "ack": True}}})
        channel.on_postgres_changes("INSERT", changes.put_nowait, table="rc_notes", schema="public")
        channel.on_broadcast("note", notes.put_nowait)
        channel.on_system(system.put_nowait)
        await channel.subscribe(lambda state, error: states.put_nowait(state.value))
        assert await next_state(states, "SUBSCRIBED") == ["SUBSCRIBED"]
        assert (await asyncio.wait_for(system.get(), WAIT)).message == "Subscribed to PostgreSQL"
        project.sql("insert into rc_notes (body) values ('before')")
        assert (await asyncio.wait_for(changes.get(), WAIT))["data"]["record"]["body"] == "before"

        await asyncio.to_thread(restart, project)
        # The dropped socket errs the channel; the client connects again and rejoins it. An
        # attempt that comes while the project is still restarting is refused and errs it again
        # (the client's backoff is 0.5 s; a restart on a loaded machine takes longer), so the
        # channel may err more than once, and nothing else, before it is subscribed again.
        rejoined = await next_state(states, "SUBSCRIBED")
        assert rejoined[-1] == "SUBSCRIBED" and len(rejoined) >= 2, rejoined
        assert set(rejoined[:-1]) == {"CHANNEL_ERROR"}, rejoined
        assert (await asyncio.wait_for(system.get(), WAIT)).message == "Subscribed to PostgreSQL"
        project.sql("insert into rc_notes (body) values ('after')")
        after = await asyncio.wait_for(changes.get(), WAIT)
        await channel.send_broadcast("note", {"n": 2})
        note = await asyncio.wait_for(notes.get(), WAIT)
        async with httpx.AsyncClient() as http:
            response = await http.post(
                f"{project.url}/realtime/v1/api/broadcast", headers=project.headers(),
                json={"messages": [{"topic": "room", "event": "note", "payload": {"n": 3}}]})
            assert response.status_code == 202
        from_rest = await asyncio.wait_for(notes.get(), WAIT)
        await client.close()
        return after, note, from_rest

    after, note, from_rest = asyncio.run(asyncio.wait_for(scenario(), 120))
    assert after["data"]["record"]["body"] == "after"
    assert note["payload"] == {"n": 2}
    assert from_rest["payload"] == {"n": 3}


def test_the_client_rejoins_after_the_change_stream_ends_and_gets_later_events(project):
    """The walsender terminated: the server tells the channel (a postgres_changes system error),
    the official client errs the channel and rejoins it, and an insert after that arrives (before
    the server restarted the stream, it stayed dead and nothing arrived)."""
    async def scenario():
        client = AsyncRealtimeClient(project.url + "/realtime/v1", project.anon_key,
                                     auto_reconnect=True, max_retries=10, initial_backoff=0.5)
        changes, happenings = asyncio.Queue(), asyncio.Queue()  # states and system messages, in order
        channel = client.channel("stream")
        channel.on_postgres_changes("INSERT", changes.put_nowait, table="rc_notes", schema="public")
        channel.on_system(lambda message: happenings.put_nowait(("system", message.message)))
        await channel.subscribe(lambda state, error: happenings.put_nowait(("state", state.value)))

        async def until(happening):
            seen = []
            while not seen or seen[-1] != happening:
                seen.append(await asyncio.wait_for(happenings.get(), WAIT))
            return seen

        await until(("system", "Subscribed to PostgreSQL"))
        assert project.sql("select count(pg_terminate_backend(pid)) from pg_stat_replication") == "1"
        await until(("state", "CHANNEL_ERROR"))
        await until(("state", "SUBSCRIBED"))
        await until(("system", "Subscribed to PostgreSQL"))
        project.sql("insert into rc_notes (body) values ('after the stream ended')")
        change = await asyncio.wait_for(changes.get(), WAIT)
        await client.close()
        return change

    change = asyncio.run(asyncio.wait_for(scenario(), 120))
    assert change["data"]["record"]["body"] == "after the stream ended"
