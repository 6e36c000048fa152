"""`snm listen`: a table's or a channel's events streamed to standard output, one line each, for
pipes and CI, against the local project. Each test waits for 'snm: listening to NAME' on standard
error (the subscription is live) before it writes, then for the lines it expects; none sleeps."""
import json
import os
import signal
import subprocess

import pytest

from conftest import SNM, run_snm


@pytest.fixture(scope="module")
def listen_project(start_extra_project):
    handle = start_extra_project("realtime-listen")
    handle.sql("""
        create table public.listen_todos (id int primary key, title text);
        grant all on public.listen_todos to anon, authenticated;
        alter publication supabase_realtime add table public.listen_todos;
        create table public.listen_hidden (id int primary key);
        grant all on public.listen_hidden to anon, authenticated;
        """)
    return handle


def start_listen(project, home, *words):
    """`snm listen WORDS...` running, once it said it is listening."""
    process = subprocess.Popen(
        [SNM, "listen", "--url", project.url, "--key", project.anon_key, *words],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env={**os.environ, **home})
    line = process.stderr.readline()
    if not line.startswith("snm: listening to "):
        process.kill()
        out, err = process.communicate(timeout=30)
        pytest.fail(f"snm listen did not go live: {line}{err}")
    return process


def test_json_lines_for_each_event_then_exit_0_after_count(listen_project, home):
    process = start_listen(listen_project, home, "listen_todos", "insert", "--json", "--count", "2")
    listen_project.sql("insert into public.listen_todos values (1, 'walk'), (2, 'feed')")
    out, err = process.communicate(timeout=60)
    assert process.returncode == 0, err
    events = [json.loads(line) for line in out.splitlines()]
    assert [(e["type"], e["table"], e["record"]["title"]) for e in events] == [
        ("INSERT", "listen_todos", "walk"), ("INSERT", "listen_todos", "feed")]
    assert events[0]["subscription"] == "listen_todos"


def test_a_filter_in_where_syntax_and_a_table_line_without_json(listen_project, home):
    process = start_listen(listen_project, home, "listen_todos", "insert", "where", "id", "gt",
                           "10", "--count", "1")
    listen_project.sql("insert into public.listen_todos values (5, 'skip'), (11, 'keep')")
    out, err = process.communicate(timeout=60)
    assert process.returncode == 0, err
    assert out.startswith("listen_todos INSERT {")
    assert '"title":"keep"' in out.replace(" ", "")
    assert "skip" not in out


def test_a_channel_streams_broadcasts_until_sigint_exit_130(listen_project, home):
    process = start_listen(listen_project, home, "channel", "room9", "--format", "ndjson")
    sent = run_snm("--url", listen_project.url, "--key", listen_project.anon_key, "-c",
                   'broadcast room9 ping {"n": 1}', env=home, timeout=60)
    assert sent.returncode == 0, sent.stderr
    events = [json.loads(process.stdout.readline())]
    while events[-1]["type"] != "broadcast":  # a channel also hears presence: its sync first
        events.append(json.loads(process.stdout.readline()))
    assert (events[-1]["event"], events[-1]["payload"]) == ("ping", {"n": 1})
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=30)
    assert process.returncode == 130, err
    assert f"stopped listening to room9 ({len(events)} event" in err


def test_sigterm_exits_143(listen_project, home):
    process = start_listen(listen_project, home, "listen_todos", "delete")
    process.send_signal(signal.SIGTERM)
    out, err = process.communicate(timeout=30)
    assert process.returncode == 143, err
    assert out == ""


def test_for_a_duration_with_nothing_arriving_exits_0_printing_nothing(listen_project, home):
    process = start_listen(listen_project, home, "listen_todos", "delete", "--for", "300ms")
    out, err = process.communicate(timeout=30)
    assert process.returncode == 0, err
    assert out == ""


def test_a_table_outside_the_publication_fails_with_exit_1(listen_project, home):
    result = run_snm("listen", "--url", listen_project.url, "--key", listen_project.anon_key,
                     "listen_hidden", env=home, timeout=60)
    assert result.returncode == 1, result.stderr
    assert "supabase_realtime" in result.stderr
    assert result.stdout == ""


