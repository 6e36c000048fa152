"""snm local's Realtime (/realtime/v1) driven by the official Python client `realtime` (PyPI),
the one Supabase's own Realtime tests use, plus raw WebSocket checks of the handshake and the
Phoenix 2.0.0 framing with `websockets`. Each wait is for an event, bounded so a missing event
fails instead of hanging."""
import asyncio
import json
import subprocess
import time

import httpx
import pytest
import websockets
from realtime import AsyncRealtimeClient

WAIT = 10


def sign_in(project, email):
    response = httpx.post(f"{project.auth_url}/token?grant_type=password", headers=project.headers(),
                          json={"email": email, "password": "password123"})
    assert response.status_code == 200, response.text
    return response.json()["access_token"]


def realtime_url(project):
    return project.url + "/realtime/v1"


def socket_url(project, key, vsn="1.0.0"):
    return project.url.replace("http://", "ws://") + f"/realtime/v1/websocket?apikey={key}&vsn={vsn}"


@pytest.fixture(scope="module")
def rt_project(start_extra_project):
    return start_extra_project("realtime")


def run(coroutine):
    return asyncio.run(asyncio.wait_for(coroutine, 60))


def test_broadcast_with_ack_and_self_reaches_both_clients(rt_project):
    async def scenario():
        first = AsyncRealtimeClient(realtime_url(rt_project), rt_project.anon_key, auto_reconnect=False)
        second = AsyncRealtimeClient(realtime_url(rt_project), rt_project.anon_key, auto_reconnect=False)
        got_first, got_second = asyncio.Queue(), asyncio.Queue()
        sender = first.channel("room1", {"config": {"broadcast": {"ack": True, "self": True}}})
        sender.on_broadcast("cursor", got_first.put_nowait)
        await sender.subscribe()
        listener = second.channel("room1")
        listener.on_broadcast("cursor", got_second.put_nowait)
        await listener.subscribe()
        for x in range(3):
            await sender.send_broadcast("cursor", {"x": x})  # ack: returns once the server replied
        seen_first = [await asyncio.wait_for(got_first.get(), WAIT) for _ in range(3)]
        seen_second = [await asyncio.wait_for(got_second.get(), WAIT) for _ in range(3)]
        await first.close()
        await second.close()
        return seen_first, seen_second

    seen_first, seen_second = run(scenario())
    assert [m["payload"]["x"] for m in seen_first] == [0, 1, 2]
    assert [m["payload"]["x"] for m in seen_second] == [0, 1, 2]
    assert seen_second[0]["event"] == "cursor"


def test_without_self_the_sender_gets_nothing_of_its_own(rt_project):
    async def scenario():
        client = AsyncRealtimeClient(realtime_url(rt_project), rt_project.anon_key, auto_reconnect=False)
        other = AsyncRealtimeClient(realtime_url(rt_project), rt_project.anon_key, auto_reconnect=False)
        own, theirs = asyncio.Queue(), asyncio.Queue()
        mine = client.channel("room2", {"config": {"broadcast": {"ack": True, "self": False}}})
        mine.on_broadcast("e", own.put_nowait)
        await mine.subscribe()
        watcher = other.channel("room2", {"config": {"broadcast": {"ack": True, "self": True}}})
        watcher.on_broadcast("e", theirs.put_nowait)
        await watcher.subscribe()
        await mine.send_broadcast("e", {"n": 1})
        # The other client's own message, sent after ours, arrives at us: ours would have come first.
        await watcher.send_broadcast("e", {"n": 2})
        first_seen = await asyncio.wait_for(own.get(), WAIT)
        await client.close()
        await other.close()
        return first_seen

    assert run(scenario())["payload"] == {"n": 2}


def test_presence_with_two_clients(rt_project):
    async def scenario():
        one = AsyncRealtimeClient(realtime_url(rt_project), rt_project.anon_key, auto_reconnect=False)
        two = AsyncRealtimeClient(realtime_url(rt_project), rt_project.anon_key, auto_reconnect=False)
        joins, leaves, synced = asyncio.Queue(), asyncio.Queue(), asyncio.Queue()
        watcher = two.channel("lobby", {"config": {"presence": {"key": "watcher", "enabled": True}}})
        watcher.on_presence_join(lambda key, current, new: joins.put_nowait((key, new)))
        watcher.on_presence_leave(lambda key, current, left: leaves.put_nowait((key, left)))
        watcher.on_presence_sync(lambda: synced.put_nowait(True))
        await watcher.subscribe()
        tracker = one.channel("lobby", {"config": {"presence": {"key": "alice", "enabled": True}}})
        await tracker.subscribe()
        await tracker.track({"status": "online"})
        key, new = await asyncio.wait_for(joins.get(), WAIT)
        await tracker.track({"status": "away"})  # an update: a leave and a join
        key2, new2 = await asyncio.wait_for(joins.get(), WAIT)
        left_key, left = await asyncio.wait_for(leaves.get(), WAIT)
        state = {key: list(metas) for key, metas in watcher.presence_state().items()}
        await tracker.untrack()
        last_key, last = await asyncio.wait_for(leaves.get(), WAIT)
        after = watcher.presence_state()
        await one.close()
        await two.close()
        return key, new, key2, new2, left_key, left, state, last_key, last, after

    key, new, key2, new2, left_key, left, state, last_key, last, after = run(scenario())
    assert key == "alice" and new[0]["status"] == "online" and "presence_ref" in new[0]
    assert key2 == "alice" and new2[0]["status"] == "away"
    assert left_key == "alice" and left[0]["status"] == "online"
    assert [m["status"] for m in state["alice"]] == ["away"]
    assert last_key == "alice" and last[0]["status"] == "away"
    assert "alice" not in after


