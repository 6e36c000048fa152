"""`realtime check` as a statement of the language: in scripts (a problem fails the statement with
exit 1, the report printed, so CI can gate on it), at the prompt, under `snm test`, checked
offline by `snm check` and shown by `explain`; for tables and private channels (the read and write
policies on realtime.messages, probed as Realtime probes them) against the local project (`--local`:
its database is read), and against a project named by URL with the anon key and the service key,
where the report says what it could not check."""
import hashlib
import json
import subprocess
import uuid

import pytest

from conftest import SNM, WORKDIR, free_port, run_snm
from tmux_shell import PROMPT, TmuxShell

SETUP = """
    create table public.rs_open (id int primary key, title text);
    grant select on public.rs_open to anon, authenticated;
    insert into public.rs_open values (1, 'a');
    alter publication supabase_realtime add table public.rs_open;
    create table public.rs_unpublished (id int primary key);
    grant select on public.rs_unpublished to anon, authenticated;
    create policy "alice reads room1" on realtime.messages for select to authenticated
      using (realtime.topic() = 'room1' and auth.jwt() ->> 'email' = 'alice@example.com');
    create policy "alice writes room1" on realtime.messages for insert to authenticated
      with check (realtime.topic() = 'room1' and auth.jwt() ->> 'email' = 'alice@example.com');
    create policy "readers of room2" on realtime.messages for select to authenticated
      using (realtime.topic() = 'room2');
    """


@pytest.fixture(scope="module")
def local(snm_bin):
    """The default local project of XDG_DATA_HOME=<workdir>/rtcheck-data (what `--local` picks),
    running on a free port."""
    data_home = WORKDIR / "rtcheck-data"
    folder = data_home / "snm" / "local"
    folder.parent.mkdir(parents=True, exist_ok=True)
    run_snm("local", "stop", "--dir", str(folder), timeout=60)
    result = run_snm("local", "reset" if (folder / "project.json").exists() else "start",
                     "--dir", str(folder), "--port", str(free_port()), "--json", timeout=180)
    assert result.returncode == 0, result.stderr
    status = json.loads(result.stdout)
    try:
        psql = ["psql", "-h", socket_dir(status["cluster_dir"]), "-p", "5432", "-U", "postgres",
                "-d", "postgres", "-v", "ON_ERROR_STOP=1", "-c", SETUP]
        setup = subprocess.run(psql, capture_output=True, text=True, timeout=60)
        assert setup.returncode == 0, setup.stderr
        yield {"data_home": str(data_home), "url": status["url"], "status": status}
    finally:
        run_snm("local", "stop", "--dir", str(folder), timeout=60)


def socket_dir(cluster_dir):
    """The folder of the cluster's unix socket, as conftest's LocalProject.socket_dir finds it."""
    socket = cluster_dir + "/run"
    if len(socket) + len("/.s.PGSQL.5432") > 100:
        socket = "/tmp/snm-" + hashlib.sha256(cluster_dir.encode()).hexdigest()[:16]
    return socket


@pytest.fixture
def env(home, local):
    return {**home, "XDG_DATA_HOME": local["data_home"]}


def snm(env, *args, timeout=90):
    return run_snm("--local", *args, env=env, timeout=timeout)


def signed_in(env, email, password="password123"):
    result = snm(env, "-c", f"login email '{email}' password '{password}'")
    assert result.returncode == 0, result.stderr


def new_user(env):
    email = f"rs-{uuid.uuid4().hex[:10]}@example.com"
    result = snm(env, "-c", f"signup email '{email}' password 'password123'")
    assert result.returncode == 0, result.stderr
    return email


# ---- tables, in scripts ------------------------------------------------------------------------

def test_a_published_table_passes_and_the_script_goes_on(env):
    result = snm(env, "-c", "realtime check rs_open\necho 'after'")
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "realtime check public.rs_open, as anon"
    assert "  ok           in the supabase_realtime publication" in lines
    assert "  ok           row level security off: anon sees every row (1 of 1 rows)" in lines
    assert any(line.startswith("  ok           Realtime joined and subscribed") for line in lines)
    assert lines[-1] == "after"


def test_a_problem_fails_the_script_with_exit_1_and_the_report(env, tmp_path):
    script = tmp_path / "gate.snm"
    script.write_text("realtime check rs_unpublished\necho 'not reached'\n")
    result = snm(env, str(script))
    assert result.returncode == 1, result.stdout + result.stderr
    assert ("  problem      not in the supabase_realtime publication: no change is sent "
            "(alter publication supabase_realtime add table public.rs_unpublished)"
            in result.stdout.splitlines())
    assert "not reached" not in result.stdout
    assert f"{script}:1:1: error: expectation failed: realtime check rs_unpublished" in result.stderr
    assert "expected: no problem found by realtime check public.rs_unpublished" in result.stderr
    assert "found:    2 problems (above)" in result.stderr