@pytest.mark.parametrize("words,message", [
    ((), "'snm listen' needs what to listen to"),
    (("listen_todos", "sometimes"), "error"),
    (("listen_todos\nfrom listen_todos delete where id eq 1",), "snm listen takes one subscription"),
    (("listen_todos", "--count", "0"), "--count"),
    (("listen_todos", "--for", "soon"), "option '--for' needs a duration"),
])
def test_malformed_listens_are_usage_errors_sending_nothing(listen_project, home, words, message):
    result = run_snm("listen", "--url", listen_project.url, "--key", listen_project.anon_key,
                     *words, env=home, timeout=60)
    assert result.returncode == 2, result.stderr
    assert message in result.stderr
    assert listen_project.sql("select count(*) from public.listen_todos where id = 1") in ("0", "1")


def test_the_server_going_away_is_exit_3_with_a_message(start_extra_project, home):
    """Never a silent stop: the project is stopped under a running listen."""
    doomed = start_extra_project("realtime-listen-doomed")
    process = start_listen(doomed, home, "channel", "room12")
    doomed.stop()
    out, err = process.communicate(timeout=60)
    assert process.returncode == 3, err
    assert "snm: listen room12: the socket ended" in err
    assert "; no more events (1 event received)" in err  # presence's sync


def test_a_server_that_stops_answering_fails_expect_event_with_exit_3(start_extra_project, home):
    """The gateway is stopped (SIGSTOP: the connection stays open, nothing answers): the heartbeat
    (every 25 s, answered within 10 s) finds it dead and `expect event` fails with exit 3 instead
    of waiting out its two minutes (before: exit 1 after 120 s, 'none within')."""
    hung = start_extra_project("realtime-hung")
    process = subprocess.Popen(
        [SNM, "--url", hung.url, "--key", hung.anon_key, "-c",
         "listen channel r1\necho 'live'\nexpect event r1 ping within 120s"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env={**os.environ, **home})
    assert process.stdout.readline() == "live\n"
    supervisor = json.loads(run_snm("local", "status", "--dir", hung.data_dir, "--json").stdout)[
        "gateway_pid"]
    # the gateway is `snm local serve`, a child of the process status names
    pids = [supervisor] + [int(pid) for pid in subprocess.run(
        ["pgrep", "-P", str(supervisor)], capture_output=True, text=True).stdout.split()]
    for pid in pids:
        os.kill(pid, signal.SIGSTOP)
    try:
        out, err = process.communicate(timeout=90)
    finally:
        for pid in pids:
            os.kill(pid, signal.SIGCONT)
    assert process.returncode == 3, err
    assert ("cannot tell whether a 'ping' event from r1 came: the socket ended: realtime did not "
            "answer heartbeat on phoenix within 10s") in err


def test_a_reader_gone_or_a_full_disk_ends_listening(listen_project, home):
    """`snm listen todos insert | head -1` never ended: SIGPIPE is ignored and every later event
    was written to a pipe no one read, for ever (as `tail -f | head -1` ends at the next line).
    The first event written to a reader gone ends it quietly (exit 0); one that cannot be
    written (a full disk) ends it saying so (exit 1)."""
    gone = start_listen(listen_project, home, "listen_todos", "insert", "where", "id", "gt", "100")
    try:
        gone.stdout.close()  # the reader goes away
        listen_project.sql("insert into public.listen_todos values (101, 'unread')")
        assert gone.wait(timeout=60) == 0, gone.stderr.read()
    finally:
        gone.kill()
        gone.wait()
    with open("/dev/full", "w") as full:
        process = subprocess.Popen(
            [SNM, "listen", "--url", listen_project.url, "--key", listen_project.anon_key,
             "listen_todos", "insert", "where", "id", "gt", "200"],
            stdout=full, stderr=subprocess.PIPE, text=True, env={**os.environ, **home})
    try:
        line = process.stderr.readline()
        assert line.startswith("snm: listening to "), line
        listen_project.sql("insert into public.listen_todos values (201, 'lost')")
        assert process.wait(timeout=60) == 1
        assert "snm: cannot write standard output: no space left on the device (ENOSPC); " \
            "what snm printed there is incomplete" in process.stderr.read()
    finally:
        process.kill()
        process.wait()
