"""snm's Realtime statements against the local project's Realtime (/realtime/v1): in a script
(broadcast back to its own channel, presence, the events taken in order, a channel the server
refuses), `snm check`-clean scripts run as written. Each wait is for an event, bounded by the
statement's own `within` so a missing event fails instead of hanging."""
import json
import html
import os
import subprocess

import pytest
import websockets.sync.client

from conftest import SNM, run_snm
from tmux_shell import PROMPT, TmuxShell


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


@pytest.fixture(scope="module")
def todos(rt_project):
    """shell_todos (no RLS, anon may write) in supabase_realtime; shell_hidden not in it."""
    rt_project.sql("""
        create table public.shell_todos (id uuid primary key default gen_random_uuid(),
          title text, done boolean not null default false);
        grant all on public.shell_todos to anon, authenticated;
        alter publication supabase_realtime add table public.shell_todos;
        create table public.shell_hidden (id int primary key);
        grant all on public.shell_hidden to anon, authenticated;
        """)
    return rt_project


def test_a_script_sees_the_writes_made_on_the_next_lines(todos, home):
    """listen returns only once the server said "Subscribed to PostgreSQL": the insert on the
    next line is never missed, and the events are taken as `expect event` asks."""
    result = snm_script(todos, home, """
listen shell_todos
from shell_todos insert {"title": "walk"}
from shell_todos insert {"title": "feed"}
expect event shell_todos insert where title eq 'feed' within 10s
echo $event.record.title
expect event shell_todos insert within 10s
echo $event.record.title
from shell_todos update {"done": true} where title eq 'walk'
expect event shell_todos update within 10s
echo $event.record.done
""")
    assert result.returncode == 0, result.stderr
    assert result.stdout == "inserted (HTTP 201)\ninserted (HTTP 201)\nfeed\nwalk\nUPDATE 1\ntrue\n"


def test_listening_to_a_table_outside_the_publication_says_so(todos, home):
    result = snm_script(todos, home, "listen shell_hidden\necho 'not reached'")
    assert result.returncode == 1, result.stderr
    assert "not reached" not in result.stdout
    assert "supabase_realtime" in result.stderr


def test_a_change_stream_that_ends_fails_expect_event_with_the_servers_reason(todos, home,
                                                                              tmp_path):
    """The server's change stream ends under a live subscription (the walsender terminated):
    Realtime's system error reaches the script, and `expect event` fails at once saying why
    (exit 3) instead of waiting out its time for an event that cannot come."""
    script = tmp_path / "ended.snm"
    script.write_text("listen shell_todos\necho 'live'\nexpect event shell_todos within 60s\n")
    process = subprocess.Popen(
        [SNM, "--url", todos.url, "--key", todos.anon_key, str(script)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env={**os.environ, **home})
    try:
        assert process.stdout.readline() == "live\n"
        assert todos.sql("select count(pg_terminate_backend(pid)) from pg_stat_replication") == "1"
        _out, err = process.communicate(timeout=30)
    finally:
        process.kill()
    assert process.returncode == 3, err
    assert ("expect event: cannot tell whether an event from shell_todos came: the subscription "
            "ended: the database's change stream ended (") in err


def prompt_shell(project, home, width):
    """snm at a prompt in tmux's pty, listening to shell_todos."""
    shell = TmuxShell([SNM, "--url", project.url, "--key", project.anon_key], env=home,
                      width=width)
    try:
        shell.wait_for_prompt()
        assert "listening to shell_todos" in shell.run("listen shell_todos")
    except BaseException:
        shell.close()
        raise
    return shell


def squeezed(text):
    return text.replace(" ", "")


def typed_rows(screen):
    """The rows from the last prompt down, joined with their spaces removed (tmux breaks a wrapped
    line into rows and trims their trailing spaces), and the rows above them."""
    lines = screen.splitlines()
    start = max((i for i, line in enumerate(lines) if PROMPT.match(line)), default=len(lines))
    return squeezed("".join(lines[start:])), lines[:start]


def test_an_event_at_the_prompt_prints_above_the_line_being_typed(todos, home):
    """An event arriving while a line is half typed prints on its own line above the prompt, and
    the prompt and the typed text are drawn again below it as they were: Enter runs the whole
    line. Before, the event printed at the cursor, after the typed text on the same line."""
    typed = "from shell_todos select title where title eq 'above-the-line'"
    with prompt_shell(todos, home, 160) as shell:
        shell.type(typed)
        shell.wait_for(lambda s: s.splitlines()[-1].endswith(typed))
        todos.sql("insert into public.shell_todos (title) values ('above-the-line')")
        screen = shell.wait_for(lambda s: "INSERT" in s)
        lines = screen.splitlines()
        assert PROMPT.match(lines[-1]) and lines[-1].endswith("> " + typed), screen
        assert lines[-2].startswith("shell_todos INSERT ") and "above-the-line" in lines[-2], screen
        before = shell.prompt_count()
        shell.press("Enter")
        screen = shell.wait_for_prompt(before + 1)
        assert "(1 row)" in screen, screen


def test_a_wrapped_line_in_a_narrow_window_is_redrawn_whole_with_its_cursor(todos, home):
    """40 columns: the half-typed line spans rows, wide characters in it, its cursor in the
    middle. The event prints above the first of them, the line is drawn again whole below it, and
    a key typed next lands where the cursor was."""
    typed = "from shell_todos select titl where title eq '좁은 창'"
    whole = "from shell_todos select title where title eq '좁은 창'"
    with prompt_shell(todos, home, 40) as shell:
        shell.type(typed)
        shell.wait_for(lambda s: typed_rows(s)[0].endswith(">" + squeezed(typed)))
        shell.press(*["Left"] * len(" where title eq '좁은 창'"))
        todos.sql("insert into public.shell_todos (title) values ('좁은 창')")
        shell.wait_for(lambda s: "INSERT" in s)
        shell.type("e")
        screen = shell.wait_for(lambda s: typed_rows(s)[0].endswith(">" + squeezed(whole)))
        joined, above = typed_rows(screen)
        assert "INSERT" not in joined and len(joined) > 40, screen
        assert "INSERT" in squeezed("".join(above)), screen
        before = shell.prompt_count()
        shell.press("Enter")
        screen = shell.wait_for_prompt(before + 1)
        assert "(1 row)" in screen, screen


def test_a_failing_expect_event_leaves_the_last_three_events_in_the_tap_and_junit_traces(
        rt_project, home, tmp_path):
    script = tmp_path / "events.snm"
    script.write_text("""listen channel traced
broadcast traced n {"n": 1}
broadcast traced n {"n": 2}
broadcast traced n {"n": 3}
broadcast traced n {"n": 4}
expect event traced n where n eq 4 within 10s
expect event traced nope within 300ms
""")
    tap = tmp_path / "report.tap"
    junit = tmp_path / "report.xml"
    result = run_snm("test", "--url", rt_project.url, "--key", rt_project.anon_key, "--report",
                     f"tap={tap}", "--report", f"junit={junit}", str(script), env=home,
                     timeout=60)
    assert result.returncode == 1, result.stdout + result.stderr
    for report in (tap.read_text().replace('\\"', '"'), html.unescape(junit.read_text())):
        assert "~ the last 3 event(s) received, oldest first" in report, report
        traced = [line for line in report.splitlines() if "~ {" in line]
        assert ['"payload":{"n":%d}' % n in line for n, line in zip((1, 2, 3), traced)] == [
            True] * 3, report
