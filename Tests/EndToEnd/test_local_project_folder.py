"""`snm local start` in a repository laid out for the Supabase CLI: supabase/config.toml's settings
take effect (through the API), supabase/migrations/*.sql apply in name order on a new project's
defaults (uuid-ossp and pgcrypto in schema extensions, on every search path; the supabase_realtime
publication; wal_level=logical), supabase/seed.sql runs on the first start and after a reset, keys
the local project does not have are listed once, and a malformed file is an error with its place."""
import json
import pathlib
import shutil
import subprocess
import uuid

import httpx

from auth_helpers import inbox, new_email
from conftest import LocalProject, WORKDIR, free_port, run_snm

CONFIG = """\
# A project as `supabase init` lays it out, with a few settings changed.
project_id = "folder-e2e"

[api]
enabled = true
port = {port}
schemas = ["public", "graphql_public"]
extra_search_path = ["public", "extensions"]
max_rows = 50

[db]
port = 54322
major_version = 15

[db.pooler]
enabled = false
port = 54329

[db.seed]
enabled = true
sql_paths = ["./seed.sql"]

[studio]
enabled = true
port = 54323

[auth]
enabled = true
site_url = "http://127.0.0.1:3000"
jwt_expiry = 3600
enable_refresh_token_rotation = true
enable_signup = true
enable_anonymous_sign_ins = false
minimum_password_length = 8

[auth.rate_limit]
sign_in_sign_ups = 0
token_verifications = 0

[auth.email]
enable_signup = true
enable_confirmations = true

[auth.external.apple]
enabled = false
client_id = ""

[storage]
enabled = true
file_size_limit = "50MiB"

[storage.buckets.avatars]
public = true
file_size_limit = "1MiB"
allowed_mime_types = ["image/png"]

[functions.hello]
verify_jwt = false
"""

# Three migrations of the kinds a CLI project has: uuid-ossp's generator without creating the
# extension (a Supabase project has it), pgcrypto's, and a Realtime publication change written
# the way supabase-py's Realtime test migration is (two tables, the publication recreated in an
# explicit transaction, tables added to it).
MIGRATIONS = {
    "20240101000000_notes.sql": """
create table public.notes (
  id uuid primary key default uuid_generate_v4(),
  body text not null,
  created_at timestamptz not null default now()
);
alter table public.notes enable row level security;
create policy "anyone reads notes" on public.notes for select using (true);
""",
    "20240102000000_items.sql": """
create table public.items (
  id uuid primary key default gen_random_uuid(),
  n integer not null,
  token text not null default encode(gen_random_bytes(8), 'hex')
);
""",
    "20240103000000_realtime.sql": """
create table public.todos (
  id uuid primary key default uuid_generate_v4(),
  task text not null,
  done boolean not null default false
);
create table public.rooms (
  id uuid primary key default uuid_generate_v4(),
  name text not null
);
alter table public.todos replica identity full;

begin;
  drop publication if exists supabase_realtime;
  create publication supabase_realtime;
commit;
alter publication supabase_realtime add table public.todos, public.rooms;
""",
}

SEED = """
insert into public.items (n) select generate_series(1, 120);
insert into public.notes (body) values ('seeded');
"""


def make_repo(name, config=CONFIG, port=None):
    root = WORKDIR / "repos" / f"{name}-{uuid.uuid4().hex[:8]}"
    migrations = root / "supabase" / "migrations"
    migrations.mkdir(parents=True)
    port = port or free_port()
    (root / "supabase" / "config.toml").write_text(config.format(port=port))
    for file, sql in MIGRATIONS.items():
        (migrations / file).write_text(sql)
    (root / "supabase" / "seed.sql").write_text(SEED)
    return root, port


