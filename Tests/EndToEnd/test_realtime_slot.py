"""postgres_changes survive their stream's restart: the local project's logical slot
(`snm_realtime`) outlives the replication connection, so a change committed while the stream was
down (its walsender terminated) reaches the subscriber once the stream is back, once; and the slot
never outlives the gateway (it would hold the WAL behind it): `snm local stop` drops it, and a
gateway that crashed leaves one that the next gateway drops when it starts. Each wait is for an
event, bounded so a missing event fails instead of hanging."""
import asyncio
import json
import os
import pathlib
import signal
import subprocess

import pytest
import websockets

from conftest import NO_AUTH_RATE_LIMITS, run_snm
from hardening import wait_until, worker_pid

WAIT = 30


@pytest.fixture(scope="module")
def project(start_extra_project):
    handle = start_extra_project("realtime-slot")
    handle.sql("""
        create table public.sl_notes (id bigint generated always as identity primary key, body text);
        grant select on public.sl_notes to anon, authenticated;
        alter publication supabase_realtime add table public.sl_notes;
        """)
    return handle


def socket_url(project):
    return (project.url.replace("http://", "ws://")
            + f"/realtime/v1/websocket?apikey={project.anon_key}&vsn=1.0.0")


async def subscribed(project):
    """A socket whose channel listens to sl_notes inserts, once the server says it is live."""
    ws = await websockets.connect(socket_url(project))
    await ws.send(json.dumps({
        "topic": "realtime:notes", "event": "phx_join", "ref": "1", "join_ref": "1",
        "payload": {"config": {"postgres_changes": [
            {"event": "INSERT", "schema": "public", "table": "sl_notes"}]}}}))
    await next_system(ws)
    return ws


async def next_system(ws):
    """The payload of the next postgres_changes system message."""
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), WAIT))
        if message["event"] == "system":
            return message["payload"]


async def next_change(ws):
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), WAIT))
        if message["event"] == "postgres_changes":
            return message["payload"]["data"]["record"]["body"]


def slots(project):
    return project.sql("select slot_name || ' ' || temporary from pg_replication_slots "
                       "where slot_name like 'snm_realtime%'")


def psql_session(project):
    return subprocess.Popen(
        ["psql", "-h", project.socket_dir, "-p", "5432", "-U", "postgres", "-d", "postgres", "-q",
         "-v", "ON_ERROR_STOP=1"], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE, text=True)


def test_a_change_committed_while_the_stream_is_down_arrives_after_it_is_back(project):
    """The insert's transaction is open when the walsender is terminated and commits only after
    the subscriber was told the stream ended. Before, the stream started again on a new temporary
    slot, which waits for open transactions and decodes from after them: the change was lost and
    the next event was the later insert."""
    async def scenario():
        ws = await subscribed(project)
        session = psql_session(project)
        session.stdin.write("begin;\ninsert into sl_notes (body) values ('while down');\n")
        session.stdin.flush()
        wait_until(lambda: project.sql(
            "select count(*) from pg_stat_activity where state = 'idle in transaction' "
            "and query like 'insert into sl_notes%'") == "1", what="the open insert")
        assert project.sql("select count(pg_terminate_backend(active_pid)) from "
                           "pg_replication_slots where slot_name like 'snm_realtime%'") == "1"
        ended = await next_system(ws)
        session.stdin.write("commit;\n")
        session.stdin.close()
        assert await asyncio.to_thread(session.wait, WAIT) == 0, session.stderr.read()
        back = await next_system(ws)
        first = await next_change(ws)
        project.sql("insert into sl_notes (body) values ('after')")
        second = await next_change(ws)
        await ws.close()
        return ended, back, first, second

    ended, back, first, second = asyncio.run(asyncio.wait_for(scenario(), 120))
    assert ended["status"] == "error"
    assert ended["message"].startswith("the database's change stream ended (")
    assert ended["message"].endswith("changes are sent once it is started again")
    assert (back["status"], back["message"]) == ("ok", "Subscribed to PostgreSQL")
    assert (first, second) == ("while down", "after")  # the lost one arrives, and only once


def test_the_slot_goes_with_the_project_and_with_a_crashed_gateway(project):
    """The slot is not temporary (it outlives the stream's connection), so it must not outlive
    the gateway: after `snm local stop` the cluster holds none (pg_replslot), and one a killed
    gateway left is dropped by the gateway started in its place, before any client joins."""
    async def listen():
        ws = await subscribed(project)
        await ws.close()

    asyncio.run(asyncio.wait_for(listen(), 60))
    assert slots(project) == "snm_realtime false"
    status = json.loads(run_snm("local", "status", "--dir", project.data_dir, "--json").stdout)
    replslot = pathlib.Path(status["cluster_dir"]) / "data" / "pg_replslot"
    assert (replslot / "snm_realtime").is_dir()

    stopped = run_snm("local", "stop", "--dir", project.data_dir, timeout=60)
    assert stopped.returncode == 0, stopped.stderr
    assert not (replslot / "snm_realtime").exists()

    started = run_snm("local", "start", "--dir", project.data_dir, "--port", str(project.port),
                      *NO_AUTH_RATE_LIMITS, timeout=180)
    assert started.returncode == 0, started.stderr
    asyncio.run(asyncio.wait_for(listen(), 60))
    assert slots(project) == "snm_realtime false"
    worker = worker_pid(project)
    os.kill(worker, signal.SIGKILL)
    wait_until(lambda: worker_pid(project) not in (None, worker), what="a new gateway worker")
    wait_until(lambda: slots(project) == "", what="the crashed gateway's slot to be dropped")
