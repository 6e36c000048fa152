"""`snm realtime check TABLE`: the usual reasons a subscribed table's changes never arrive, for the
signed-in user, against a local project (its database read with --dir) and as a project named by
URL alone (the join only, saying what it could not check)."""
import pytest

from conftest import run_snm


@pytest.fixture(scope="module")
def check_project(start_extra_project):
    handle = start_extra_project("realtime-check")
    handle.sql("""
        create table public.rc_open (id int primary key, title text);
        grant select on public.rc_open to anon, authenticated;
        insert into public.rc_open values (1, 'a');
        alter publication supabase_realtime add table public.rc_open;
        create table public.rc_unpublished (id int primary key);
        grant select on public.rc_unpublished to anon, authenticated;
        create table public.rc_owned (id int primary key, owner uuid);
        alter table public.rc_owned enable row level security;
        alter table public.rc_owned replica identity full;
        grant select on public.rc_owned to anon, authenticated;
        create policy "own rows" on public.rc_owned for select to authenticated
          using (owner = auth.uid());
        insert into public.rc_owned
          select 1, id from auth.users where email = 'alice@example.com';
        insert into public.rc_owned values (2, gen_random_uuid());
        alter publication supabase_realtime add table public.rc_owned;
        """)
    return handle


def check(project, home, table, *flags):
    return run_snm("realtime", "check", table, "--dir", project.data_dir, *flags, env=home,
                   timeout=60)


def test_a_published_readable_table_is_ok_with_a_note_on_replica_identity(check_project, home):
    result = check(check_project, home, "rc_open")
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "realtime check public.rc_open, as anon"
    assert "  ok           in the supabase_realtime publication" in lines
    assert any(line.startswith("  note         replica identity default: ") for line in lines)
    assert "  ok           row level security off: anon sees every row (1 of 1 rows)" in lines
    assert any(line.startswith("  ok           Realtime joined and subscribed") for line in lines)


def test_a_table_outside_the_publication_is_a_problem_exit_1(check_project, home):
    result = check(check_project, home, "rc_unpublished")
    assert result.returncode == 1, result.stdout + result.stderr
    assert ("  problem      not in the supabase_realtime publication: no change is sent "
            "(alter publication supabase_realtime add table public.rc_unpublished)"
            in result.stdout.splitlines())


def test_rls_hiding_every_row_from_anon_is_a_problem(check_project, home):
    result = check(check_project, home, "rc_owned")
    assert result.returncode == 1, result.stdout + result.stderr
    assert "replica identity full" in result.stdout
    assert ("row level security on (no select policy for anon): this user sees none of its rows "
            "(0 of 2 rows)" in result.stdout)


def test_the_signed_in_user_sees_their_own_rows(check_project, home):
    login = run_snm("--url", check_project.url, "--key", check_project.anon_key, "-c",
                    "login email 'alice@example.com' password 'password123'", env=home)
    assert login.returncode == 0, login.stderr
    result = check(check_project, home, "rc_owned")
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith(
        "realtime check public.rc_owned, as authenticated (alice@example.com)\n")
    assert ('row level security on (select policy "own rows"): this user sees 1 of 2 rows'
            in result.stdout)


def test_a_table_that_does_not_exist_is_a_problem(check_project, home):
    result = check(check_project, home, "app.nope")
    assert result.returncode == 1, result.stdout + result.stderr
    assert "  problem      no table app.nope in the database" in result.stdout.splitlines()


def test_a_project_named_by_url_says_what_it_could_not_check(check_project, home):
    result = run_snm("realtime", "check", "rc_unpublished", "--url", check_project.url, "--key",
                     check_project.anon_key, env=home, timeout=60)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "  not checked  the publication, replica identity and RLS: not a local project" in (
        result.stdout)
    assert "the server did not subscribe to the table" in result.stdout


@pytest.mark.parametrize("words,message", [
    (("realtime",), "'snm realtime' needs a command: check TABLE"),
    (("realtime", "check"), "'snm realtime check' needs one table"),
    (("realtime", "check", "a", "b"), "'snm realtime check' needs one table"),
])
def test_usage_errors(words, message, home):
    result = run_snm(*words, env=home, timeout=60)
    assert result.returncode == 2, result.stderr
    assert message in result.stderr