def test_snm_test_reports_the_failed_check_in_junit(env, tmp_path):
    passing = tmp_path / "a_open.snm"
    passing.write_text("realtime check rs_open\n")
    failing = tmp_path / "b_unpublished.snm"
    failing.write_text("realtime check rs_unpublished\n")
    junit = tmp_path / "report.xml"
    result = run_snm("test", "--local", "--report", f"junit={junit}", str(passing), str(failing),
                     env=env, timeout=120)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "1 passed, 1 failed" in result.stdout
    report = junit.read_text()
    assert "expectation failed: realtime check rs_unpublished" in report
    assert "no problem found by realtime check public.rs_unpublished" in report


# ---- private channels ----------------------------------------------------------------------------

def test_a_private_channel_the_user_may_read_and_write_passes(env):
    signed_in(env, "alice@example.com")
    result = snm(env, "-c", "realtime check channel room1 private")
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "realtime check channel room1 (private), as authenticated (alice@example.com)"
    assert ("  ok           read: a select policy on realtime.messages lets this user join room1 "
            "and receive") in lines
    assert ("  ok           write: an insert policy on realtime.messages lets this user broadcast "
            "and track on room1") in lines
    assert ("  ok           Realtime joined the private channel: its read policy let this user in"
            in lines)


def test_a_user_the_policies_refuse_is_a_problem(env):
    email = new_user(env)
    signed_in(env, email)
    result = snm(env, "-c", "realtime check channel room1 private")
    assert result.returncode == 1, result.stdout + result.stderr
    assert result.stdout.startswith(
        f"realtime check channel room1 (private), as authenticated ({email})\n")
    assert "  problem      read: no select policy on realtime.messages lets this user read room1" in (
        result.stdout)
    assert "  problem      write: no insert policy" in result.stdout
    assert "Unauthorized: You do not have permissions to read from this Channel topic" in (
        result.stdout)


def test_read_without_write_is_told_apart(env):
    email = new_user(env)
    signed_in(env, email)
    result = snm(env, "-c", "realtime check channel room2 private")
    assert result.returncode == 1, result.stdout + result.stderr
    assert "  ok           read: a select policy" in result.stdout
    assert "  problem      write: no insert policy on realtime.messages lets this user write room2" in (
        result.stdout)
    assert "  ok           Realtime joined the private channel" in result.stdout


def test_anon_on_a_private_channel_is_a_problem(env):
    result = snm(env, "-c", "realtime check channel room1 private")
    assert result.returncode == 1, result.stdout + result.stderr
    assert result.stdout.startswith("realtime check channel room1 (private), as anon\n")
    assert "  problem      read: no select policy" in result.stdout


def test_a_public_channel_says_it_has_no_policies(env):
    result = snm(env, "-c", "realtime check channel lobby")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "  note         a public channel: anyone with the project's key may join" in result.stdout
    assert "  ok           Realtime joined the channel" in result.stdout


# ---- a project named by URL: what it cannot check is said --------------------------------------

def test_by_url_with_the_anon_key_the_database_is_not_checked(local, home):
    result = run_snm("--url", local["url"], "--key", local["status"]["anon_key"], "-c",
                     "realtime check rs_open\nrealtime check channel room1 private", env=home,
                     timeout=90)
    assert result.returncode == 1, result.stdout + result.stderr
    assert ("  not checked  the publication, replica identity and RLS: not a local project named "
            "with --local or --dir DIR (the only databases snm reads)") in result.stdout
    assert "  not checked  the write policy (broadcast, presence) on realtime.messages" in (
        result.stdout)
    assert "Unauthorized" in result.stdout  # the join still tries the read policy


def test_by_url_with_the_service_key_says_what_service_role_hides(local, home):
    result = run_snm("--url", local["url"], "--key", local["status"]["service_role_key"], "-c",
                     "realtime check rs_open", env=home, timeout=90)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith("realtime check public.rs_open, as service_role\n")
    assert ("  note         service_role passes row level security and every channel policy: "
            "this says nothing of what anon or a signed-in user gets") in result.stdout
    assert "the service key does not reach a database" in result.stdout


# ---- the language: snm check, explain, help, the prompt ----------------------------------------