def test_a_socket_that_closes_leaves_presence(rt_project):
    async def scenario():
        one = AsyncRealtimeClient(realtime_url(rt_project), rt_project.anon_key, auto_reconnect=False)
        two = AsyncRealtimeClient(realtime_url(rt_project), rt_project.anon_key, auto_reconnect=False)
        joins, leaves = asyncio.Queue(), asyncio.Queue()
        watcher = two.channel("hall", {"config": {"presence": {"key": "w", "enabled": True}}})
        watcher.on_presence_join(lambda key, current, new: joins.put_nowait(key))
        watcher.on_presence_leave(lambda key, current, left: leaves.put_nowait(key))
        await watcher.subscribe()
        tracker = one.channel("hall", {"config": {"presence": {"key": "bob", "enabled": True}}})
        await tracker.subscribe()
        await tracker.track({"at": 1})
        joined = await asyncio.wait_for(joins.get(), WAIT)
        await one.close()
        left = await asyncio.wait_for(leaves.get(), WAIT)
        await two.close()
        return joined, left

    assert run(scenario()) == ("bob", "bob")


def test_rest_broadcast_reaches_subscribers(rt_project):
    async def scenario():
        client = AsyncRealtimeClient(realtime_url(rt_project), rt_project.anon_key, auto_reconnect=False)
        got = asyncio.Queue()
        channel = client.channel("news")
        channel.on_broadcast("headline", got.put_nowait)
        await channel.subscribe()
        async with httpx.AsyncClient() as http:
            response = await http.post(
                f"{rt_project.url}/realtime/v1/api/broadcast",
                headers={"apikey": rt_project.service_role_key,
                         "Authorization": f"Bearer {rt_project.service_role_key}"},
                json={"messages": [{"topic": "news", "event": "headline", "payload": {"t": "hi"}}]})
        message = await asyncio.wait_for(got.get(), WAIT)
        await client.close()
        return response, message

    response, message = run(scenario())
    assert response.status_code == 202 and response.content == b""
    assert message["payload"] == {"t": "hi"}


def test_rest_broadcast_refuses_without_a_key_and_checks_messages(rt_project):
    url = f"{rt_project.url}/realtime/v1/api/broadcast"
    assert httpx.post(url, json={"messages": []}).status_code == 401
    bad = httpx.post(url, headers=rt_project.headers(), json={"messages": [{"topic": "x"}]})
    assert bad.status_code == 422, bad.text


def test_handshake_refusals_are_realtime_shaped(rt_project):
    base = rt_project.url + "/realtime/v1/websocket"
    upgrade = {"Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Version": "13",
               "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="}
    missing = httpx.get(base + "?vsn=1.0.0", headers=upgrade)
    assert (missing.status_code, missing.json()) == (401, {"error": "API key is missing"})
    forged = httpx.get(base + "?vsn=1.0.0&apikey=eyJhbGciOiJIUzI1NiJ9.e30.c2ln", headers=upgrade)
    assert forged.status_code == 401 and forged.json()["error"] == "Failed to validate JWT signature"
    version = httpx.get(base + f"?vsn=3.0.0&apikey={rt_project.anon_key}", headers=upgrade)
    assert version.status_code == 400 and "vsn 3.0.0" in version.json()["error"]
    plain = httpx.get(base + f"?apikey={rt_project.anon_key}")
    assert plain.status_code == 400 and plain.json()["error"] == "missing Upgrade: websocket"


def test_join_errors_and_heartbeat_over_raw_v2_frames(rt_project):
    async def scenario():
        async with websockets.connect(socket_url(rt_project, rt_project.anon_key, "2.0.0")) as ws:
            await ws.send(json.dumps([None, "1", "phoenix", "heartbeat", {}]))
            heartbeat = json.loads(await asyncio.wait_for(ws.recv(), WAIT))
            await ws.send(json.dumps(["2", "2", "realtime:", "phx_join", {"config": {}}]))
            no_topic = json.loads(await asyncio.wait_for(ws.recv(), WAIT))
            await ws.send(json.dumps(["3", "3", "realtime:r", "phx_join",
                                      {"config": {}, "access_token": "not.a.jwt"}]))
            bad_token = json.loads(await asyncio.wait_for(ws.recv(), WAIT))
            await ws.send(json.dumps([None, "4", "realtime:never", "broadcast", {}]))
            unmatched = json.loads(await asyncio.wait_for(ws.recv(), WAIT))
            return heartbeat, no_topic, bad_token, unmatched

    heartbeat, no_topic, bad_token, unmatched = run(scenario())
    assert heartbeat == [None, "1", "phoenix", "phx_reply", {"status": "ok", "response": {}}]
    assert no_topic[4] == {"status": "error",
                           "response": {"reason": "TopicNameRequired: You must provide a topic name"}}
    assert bad_token[4]["response"]["reason"] in (
        "MalformedJWT: The token provided is not a valid JWT",
        "JwtSignatureError: Failed to validate JWT signature")
    assert unmatched[4] == {"status": "error", "response": {"reason": "unmatched topic"}}