def psql(status, query, user="postgres"):
    db = status["db_url"]
    host = db.split("host=")[1].split("&")[0]
    port = db.split("&port=")[1]
    result = subprocess.run(
        ["psql", "-h", host, "-p", port, "-U", user, "-d", "postgres", "-At", "-c", query],
        capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def destroy(root, env):
    run_snm("local", "destroy", "--yes", cwd=root, env=env, timeout=120)


def test_a_supabase_folder_starts_with_its_config_migrations_and_seed(snm_bin, home):
    root, port = make_repo("folder")
    env = dict(home, XDG_DATA_HOME=str(root.parent / f"data-{root.name}"))
    started = run_snm("local", "start", "--json", cwd=root, env=env, timeout=240)
    try:
        assert started.returncode == 0, started.stderr
        status = json.loads(started.stdout)
        assert status["url"] == f"http://127.0.0.1:{port}"
        assert status["project_dir"] == str(root)
        assert status["config_file"] == str(root / "supabase" / "config.toml")
        assert status["data_dir"].startswith(env["XDG_DATA_HOME"] + "/snm/projects/" + root.name)

        # Keys it does not have are listed once, with their lines; a table that only turns a
        # feature off ([db.pooler], [auth.external.apple]) asks for nothing missing.
        notes = started.stderr
        assert "supabase/config.toml: not supported by the local project, ignored:" in notes
        assert "  12: [db] port\n" in notes
        assert "  13: [db] major_version\n" in notes
        assert "  23: [studio]\n" in notes
        assert "pooler" not in notes and "apple" not in notes
        assert "max_rows" not in notes and "[functions" not in notes
        assert notes.count("not supported") == 1

        project = LocalProject(status["data_dir"], port, status)
        anon = project.headers()
        service = project.headers(status["service_role_key"])

        # [api] max_rows = 50 caps a read of the 120 seeded rows.
        items = httpx.get(project.rest_url + "/items?select=n", headers=anon)
        assert items.status_code == 200, items.text
        assert len(items.json()) == 50
        counted = httpx.get(project.rest_url + "/items?select=n",
                            headers=dict(anon, Prefer="count=exact"))
        assert counted.headers["content-range"] == "0-49/120"
        # The seed ran after the migrations: uuid_generate_v4() and gen_random_bytes() filled in.
        notes_rows = httpx.get(project.rest_url + "/notes?select=id,body", headers=anon).json()
        assert [row["body"] for row in notes_rows] == ["seeded"]
        assert uuid.UUID(notes_rows[0]["id"]).version == 4

        # [auth.email] enable_confirmations: a sign-up gets a confirmation mail, no session.
        email = new_email("folder")
        signup = httpx.post(project.auth_url + "/signup", headers=anon,
                            json={"email": email, "password": "long-enough-1"})
        assert signup.status_code == 200, signup.text
        assert "access_token" not in signup.json()
        assert [mail["kind"] for mail in inbox(project, email)] == ["signup"]
        # minimum_password_length = 8, enable_anonymous_sign_ins = false.
        short = httpx.post(project.auth_url + "/signup", headers=anon,
                           json={"email": new_email("short"), "password": "1234567"})
        assert short.status_code == 422 and short.json()["error_code"] == "weak_password"
        anonymous = httpx.post(project.auth_url + "/signup", headers=anon, json={})
        assert anonymous.status_code == 422, anonymous.text
        assert anonymous.json()["error_code"] == "anonymous_provider_disabled"

        # [storage.buckets.avatars] exists with its settings.
        bucket = httpx.get(project.url + "/storage/v1/bucket/avatars", headers=service)
        assert bucket.status_code == 200, bucket.text
        assert bucket.json()["public"] is True
        assert bucket.json()["file_size_limit"] == 1024 * 1024
        assert bucket.json()["allowed_mime_types"] == ["image/png"]

        # A new Supabase project's defaults.
        assert psql(status, "select e.extname || ' ' || n.nspname from pg_extension e "
                    "join pg_namespace n on n.oid = e.extnamespace "
                    "where e.extname in ('uuid-ossp', 'pgcrypto') order by 1") == (
            "pgcrypto extensions\nuuid-ossp extensions")
        assert psql(status, "select tablename from pg_publication_tables "
                    "where pubname = 'supabase_realtime' order by 1") == "rooms\ntodos"
        assert psql(status, "show wal_level") == "logical"
        assert "extensions" in psql(status, "show search_path")
        assert "extensions" in psql(status, "show search_path", user="authenticator")
        assert psql(status, "select version from supabase_migrations.schema_migrations "
                    "where version like '2024%' order by 1") == (
            "20240101000000_notes\n20240102000000_items\n20240103000000_realtime")

        # status names the folder and its config; from the folder, without --dir.
        shown = run_snm("local", "status", cwd=root, env=env)
        assert shown.returncode == 0, shown.stderr
        assert f"  project folder    {root}\n" in shown.stdout
        assert f"  config            {root}/supabase/config.toml\n" in shown.stdout

        # reset: the data goes, the migrations and the seed run again.
        added = httpx.post(project.rest_url + "/items", headers=service, json={"n": 999})
        assert added.status_code == 201, added.text
        reset = run_snm("local", "reset", "--json", cwd=root, env=env, timeout=240)
        assert reset.returncode == 0, reset.stderr
        again = httpx.get(project.rest_url + "/items?select=n&n=gte.100", headers=anon)
        assert sorted(row["n"] for row in again.json()) == list(range(100, 121))
        assert len(httpx.get(project.rest_url + "/notes", headers=anon).json()) == 1

        stopped = run_snm("local", "stop", cwd=root, env=env, timeout=60)
        assert stopped.returncode == 0 and "stopped" in stopped.stdout, stopped.stderr
    finally:
        destroy(root, env)


def test_a_malformed_config_is_an_error_with_its_place_and_nothing_starts(snm_bin, home):
    root, port = make_repo("malformed")
    env = dict(home, XDG_DATA_HOME=str(root.parent / f"data-{root.name}"))
    config = root / "supabase" / "config.toml"
    cases = [
        ("[api]\nport = 54321\nmax_rows = \"fifty\"\n",
         "supabase/config.toml:3:12: [api] max_rows must be an integer, not a string"),
        ("[api\nport = 1\n", "supabase/config.toml:1:5: expected ']' to close the table header"),
        ("[auth]\nsite_url = \"a\"\nsite_url = \"b\"\n",
         "supabase/config.toml:3:1: the key auth.site_url is given twice (first at 2:12)"),
        ("[api]\nport = 70000\n",
         "supabase/config.toml:2:8: [api] port must be between 1 and 65535, not 70000"),
    ]
    for text, message in cases:
        config.write_text(text)
        result = run_snm("local", "start", cwd=root, env=env, timeout=60)
        assert result.returncode == 2, (text, result.stderr)
        assert result.stderr.startswith("snm local: " + message + "\n"), result.stderr
        # From elsewhere, --project names the file by its whole path.
        other = run_snm("local", "start", "--project", str(root), cwd="/", env=env, timeout=60)
        assert other.returncode == 2
        assert f"snm local: {config}:" in other.stderr
    status = run_snm("local", "status", cwd=root, env=env)
    assert status.returncode == 3, status.stdout


def test_flags_override_the_file_and_another_folder_is_refused(snm_bin, home):
    root, port = make_repo("flags")
    env = dict(home, XDG_DATA_HOME=str(root.parent / f"data-{root.name}"))
    flag_port = free_port()
    while flag_port == port:
        flag_port = free_port()
    try:
        started = run_snm("local", "start", "--port", str(flag_port), "--no-confirm-email",
                          "--migrations", str(root / "supabase" / "migrations"),
                          "--json", cwd=root, env=env, timeout=240)
        assert started.returncode == 0, started.stderr
        assert "snm local: --port overrides [api] port in supabase/config.toml" in started.stderr
        assert ("snm local: --no-confirm-email overrides [auth.email] enable_confirmations in "
                "supabase/config.toml") in started.stderr
        assert ("snm local: --migrations overrides the project folder's supabase/migrations"
                in started.stderr)
        status = json.loads(started.stdout)
        assert status["url"] == f"http://127.0.0.1:{flag_port}"
        project = LocalProject(status["data_dir"], flag_port, status)
        signup = httpx.post(project.auth_url + "/signup", headers=project.headers(),
                            json={"email": new_email("flag"), "password": "long-enough-1"})
        assert signup.status_code == 200 and "access_token" in signup.json(), signup.text

        # The data dir serves this folder: another folder (or none) is refused, never mixed.
        other, _ = make_repo("other")
        mixed = run_snm("local", "start", "--dir", status["data_dir"], cwd=other, env=env,
                        timeout=60)
        assert mixed.returncode == 2
        assert f"{status['data_dir']} holds the project folder {root}, not {other}" in mixed.stderr
        shutil.rmtree(other)
    finally:
        destroy(root, env)


def test_every_command_run_in_the_folder_finds_its_project(snm_bin, home):
    """README: `stop`, `status`, `destroy` and `inbox` run in the folder find its data. `inbox`,
    `logs functions` and `idp token` looked in the default project's data dir instead ("no
    project in ~/.local/share/snm/local", exit 3), and `stop` named that dir as the one stopped."""
    root, port = make_repo("commands")
    env = dict(home, XDG_DATA_HOME=str(root.parent / f"data-{root.name}"))
    try:
        started = run_snm("local", "start", "--json", cwd=root, env=env, timeout=240)
        assert started.returncode == 0, started.stderr
        data_dir = json.loads(started.stdout)["data_dir"]
        mails = run_snm("local", "inbox", "--json", cwd=root, env=env)
        assert mails.returncode == 0, mails.stderr
        assert json.loads(mails.stdout) == []
        logs = run_snm("local", "logs", "functions", cwd=root, env=env)
        assert logs.returncode == 0, logs.stderr
        assert "no project" not in logs.stderr, logs.stderr
        token = run_snm("local", "idp", "token", "--provider", "apple", "--email", "a@example.com",
                        cwd=root, env=env)
        assert token.returncode == 0 and token.stdout.count(".") == 2, token.stderr
        stopped = run_snm("local", "stop", cwd=root, env=env, timeout=60)
        assert stopped.stdout == f"snm local: stopped ({data_dir})\n", stopped.stdout
    finally:
        destroy(root, env)