def test_snm_check_validates_it_offline(tmp_path, home):
    good = tmp_path / "good.snm"
    good.write_text("realtime check todos\nrealtime check app.todos\n"
                    "realtime check channel room1 private\nrealtime check channel \"room 2\"\n")
    assert run_snm("check", str(good), env=home).returncode == 0
    bad = tmp_path / "bad.snm"
    bad.write_text("realtime chek todos\nrealtime check\nrealtime check todos extra\n")
    result = run_snm("check", str(bad), env=home)
    assert result.returncode == 2, result.stderr
    assert (f"{bad}:1:10: error: expected 'check' after 'realtime', found 'chek'\n"
            "realtime chek todos\n         ^~~~\nhelp: did you mean 'check'?") in result.stderr
    assert f"{bad}:2:15: error: expected a table, or 'channel <topic>' after 'realtime check'" in (
        result.stderr)
    assert f"{bad}:3:22: error: unexpected 'extra'" in result.stderr


def test_explain_says_what_it_reads_and_joins(home):
    table = run_snm("explain", "realtime check todos", env=home)
    assert table.returncode == 0, table.stderr
    assert table.stdout.startswith("CHECK realtime:public.todos\n")
    assert "pg_publication_tables" in table.stdout
    assert 'select count(*) from (select 1 from "public"."todos" limit 10000) s' in table.stdout
    assert '"phx_join"' in table.stdout and '"phx_leave"' in table.stdout
    assert ('let changes = channel.postgresChange(AnyAction.self, schema: "public", table: "todos")'
            in table.stdout)
    channel = run_snm("explain", "realtime check channel room1 private", env=home)
    assert channel.returncode == 0, channel.stderr
    assert "probe rows for the topic are inserted into realtime.messages" in channel.stdout
    assert 'let channel = supabase.channel("room1") { $0.isPrivate = true }' in channel.stdout


def test_help_realtime_lists_it(home):
    result = run_snm("--url", "http://127.0.0.1:9", "--key", "k", "-c", "help realtime", env=home)
    assert result.returncode == 0, result.stderr
    assert "realtime check todos | realtime check channel room1 [private]" in result.stdout


def test_at_the_prompt_the_report_prints_and_the_session_goes_on(env):
    with TmuxShell([SNM, "--local", "-X"], env=env) as shell:
        shell.wait_for_prompt()
        shell.type("realtime check rs_unpublished")
        shell.press("Enter")
        screen = shell.wait_for(lambda s: "found:    2 problems (above)" in s, timeout=60)
        assert "realtime check public.rs_unpublished, as anon" in screen
        assert "  problem      not in the supabase_realtime publication" in screen
        shell.type("realtime chek rs_open")
        shell.press("Enter")
        screen = shell.wait_for(lambda s: "did you mean 'check'?" in s, timeout=30)
        assert "^~~~~" in screen or "^~~~" in screen
        shell.type("realtime check rs_open")
        shell.press("Enter")
        screen = shell.wait_for(lambda s: "Realtime joined and subscribed" in s, timeout=60)
        assert len(PROMPT.findall(screen)) >= 3


def test_a_channel_check_at_the_prompt_is_for_the_user_signed_in_there(env):
    with TmuxShell([SNM, "--local", "-X"], env=env) as shell:
        shell.wait_for_prompt()
        shell.type("login email 'alice@example.com' password 'password123'")
        shell.press("Enter")
        shell.wait_for(lambda s: "alice@example.com" in s.splitlines()[-1], timeout=30)
        shell.type("realtime check channel room1 private")
        shell.press("Enter")
        screen = shell.wait_for(lambda s: "Realtime joined the private channel" in s, timeout=60)
        assert ("realtime check channel room1 (private), as authenticated (alice@example.com)"
                in screen)
        assert "  ok           write: an insert policy on realtime.messages" in screen
        shell.type("realtime check channel room2 private")
        shell.press("Enter")
        screen = shell.wait_for(lambda s: "found:    1 problem (above)" in s, timeout=60)
        assert "  problem      write: no insert policy on realtime.messages lets this user write room2" in (
            screen)


def test_snm_test_gates_on_a_private_channel_in_tap(env, tmp_path):
    allowed = tmp_path / "a_alice.snm"
    allowed.write_text("login email 'alice@example.com' password 'password123'\n"
                       "realtime check channel room1 private\n")
    refused = tmp_path / "b_anon.snm"
    refused.write_text("realtime check channel room1 private\n")
    tap = tmp_path / "report.tap"
    result = run_snm("test", "--local", "--report", f"tap={tap}", str(allowed), str(refused),
                     env=env, timeout=120)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "1 passed, 1 failed" in result.stdout
    report = tap.read_text()
    assert "ok 1" in report and "not ok 2" in report
    assert "no problem found by realtime check channel room1 (private)" in report