def test_binary_user_broadcast_v2_to_v2_and_v1(rt_project):
    """A realtime-js style kind-3 frame: a 2.0.0 member gets kind 4, a 1.0.0 member the JSON."""
    async def scenario():
        key = rt_project.anon_key
        async with websockets.connect(socket_url(rt_project, key, "2.0.0")) as v2, \
                websockets.connect(socket_url(rt_project, key, "1.0.0")) as v1:
            join = {"config": {"broadcast": {"self": True, "ack": True}}}
            await v2.send(json.dumps(["1", "1", "realtime:bin", "phx_join", join]))
            assert json.loads(await asyncio.wait_for(v2.recv(), WAIT))[4]["status"] == "ok"
            await v1.send(json.dumps({"topic": "realtime:bin", "event": "phx_join", "payload": join,
                                      "ref": "1", "join_ref": "1"}))
            assert json.loads(await asyncio.wait_for(v1.recv(), WAIT))["payload"]["status"] == "ok"
            fields = [b"1", b"2", b"realtime:bin", b"cursor", b""]
            frame = bytes([3] + [len(f) for f in fields] + [1]) + b"".join(fields) + b'{"x":1}'
            await v2.send(frame)
            got_v2 = [await asyncio.wait_for(v2.recv(), WAIT) for _ in range(2)]
            got_v1 = json.loads(await asyncio.wait_for(v1.recv(), WAIT))
            return got_v2, got_v1

    got_v2, got_v1 = run(scenario())
    binary = next(m for m in got_v2 if isinstance(m, bytes))
    reply = json.loads(next(m for m in got_v2 if isinstance(m, str)))
    assert binary == bytes([4, 12, 6, 0, 1]) + b"realtime:bincursor" + b'{"x":1}'
    assert reply == ["1", "2", "realtime:bin", "phx_reply", {"status": "ok", "response": {}}]
    assert got_v1 == {"topic": "realtime:bin", "event": "broadcast", "ref": None,
                      "payload": {"type": "broadcast", "event": "cursor", "payload": {"x": 1}}}


def test_hostile_frames_close_the_socket_with_a_code(rt_project):
    async def scenario():
        async with websockets.connect(socket_url(rt_project, rt_project.anon_key, "2.0.0")) as ws:
            await ws.send(bytes([9, 1, 2, 3]))  # no such binary kind
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await asyncio.wait_for(ws.recv(), WAIT)
            return closed.value.rcvd

    received = run(scenario())
    assert received.code == 1007 and received.reason == "unknown binary kind 9"


def test_a_user_token_joins_and_refreshes_on_the_socket(rt_project):
    alice = sign_in(rt_project, "alice@example.com")
    bob = sign_in(rt_project, "bob@example.com")

    async def scenario():
        client = AsyncRealtimeClient(realtime_url(rt_project), rt_project.anon_key, auto_reconnect=False)
        await client.set_auth(alice)
        states, got = asyncio.Queue(), asyncio.Queue()
        channel = client.channel("mine", {"config": {"broadcast": {"ack": True, "self": True}}})
        channel.on_broadcast("ping", got.put_nowait)
        await channel.subscribe(lambda state, error: states.put_nowait((state.value, error)))
        subscribed = await asyncio.wait_for(states.get(), WAIT)
        # A good token pushed on the socket keeps the channel.
        await client.set_auth(bob)
        await channel.send_broadcast("ping", {"n": 1})
        echoed = await asyncio.wait_for(got.get(), WAIT)
        # A bad one ends it with a system error.
        await client.set_auth("bad.token.here")
        errored = await asyncio.wait_for(states.get(), WAIT)
        await client.close()
        return subscribed, echoed, errored

    subscribed, echoed, errored = run(scenario())
    assert subscribed == ("SUBSCRIBED", None)
    assert echoed["payload"] == {"n": 1}
    state, error = errored
    assert state == "CHANNEL_ERROR"
    assert json.loads(str(error))["message"] in ("The token provided is not a valid JWT",
                                                  "Failed to validate JWT signature")


ALICE = "0c8e5f7a-6b9d-4f1e-9a3b-2d4c6e8f0a1b"
BOB = "1d9f6a8b-7cae-4a2f-8b4c-3e5d7f9a1b2c"


@pytest.fixture(scope="module")
def changes_project(rt_project):
    """Tables for postgres_changes: rt_todos (RLS: owners see their rows; `secret` not granted to
    authenticated) and rt_nopk, both in supabase_realtime; rt_private not in it."""
    rt_project.sql("""
        create table public.rt_todos (id bigint generated always as identity primary key,
          owner uuid, task text, secret text, details jsonb);
        alter table public.rt_todos enable row level security;
        create policy own on public.rt_todos for all to authenticated
          using (owner = auth.uid()) with check (owner = auth.uid());
        revoke select on public.rt_todos from authenticated;
        grant select (id, owner, task, details) on public.rt_todos to authenticated;
        create table public.rt_nopk (a int);
        create table public.rt_private (id int primary key);
        alter publication supabase_realtime add table public.rt_todos, public.rt_nopk;
        """)
    return rt_project


async def listening(project, token, *bindings):
    """A client signed in with `token`, one channel with `bindings` (event, table, filter),
    returned once the server says it is live; and the queue of its change payloads."""
    client = AsyncRealtimeClient(realtime_url(project), project.anon_key, auto_reconnect=False)
    if token:
        await client.set_auth(token)
    changes, system = asyncio.Queue(), asyncio.Queue()
    channel = client.channel("db")
    for event, table, filter_ in bindings:
        channel.on_postgres_changes(event, changes.put_nowait, table=table, schema="public", filter=filter_)
    channel.on_system(system.put_nowait)
    states = asyncio.Queue()
    await channel.subscribe(lambda state, error: states.put_nowait((state.value, error)))
    state, error = await asyncio.wait_for(states.get(), WAIT)
    assert state == "SUBSCRIBED", error
    live = await asyncio.wait_for(system.get(), WAIT)
    assert live.message == "Subscribed to PostgreSQL" and live.extension == "postgres_changes"
    return client, changes


def test_postgres_changes_insert_update_delete(changes_project):
    project = changes_project
    alice = sign_in(project, "alice@example.com")

    async def scenario():
        client, changes = await listening(project, alice, ("*", "rt_todos", None))
        # Written right after the system message: nothing may be missed.
        row_id = project.sql(f"insert into rt_todos (owner, task, secret, details) "
                             f"values ('{ALICE}', 'a', 's1', '{{\"k\": 1}}') returning id").splitlines()[0]
        project.sql(f"update rt_todos set task = 'b' where id = {row_id}")
        project.sql(f"delete from rt_todos where id = {row_id}")
        seen = [await asyncio.wait_for(changes.get(), WAIT) for _ in range(3)]
        await client.close()
        return int(row_id), seen

    row_id, seen = run(scenario())
    insert, update, delete = (message["data"] for message in seen)
    assert [insert["type"], update["type"], delete["type"]] == ["INSERT", "UPDATE", "DELETE"]
    assert insert["record"] == {"id": row_id, "owner": ALICE, "task": "a", "details": {"k": 1}}
    assert "secret" not in [column["name"] for column in insert["columns"]]
    assert {"name": "id", "type": "int8"} in insert["columns"]
    assert insert["schema"] == "public" and insert["table"] == "rt_todos" and insert["errors"] is None
    assert insert["commit_timestamp"].endswith("Z") and "T" in insert["commit_timestamp"]
    assert update["record"]["task"] == "b" and update["old_record"] == {"id": row_id}
    assert delete["old_record"] == {"id": row_id}
    assert all(message["ids"] for message in seen)


def test_postgres_changes_filters(changes_project):
    project = changes_project
    alice = sign_in(project, "alice@example.com")

    async def scenario():
        client, changes = await listening(project, alice, ("INSERT", "rt_todos", "task=in.(x,z)"))
        for task in ["w", "x", "y", "z"]:
            project.sql(f"insert into rt_todos (owner, task) values ('{ALICE}', '{task}')")
        seen = [await asyncio.wait_for(changes.get(), WAIT) for _ in range(2)]
        await client.close()
        return seen

    assert [message["data"]["record"]["task"] for message in run(scenario())] == ["x", "z"]


def test_postgres_changes_rls_hides_other_users_rows(changes_project):
    project = changes_project
    bob = sign_in(project, "bob@example.com")

    async def scenario():
        client, changes = await listening(project, bob, ("INSERT", "rt_todos", None))
        project.sql(f"insert into rt_todos (owner, task) values ('{ALICE}', 'alice only')")
        project.sql(f"insert into rt_todos (owner, task) values ('{BOB}', 'bob')")
        first = await asyncio.wait_for(changes.get(), WAIT)
        await client.close()
        return first

    # Alice's row was committed first: had it reached Bob it would be his first event.
    assert run(scenario())["data"]["record"]["task"] == "bob"


def test_postgres_changes_errors(changes_project):
    project = changes_project

    async def scenario():
        client, changes = await listening(project, None, ("INSERT", "rt_nopk", None))
        project.sql("insert into rt_nopk values (1)")
        nopk = await asyncio.wait_for(changes.get(), WAIT)
        await client.close()
        async with websockets.connect(socket_url(project, project.anon_key, "1.0.0")) as ws:
            join = {"config": {"postgres_changes": [{"event": "*", "schema": "public",
                                                     "table": "rt_private"}]}}
            await ws.send(json.dumps({"topic": "realtime:x", "event": "phx_join", "payload": join,
                                      "ref": "1", "join_ref": "1"}))
            reply = json.loads(await asyncio.wait_for(ws.recv(), WAIT))
            system = json.loads(await asyncio.wait_for(ws.recv(), WAIT))
        return nopk, reply, system

    nopk, reply, system = run(scenario())
    assert nopk["data"]["errors"] == ["Error 400: Bad Request, no primary key"]
    assert reply["payload"]["status"] == "ok"
    entry = reply["payload"]["response"]["postgres_changes"][0]
    assert entry["table"] == "rt_private" and isinstance(entry["id"], int)
    assert system["event"] == "system" and system["payload"]["status"] == "error"
    assert system["payload"]["message"].startswith("Unable to subscribe to changes with given parameters")


@pytest.fixture(scope="module")
def private_project(rt_project):
    """Policies on realtime.messages: only Alice reads and writes the private channel
    `secret-room`; Bob may read `open-room` but not write it."""
    rt_project.sql(f"""
        create policy "alice reads" on realtime.messages for select to authenticated
          using (realtime.topic() = 'secret-room' and auth.uid() = '{ALICE}'::uuid);
        create policy "alice writes" on realtime.messages for insert to authenticated
          with check (realtime.topic() = 'secret-room' and auth.uid() = '{ALICE}'::uuid);
        create policy "all read open" on realtime.messages for select to authenticated
          using (realtime.topic() = 'open-room');
        """)
    return rt_project


async def private_channel(project, token, topic, **broadcast):
    client = AsyncRealtimeClient(realtime_url(project), project.anon_key, auto_reconnect=False)
    await client.set_auth(token)
    states, got = asyncio.Queue(), asyncio.Queue()
    channel = client.channel(topic, {"config": {"private": True, "broadcast": broadcast}})
    channel.on_broadcast("note", got.put_nowait)
    await channel.subscribe(lambda state, error: states.put_nowait((state.value, error)))
    state, error = await asyncio.wait_for(states.get(), WAIT)
    return client, channel, state, error, got


def test_private_channel_allowed_by_its_read_and_write_policies(private_project):
    project = private_project
    alice = sign_in(project, "alice@example.com")

    async def scenario():
        client, channel, state, error, got = await private_channel(
            project, alice, "secret-room", ack=True, self=True)
        assert state == "SUBSCRIBED", error
        await channel.send_broadcast("note", {"n": 1})
        message = await asyncio.wait_for(got.get(), WAIT)
        await client.close()
        return message

    assert run(scenario())["payload"] == {"n": 1}


def test_private_channel_refused_without_a_read_policy(private_project):
    project = private_project
    bob = sign_in(project, "bob@example.com")

    async def scenario():
        client, _channel, state, error, _got = await private_channel(project, bob, "secret-room")
        await client.close()
        return state, error

    state, error = run(scenario())
    assert state == "CHANNEL_ERROR"
    assert ("Unauthorized: You do not have permissions to read from this Channel topic: "
            "realtime:secret-room") in str(error)


def test_private_channel_without_write_policy_drops_sends(private_project):
    """Bob may read open-room but not write it: his message is dropped, Alice's arrives."""
    project = private_project
    alice, bob = sign_in(project, "alice@example.com"), sign_in(project, "bob@example.com")

    async def scenario():
        reader, _c, state, error, got = await private_channel(project, alice, "open-room")
        assert state == "SUBSCRIBED", error
        writer, channel, state, error, _g = await private_channel(project, bob, "open-room")
        assert state == "SUBSCRIBED", error
        await channel.send_broadcast("note", {"from": "bob"})  # no ack: dropped without a reply
        async with httpx.AsyncClient() as http:
            response = await http.post(
                f"{project.url}/realtime/v1/api/broadcast",
                headers={"apikey": project.anon_key, "Authorization": f"Bearer {alice}"},
                json={"messages": [{"topic": "open-room", "event": "note", "payload": {"from": "x"},
                                    "private": True}]})
            assert response.status_code == 202  # Alice may not write open-room: dropped too
            response = await http.post(
                f"{project.url}/realtime/v1/api/broadcast",
                headers={"apikey": project.service_role_key,
                         "Authorization": f"Bearer {project.service_role_key}"},
                json={"messages": [{"topic": "open-room", "event": "note", "payload": {"from": "service"},
                                    "private": True}]})
            assert response.status_code == 202
        first = await asyncio.wait_for(got.get(), WAIT)
        await reader.close()
        await writer.close()
        return first

    assert run(scenario())["payload"] == {"from": "service"}


def test_realtime_send_from_the_database(private_project):
    """realtime.send reaches a public channel (private => false) and a private one its reader
    may join; realtime.broadcast_changes from a row trigger carries the row."""
    project = private_project
    alice = sign_in(project, "alice@example.com")
    project.sql("""
        create table if not exists public.rt_notes (id int primary key, body text);
        create or replace function public.rt_notes_changed() returns trigger language plpgsql as $$
        begin
          perform realtime.broadcast_changes('secret-room', tg_op, tg_op, tg_table_name,
            tg_table_schema, new, old);
          return null;
        end $$;
        drop trigger if exists rt_notes_changed on public.rt_notes;
        create trigger rt_notes_changed after insert on public.rt_notes
          for each row execute function public.rt_notes_changed();
        """)

    async def scenario():
        client = AsyncRealtimeClient(realtime_url(project), project.anon_key, auto_reconnect=False)
        public = asyncio.Queue()
        channel = client.channel("pub-room")
        channel.on_broadcast("note", public.put_nowait)
        await channel.subscribe()
        private_client, _c, state, error, secret = await private_channel(project, alice, "secret-room")
        assert state == "SUBSCRIBED", error
        inserted = asyncio.Queue()
        _c.on_broadcast("INSERT", inserted.put_nowait)
        project.sql("""select realtime.send('{"x": 1}', 'note', 'pub-room', false)""")
        project.sql("""select realtime.send('{"y": 2}', 'note', 'secret-room')""")
        project.sql("insert into rt_notes values (7, 'hello')")
        got_public = await asyncio.wait_for(public.get(), WAIT)
        got_secret = await asyncio.wait_for(secret.get(), WAIT)
        got_change = await asyncio.wait_for(inserted.get(), WAIT)
        await client.close()
        await private_client.close()
        return got_public, got_secret, got_change

    got_public, got_secret, got_change = run(scenario())
    assert got_public["payload"]["x"] == 1 and "id" in got_public["payload"]
    assert got_secret["payload"]["y"] == 2
    assert got_change["payload"]["record"] == {"id": 7, "body": "hello"}
    assert got_change["payload"]["operation"] == "INSERT" and got_change["payload"]["old_record"] is None


def test_a_filter_on_a_column_the_role_cannot_select_is_refused(changes_project):
    project = changes_project
    alice = sign_in(project, "alice@example.com")

    async def scenario():
        async with websockets.connect(socket_url(project, project.anon_key, "2.0.0")) as ws:
            join = {"access_token": alice, "config": {"postgres_changes": [
                {"event": "INSERT", "schema": "public", "table": "rt_todos", "filter": "secret=eq.x"}]}}
            await ws.send(json.dumps(["1", "1", "realtime:f", "phx_join", join]))
            reply = json.loads(await asyncio.wait_for(ws.recv(), WAIT))
            system = json.loads(await asyncio.wait_for(ws.recv(), WAIT))
            return reply, system

    reply, system = run(scenario())
    assert reply[4]["status"] == "ok"
    assert system[3] == "system"
    assert system[4] == {"extension": "postgres_changes", "status": "error",
                         "message": "invalid column for filter secret", "channel": "f"}


def test_two_tables_on_one_channel(changes_project):
    """One channel, two postgres_changes bindings on two tables: each change comes once, to the
    binding it matches (its `ids`), and a kind no binding asks for never comes (the sentinel
    written after it arrives next)."""
    project = changes_project
    project.sql("""
        create table if not exists public.rt_two_notes (id int primary key, body text);
        grant select on public.rt_two_notes to authenticated;
        do $$ begin
          if not exists (select 1 from pg_publication_tables where pubname = 'supabase_realtime'
                         and tablename = 'rt_two_notes') then
            alter publication supabase_realtime add table public.rt_two_notes;
          end if;
        end $$;
        """)
    alice = sign_in(project, "alice@example.com")

    async def scenario():
        client, changes = await listening(project, alice, ("INSERT", "rt_todos", None),
                                          ("*", "rt_two_notes", None))
        todo = project.sql(f"insert into rt_todos (owner, task) values ('{ALICE}', 'two') "
                           "returning id").splitlines()[0]
        project.sql("insert into rt_two_notes values (1, 'first')")
        project.sql(f"update rt_todos set task = 'two again' where id = {todo}")  # not asked for
        project.sql("update rt_two_notes set body = 'sentinel' where id = 1")
        seen = [await asyncio.wait_for(changes.get(), WAIT) for _ in range(3)]
        await client.close()
        return seen

    seen = [message["data"] for message in run(scenario())]
    assert [(data["table"], data["type"]) for data in seen] == [
        ("rt_todos", "INSERT"), ("rt_two_notes", "INSERT"), ("rt_two_notes", "UPDATE")]
    assert seen[1]["record"] == {"id": 1, "body": "first"}
    assert seen[2]["record"]["body"] == "sentinel"


def test_a_filter_on_a_column_the_role_cannot_select_never_matches_through_a_wildcard(
        changes_project):
    """`secret` is not granted to authenticated: a filter on it, on every table of the schema
    (`table: "*"`, not refused at the join as a named table is), never matches, so it cannot tell
    which of the subscriber's rows hold a value they cannot read. The sentinel, written after the
    row the filter would match, comes first."""
    project = changes_project
    project.sql("""
        create table if not exists public.rt_sentinel (id int primary key);
        grant select on public.rt_sentinel to authenticated;
        do $$ begin
          if not exists (select 1 from pg_publication_tables where pubname = 'supabase_realtime'
                         and tablename = 'rt_sentinel') then
            alter publication supabase_realtime add table public.rt_sentinel;
          end if;
        end $$;
        """)
    alice = sign_in(project, "alice@example.com")

    async def scenario():
        client, changes = await listening(project, alice, ("INSERT", "*", "secret=eq.s1"),
                                          ("INSERT", "rt_sentinel", None))
        project.sql(f"insert into rt_todos (owner, task, secret) values ('{ALICE}', 'oracle', 's1')")
        project.sql("insert into rt_sentinel values (1) on conflict do nothing")
        first = await asyncio.wait_for(changes.get(), WAIT)
        await client.close()
        return first

    assert run(scenario())["data"]["table"] == "rt_sentinel"


def test_a_channel_ends_when_its_token_expires(rt_project):
    """Realtime shuts a channel down when its JWT's `exp` passes: a `system` error, `phx_close`,
    and no broadcast reaches it after (one sent and acknowledged later does not come before the
    heartbeat's reply)."""
    from hardening import jwt_secret, mint, user_claims

    expiring = mint(jwt_secret(rt_project), user_claims(ALICE, exp=int(time.time()) + 3))

    async def scenario():
        async with websockets.connect(socket_url(rt_project, rt_project.anon_key)) as victim, \
                websockets.connect(socket_url(rt_project, rt_project.anon_key)) as sender:
            await victim.send(json.dumps({"topic": "realtime:expiring", "event": "phx_join",
                                          "payload": {"config": {}, "access_token": expiring},
                                          "ref": "1", "join_ref": "1"}))
            joined = json.loads(await asyncio.wait_for(victim.recv(), WAIT))
            system = json.loads(await asyncio.wait_for(victim.recv(), WAIT))
            closed = json.loads(await asyncio.wait_for(victim.recv(), WAIT))
            await sender.send(json.dumps({"topic": "realtime:expiring", "event": "phx_join",
                                          "payload": {"config": {"broadcast": {"ack": True}}},
                                          "ref": "1", "join_ref": "1"}))
            await asyncio.wait_for(sender.recv(), WAIT)
            await sender.send(json.dumps({"topic": "realtime:expiring", "event": "broadcast",
                                          "payload": {"type": "broadcast", "event": "e",
                                                      "payload": {"late": True}},
                                          "ref": "2", "join_ref": "1"}))
            acked = json.loads(await asyncio.wait_for(sender.recv(), WAIT))
            await victim.send(json.dumps({"topic": "phoenix", "event": "heartbeat", "payload": {},
                                          "ref": "9"}))
            after = json.loads(await asyncio.wait_for(victim.recv(), WAIT))
            return joined, system, closed, acked, after

    joined, system, closed, acked, after = run(scenario())
    assert joined["payload"]["status"] == "ok"
    assert system["event"] == "system" and system["payload"]["status"] == "error"
    assert system["payload"]["message"].startswith("Token has expired")
    assert closed["event"] == "phx_close"
    assert acked["payload"]["status"] == "ok"
    assert after["topic"] == "phoenix" and after["ref"] == "9"


def _raw_reader(project, topic):
    """A raw WebSocket (1.0.0) with a tiny receive buffer, joined to `topic`, that reads nothing
    more until asked."""
    import socket as sockets
    connection = sockets.socket()
    connection.setsockopt(sockets.SOL_SOCKET, sockets.SO_RCVBUF, 4096)
    connection.settimeout(WAIT * 3)
    connection.connect(("127.0.0.1", project.port))
    connection.sendall((f"GET /realtime/v1/websocket?apikey={project.anon_key}&vsn=1.0.0 HTTP/1.1\r\n"
                        "Host: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                        "Sec-WebSocket-Version: 13\r\n\r\n").encode())
    received = b""
    while b"\r\n\r\n" not in received:
        received += connection.recv(1)
    assert received.startswith(b"HTTP/1.1 101"), received
    _send_text(connection, {"topic": topic, "event": "phx_join", "payload": {"config": {}},
                            "ref": "1", "join_ref": "1"})
    while b'"phx_reply"' not in received:
        received += connection.recv(4096)
    return connection


def _send_text(connection, message):
    """One masked text frame (mask 0: the payload as is)."""
    data = json.dumps(message).encode()
    size = len(data)
    head = bytes([0x81, 0x80 | size]) if size < 126 else bytes([0x81, 0x80 | 126]) + size.to_bytes(2, "big")
    connection.sendall(head + b"\0\0\0\0" + data)


def test_readers_that_never_read_hold_no_more_than_the_unsent_limit_together(start_extra_project):
    """Four readers that never read, five 2.9 MB broadcasts (14.5 MB each, under the 32 MiB a
    socket may leave unsent): with 8 MiB allowed unsent for all sockets together, readers past it
    are closed instead of holding the gateway's memory (before, each kept its 14.5 MB, and 30
    such readers held 480 MB from the anon key). A reader closed gets no reply to a heartbeat."""
    project = start_extra_project("realtime-unsent", env={"SNM_REALTIME_UNSENT_LIMIT": str(8 << 20)})
    readers = [_raw_reader(project, "realtime:flood") for _ in range(4)]

    async def send():
        async with websockets.connect(socket_url(project, project.anon_key), max_size=None) as sender:
            await sender.send(json.dumps({"topic": "realtime:flood", "event": "phx_join",
                                          "payload": {"config": {"broadcast": {"ack": True}}},
                                          "ref": "1", "join_ref": "1"}))
            await asyncio.wait_for(sender.recv(), WAIT)
            big = {"type": "broadcast", "event": "e", "payload": {"p": "x" * 2_900_000}}
            for ref in range(5):
                await sender.send(json.dumps({"topic": "realtime:flood", "event": "broadcast",
                                              "payload": big, "ref": str(ref + 2), "join_ref": "1"}))
                acked = json.loads(await asyncio.wait_for(sender.recv(), WAIT))
                assert acked["payload"]["status"] == "ok"

    run(send())
    closed = 0
    for reader in readers:
        # Every broadcast was pushed before its ack: a reader still open answers the heartbeat
        # after them; one closed ends first.
        try:
            _send_text(reader, {"topic": "phoenix", "event": "heartbeat", "payload": {}, "ref": "hb"})
        except OSError:
            pass
        received = b""
        while b'"ref":"hb"' not in received[-200:]:
            try:
                chunk = reader.recv(1 << 20)
            except ConnectionResetError:
                chunk = b""
            if not chunk:
                closed += 1
                break
            received = received[-200:] + chunk
        reader.close()
    assert closed >= 1

    async def fresh():
        async with websockets.connect(socket_url(project, project.anon_key)) as ws:
            await ws.send(json.dumps({"topic": "phoenix", "event": "heartbeat", "payload": {},
                                      "ref": "1"}))
            return json.loads(await asyncio.wait_for(ws.recv(), WAIT))

    assert run(fresh())["payload"]["status"] == "ok"
def until(condition, what):
    """Waits (at most WAIT seconds) for `condition()` to be truthy; returns it."""
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError(f"gave up waiting for {what}")


def committed_but_not_visible(project, statement):
    """Runs `statement` in a psql of its own with a synchronous standby that never comes: its
    commit is flushed to the WAL (so the change stream decodes it) but the transaction stays out
    of every new snapshot, the window a busy machine opens between the two. Returns the psql
    process and its backend's pid, once it waits there."""
    process = subprocess.Popen(
        ["psql", "-h", project.socket_dir, "-p", "5432", "-U", "postgres", "-d", "postgres", "-At",
         "-c", statement], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    pid = until(lambda: project.sql(
        "select pid from pg_stat_activity where wait_event = 'SyncRep' "
        f"and query = $q${statement}$q$") or process.poll() is not None, "the commit to wait")
    assert process.poll() is None, "the statement committed without waiting for the standby"
    return process, pid


def test_a_change_decoded_before_its_transaction_is_visible_still_reaches_rls_subscribers(
        changes_project):
    """The RLS check of a subscriber waits for the change's transaction to be visible: a row
    checked as soon as its commit is decoded was not there yet, and the event was dropped."""
    project = changes_project
    alice = sign_in(project, "alice@example.com")

    async def scenario():
        client, changes = await listening(project, alice, ("INSERT", "rt_todos", None))
        project.sql("alter system set synchronous_standby_names = 'snm_test_nobody'")
        project.sql("select pg_reload_conf()")
        try:
            # Sync replication is on once a commit waits for it.
            probe, probe_pid = None, None
            for _attempt in range(50):
                try:
                    probe, probe_pid = committed_but_not_visible(
                        project, "insert into rt_private values (1)")
                except AssertionError:
                    project.sql("delete from rt_private")
                else:
                    break
            assert probe is not None, "no commit ever waited for the synchronous standby"
            project.sql(f"select pg_cancel_backend({probe_pid})")
            probe.communicate(timeout=WAIT)
            writer, pid = committed_but_not_visible(
                project, f"insert into rt_todos (owner, task) values ('{ALICE}', 'late')")
            # The walsender has sent the commit: the server has it and checks the row now.
            flushed = project.sql("select pg_current_wal_flush_lsn()")
            until(lambda: project.sql("select bool_and(sent_lsn >= '" + flushed + "'::pg_lsn) "
                                      "from pg_stat_replication") == "t", "the commit to be sent")
            project.sql(f"select pg_cancel_backend({pid})")
            writer.communicate(timeout=WAIT)
        finally:
            project.sql("alter system reset synchronous_standby_names")
            project.sql("select pg_reload_conf()")
        change = await asyncio.wait_for(changes.get(), WAIT)
        await client.close()
        return change

    assert run(scenario())["data"]["record"]["task"] == "late"


def test_a_change_stream_that_ends_is_started_again_and_the_channel_told(changes_project):
    """The walsender terminated under a live subscription: the channel gets a system error
    saying changes are not being sent, then Realtime's "Subscribed to PostgreSQL" once the
    stream is back, and the next insert arrives."""
    project = changes_project
    alice = sign_in(project, "alice@example.com")

    async def scenario():
        async with websockets.connect(socket_url(project, project.anon_key, "2.0.0")) as ws:
            join = {"access_token": alice, "config": {"postgres_changes": [
                {"event": "INSERT", "schema": "public", "table": "rt_todos"}]}}
            await ws.send(json.dumps(["1", "1", "realtime:db", "phx_join", join]))
            received = [json.loads(await asyncio.wait_for(ws.recv(), WAIT)) for _ in range(2)]
            assert received[1][3] == "system" and received[1][4]["status"] == "ok", received
            assert project.sql(
                "select count(pg_terminate_backend(pid)) from pg_stat_replication") == "1"
            lost = json.loads(await asyncio.wait_for(ws.recv(), WAIT))
            back = json.loads(await asyncio.wait_for(ws.recv(), WAIT))
            project.sql(f"insert into rt_todos (owner, task) values ('{ALICE}', 'after')")
            change = json.loads(await asyncio.wait_for(ws.recv(), WAIT))
            return lost, back, change

    lost, back, change = run(scenario())
    assert lost[:4] == ["1", None, "realtime:db", "system"]
    assert lost[4]["status"] == "error" and lost[4]["extension"] == "postgres_changes"
    assert lost[4]["message"].startswith("the database's change stream ended (")
    assert back[3] == "system" and back[4] == {"extension": "postgres_changes", "status": "ok",
                                               "message": "Subscribed to PostgreSQL", "channel": "db"}
    assert change[3] == "postgres_changes" and change[4]["data"]["record"]["task"] == "after"


def test_presence_holds_no_more_than_its_limit_and_a_track_no_more_than_a_payload(
        start_extra_project):
    """Presence payloads are kept for as long as their sockets live: all of them together may take
    no more than the presence limit (1 MB here; 64 MiB by default), past which a track is refused
    and what a leave frees can be tracked again; one track larger than a payload may be (3,000
    KiB) ends its channel, as Realtime's `Track message size exceeded`. Before, 4 anon sockets
    tracking 2.9 MB on 100 channels each held 790 MB of the gateway."""
    project = start_extra_project("realtime-presence",
                                  env={"SNM_REALTIME_PRESENCE_LIMIT": "1000000"})

    async def scenario():
        async with websockets.connect(socket_url(project, project.anon_key), max_size=None) as ws:
            async def reply_to(ref):
                while True:
                    message = json.loads(await asyncio.wait_for(ws.recv(), WAIT))
                    if message["event"] == "phx_reply" and message["ref"] == ref:
                        return message["payload"]

            async def join(topic, ref):
                await ws.send(json.dumps({"topic": topic, "event": "phx_join", "ref": ref,
                                          "join_ref": ref, "payload": {"config": {
                                              "presence": {"enabled": True, "key": "k"}}}}))
                return await reply_to(ref)

            async def track(topic, ref, size):
                await ws.send(json.dumps({"topic": topic, "event": "presence", "ref": ref,
                                          "join_ref": "j", "payload": {
                                              "type": "presence", "event": "track",
                                              "payload": {"p": "x" * size}}}))

            tracked = []
            for n in range(3):
                await join(f"realtime:p{n}", f"j{n}")
                await track(f"realtime:p{n}", f"t{n}", 400_000)
                tracked.append(await reply_to(f"t{n}"))
            await ws.send(json.dumps({"topic": "realtime:p0", "event": "phx_leave", "payload": {},
                                      "ref": "l0", "join_ref": "j0"}))
            await reply_to("l0")
            await track("realtime:p2", "again", 400_000)
            again = await reply_to("again")
            await join("realtime:huge", "jh")
            await track("realtime:huge", "th", 3_100_000)
            events = []
            while len(events) < 2:
                message = json.loads(await asyncio.wait_for(ws.recv(), WAIT))
                if message["topic"] == "realtime:huge" and message["event"] in ("system", "phx_close"):
                    events.append(message)
            return tracked, again, events

    tracked, again, (system, closed) = run(scenario())
    assert [reply["status"] for reply in tracked] == ["ok", "ok", "error"]
    assert tracked[2]["response"]["reason"] == (
        "PresenceLimitReached: the project's presence holds 1000000 bytes at most")
    assert again["status"] == "ok"
    assert system["payload"]["message"] == "Track message size exceeded"
    assert system["payload"]["status"] == "error" and closed["event"] == "phx_close"


def test_a_join_asks_the_database_a_bounded_number_of_times(changes_project):
    """Each postgres_changes entry and each filtered column is checked in the database when the
    channel joins (on the pool REST reads use): a join of one 5 MB frame could ask it hundreds of
    thousands of times (a 2,000-condition filter took 1.3 s of queries). At most 100 entries a
    join and 100 conditions a filter (Realtime's filter takes one); a column filtered twice is
    checked once."""
    project = changes_project

    async def system_of(config):
        async with websockets.connect(socket_url(project, project.anon_key)) as ws:
            await ws.send(json.dumps({"topic": "realtime:bounded", "event": "phx_join", "ref": "1",
                                      "join_ref": "1", "payload": {"config": config}}))
            reply = json.loads(await asyncio.wait_for(ws.recv(), WAIT))
            assert reply["payload"]["status"] == "ok"
            return json.loads(await asyncio.wait_for(ws.recv(), WAIT))["payload"]

    entry = {"event": "*", "schema": "public", "table": "rt_todos"}
    many_conditions = {**entry, "filter": ",".join(["id=gte.0"] * 101)}
    hundred = {**entry, "filter": ",".join(["id=gte.0"] * 100)}
    conditions = run(system_of({"postgres_changes": [many_conditions]}))
    entries = run(system_of({"postgres_changes": [entry] * 101}))
    allowed = run(system_of({"postgres_changes": [hundred] * 100}))
    assert conditions["status"] == "error"
    assert conditions["message"] == "Error parsing `filter` params: at most 100 conditions"
    assert entries["status"] == "error"
    assert entries["message"] == "Unable to subscribe to changes: at most 100 postgres_changes a channel"
    assert allowed["status"] == "ok"
