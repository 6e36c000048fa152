"""The new API keys, as hosted projects hand them out beside the legacy JWTs: `sb_publishable_...`
(role anon) and `sb_secret_...` (role service_role), which are not JWTs.

The local project issues both kinds; its gateway takes the new ones in `apikey`, and in
`Authorization: Bearer` when that is the apikey itself, as Supabase's gateway does. The built snm
works with either kind from every place a key comes from, never decodes a new one, and says which
role it runs as. The official Python clients work with them unchanged.
"""
import base64
import json
import os
import re
import subprocess
import time

import httpx
import pexpect
import pytest
from postgrest import SyncPostgrestClient
from supabase_auth import SyncGoTrueClient

from conftest import SNM, run_snm

ALICE = "0c8e5f7a-6b9d-4f1e-9a3b-2d4c6e8f0a1b"
KEY_SHAPE = r"sb_{kind}_[A-Za-z0-9_-]{{22}}_[A-Za-z0-9_-]{{8}}"


@pytest.fixture
def keys(project):
    return {"publishable": project.status["publishable_key"],
            "secret": project.status["secret_key"]}


@pytest.fixture
def home(home):
    """No project from the environment the suite runs in: each test names its own."""
    return {**home, "SUPABASE_URL": ""}


def rest(project, path, headers):
    return httpx.get(project.rest_url + path, headers=headers, timeout=30)


def test_the_local_project_issues_both_kinds(project, snm_bin):
    status = project.status
    assert re.fullmatch(KEY_SHAPE.format(kind="publishable"), status["publishable_key"])
    assert re.fullmatch(KEY_SHAPE.format(kind="secret"), status["secret_key"])
    assert status["anon_key"].startswith("eyJ") and status["service_role_key"].startswith("eyJ")
    again = json.loads(run_snm("local", "status", "--dir", project.data_dir, "--json").stdout)
    assert again["publishable_key"] == status["publishable_key"]
    readable = run_snm("local", "status", "--dir", project.data_dir).stdout
    assert "publishable key   ********" in readable and "secret key        ********" in readable
    for key in ("publishable_key", "secret_key", "anon_key", "service_role_key"):
        assert status[key] not in readable


def test_the_gateway_maps_the_new_keys_to_their_roles(project, keys):
    # walk_request rows are visible only to their sender and receiver: none to anon, all to
    # service_role.
    anon = rest(project, "/walk_request?select=id", {"apikey": keys["publishable"]})
    assert anon.status_code == 200 and anon.json() == []
    same_as_bearer = rest(project, "/walk_request?select=id",
                          {"apikey": keys["publishable"],
                           "Authorization": f"Bearer {keys['publishable']}"})
    assert same_as_bearer.status_code == 200 and same_as_bearer.json() == []
    service = rest(project, "/walk_request?select=id", {"apikey": keys["secret"]})
    legacy = rest(project, "/walk_request?select=id", project.headers(project.service_role_key))
    assert service.status_code == 200 and len(service.json()) >= 1
    assert service.json() == legacy.json()
    service_bearer = rest(project, "/walk_request?select=id",
                          {"apikey": keys["secret"], "Authorization": f"Bearer {keys['secret']}"})
    assert service_bearer.json() == legacy.json()


def test_a_new_key_elsewhere_than_its_own_apikey_is_no_token(project, keys):
    lifted = rest(project, "/walk_request?select=id",
                  {"apikey": keys["publishable"], "Authorization": f"Bearer {keys['secret']}"})
    assert lifted.status_code == 401
    assert lifted.json()["code"] == "PGRST301"
    forged = rest(project, "/dog_profile?select=id",
                  {"apikey": keys["publishable"][:-1] + ("A" if keys["publishable"][-1] != "A"
                                                         else "B")})
    assert forged.status_code == 401 and forged.json()["message"] == "Invalid API key"


def test_a_users_token_goes_with_the_publishable_key(project, keys):
    auth = SyncGoTrueClient(url=project.auth_url, headers={"apikey": keys["publishable"]},
                            auto_refresh_token=False, persist_session=False)
    signed_in = auth.sign_in_with_password({"email": "alice@example.com", "password": "password123"})
    token = signed_in.session.access_token
    mine = rest(project, "/walk_request?select=id",
                {"apikey": keys["publishable"], "Authorization": f"Bearer {token}"})
    assert mine.status_code == 200 and len(mine.json()) >= 1
    user = auth.get_user(token)
    assert user.user.email == "alice@example.com"


@pytest.mark.parametrize("kind", ["publishable", "secret"])
def test_the_official_postgrest_client_with_a_new_key(project, keys, kind):
    key = keys[kind]
    client = SyncPostgrestClient(project.rest_url,
                                 headers={"apikey": key, "Authorization": f"Bearer {key}"})
    dogs = client.from_("dog_profile").select("name").order("id").execute().data
    requests = client.from_("walk_request").select("id").execute().data
    if kind == "publishable":
        assert requests == []
        assert all(set(row) == {"name"} for row in dogs)
    else:
        assert len(requests) >= 1
        legacy = SyncPostgrestClient(project.rest_url, headers=project.headers(
            project.service_role_key))
        assert dogs == legacy.from_("dog_profile").select("name").order("id").execute().data


def test_the_official_auth_client_with_the_publishable_key(project, keys):
    key = keys["publishable"]
    auth = SyncGoTrueClient(url=project.auth_url,
                            headers={"apikey": key, "Authorization": f"Bearer {key}"},
                            auto_refresh_token=False, persist_session=False)
    anonymous = auth.sign_in_anonymously()
    assert anonymous.user.is_anonymous is True
    refreshed = auth.refresh_session(anonymous.session.refresh_token)
    assert refreshed.session.refresh_token != anonymous.session.refresh_token
    assert refreshed.user.id == anonymous.user.id


def snm_with(home, *args, **env):
    return run_snm(*args, env={**home, **env}, timeout=60)


@pytest.mark.parametrize("variable,role", [
    ("SUPABASE_PUBLISHABLE_KEY", "anon"), ("SUPABASE_ANON_KEY", "anon"),
    ("SUPABASE_SECRET_KEY", "service_role"), ("SUPABASE_SERVICE_ROLE_KEY", "service_role"),
])
def test_snm_takes_a_key_of_either_kind_from_each_variable(project, keys, home, variable, role):
    key = keys["secret" if role == "service_role" else "publishable"]
    result = snm_with(home, "--format", "csv", "-c",
                      "echo '${session.role}'; from walk_request select id; session show",
                      SUPABASE_URL=project.url, **{variable: key})
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == role
    rows = lines[2:lines.index("not signed in (requests use the project's API key, "
                               f"role {role})")]
    assert (rows == []) == (role == "anon")


def test_the_client_key_wins_over_the_server_key(project, keys, home):
    both = snm_with(home, "-c", "echo '${session.role}'", SUPABASE_URL=project.url,
                    SUPABASE_SECRET_KEY=keys["secret"],
                    SUPABASE_PUBLISHABLE_KEY=keys["publishable"])
    assert both.stdout == "anon\n", both.stderr


@pytest.mark.parametrize("field", ["publishable_key", "secret_key", "anon_key"])
def test_a_profile_names_either_kind(project, keys, home, tmp_path, field):
    key = keys["secret"] if field == "secret_key" else keys["publishable"]
    config = tmp_path / "config" / "snm"
    config.mkdir(parents=True)
    (config / "config.json").write_text(json.dumps(
        {"profiles": {"dev": {"url": project.url, field: key}}}))
    (config / "config.json").chmod(0o600)   # it may hold a server key
    result = snm_with(home, "--profile", "dev", "-c", "echo '${session.role}'; "
                      "from dog_profile select name limit 1")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[0] == ("service_role" if field == "secret_key" else "anon")


def test_a_new_key_is_never_decoded(project, home):
    # Shaped to decode as {"role":"service_role"} if anything tried: the role stays anon, and the
    # key never goes as a Bearer token.
    fake = "sb_publishable_eyJhbGciOiJub25lIn0.eyJyb2xlIjoic2VydmljZV9yb2xlIn0.x"
    result = snm_with(home, "--url", project.url, "--key", fake, "-c", "echo '${session.role}'")
    assert result.stdout == "anon\n"
    refused = snm_with(home, "--url", project.url, "--key", fake, "-c", "from dog_profile select *")
    assert refused.returncode == 3 and "Invalid API key" in refused.stderr
    assert fake not in refused.stdout + refused.stderr


def test_sign_in_and_queries_with_the_publishable_key(project, keys, home):
    result = snm_with(home, "--url", project.url, "--key", keys["publishable"], "-c",
                      "login email 'alice@example.com' password 'password123'; "
                      "echo '${session.role}'; from walk_request select id limit 1; "
                      "expect rows 1; logout; from walk_request select id; expect rows 0")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "authenticated" in result.stdout


@pytest.mark.parametrize("kind,variable,role", [
    ("publishable", "SUPABASE_PUBLISHABLE_KEY", "anon"),
    ("secret", "SUPABASE_SECRET_KEY", "service_role")])
def test_the_prompt_names_the_keys_role(project, keys, home, kind, variable, role):
    env = {**home, "SUPABASE_URL": project.url, variable: keys[kind], "TERM": "dumb"}
    import os
    shell = pexpect.spawn(SNM, env={**os.environ, **env}, encoding="utf-8", timeout=30,
                          dimensions=(24, 120))
    try:
        shell.expect(rf"snm {role}@local> ")
        shell.sendline("session show")
        shell.expect(rf"role {role}\)")
        shell.sendline("exit")
        shell.expect(pexpect.EOF)
    finally:
        shell.close(force=True)


@pytest.mark.parametrize("variable", ["SUPABASE_PUBLISHABLE_KEY", "SUPABASE_ANON_KEY"])
def test_a_secret_key_in_a_client_keys_variable_is_refused_before_anything_is_sent(
        project, keys, home, variable):
    # A CI job proving a policy with the client's key: the secret key put in the client key's
    # variable by mistake ran every statement as service_role, past row-level security, exit 0.
    env = {**home, "SUPABASE_URL": project.url, variable: keys["secret"]}
    for args in (["-c", "from walk_request select id; expect rows 0"],
                 ["--url", project.url, "-c", "from walk_request select id; expect rows 0"]):
        result = snm_with(env, *args)
        assert result.returncode == 2, result.stdout + result.stderr
        assert f"${variable} holds a server key (role service_role" in result.stderr
        assert result.stdout == ""
        assert keys["secret"] not in result.stdout + result.stderr
    # Named on purpose (--key, or the secret key's own variable), it is used.
    chosen = snm_with(home, "--url", project.url, "--key", keys["secret"], "-c",
                      "from walk_request select id; expect rows >= 1")
    assert chosen.returncode == 0, chosen.stdout + chosen.stderr


def unsigned_jwt(claims):
    def part(value):
        return base64.urlsafe_b64encode(json.dumps(value).encode()).rstrip(b"=").decode()
    return f"{part({'alg': 'HS256', 'typ': 'JWT'})}.{part(claims)}.c2lnbmF0dXJl"


@pytest.mark.parametrize("variable", ["SUPABASE_PUBLISHABLE_KEY", "SUPABASE_ANON_KEY"])
@pytest.mark.parametrize("padded", [
    " sb_secret_0123456789abcdef", "\tsb_secret_0123456789abcdef ",
    " " + unsigned_jwt({"role": "service_role", "iss": "supabase"}) + "\t",
    # A line of a CRLF .env file: snm sends the CR as a space, which the server strips.
    unsigned_jwt({"role": "service_role", "iss": "supabase"}) + "\r",
])
def test_a_server_key_with_blanks_around_it_in_a_client_keys_variable_is_refused(home, variable,
                                                                                   padded):
    # An HTTP server strips the blanks around a field's value, so ' sb_secret_...' in
    # SUPABASE_ANON_KEY reached it as the secret key and ran as service_role: the refusal read
    # the key with its blanks, took it for no server key and let the run go on (exit 0).
    env = {**home, "SUPABASE_URL": "http://127.0.0.1:9", variable: padded}
    result = snm_with(env, "-c", 'echo "sent"')
    assert result.returncode == 2, result.stdout + result.stderr
    assert f"${variable} holds a server key (role service_role" in result.stderr
    assert result.stdout == "" and padded.strip() not in result.stderr


@pytest.mark.parametrize("field", ["publishable_key", "anon_key"])
def test_a_profiles_client_key_holding_a_secret_key_is_refused(project, keys, home, tmp_path,
                                                               field):
    config = tmp_path / "config" / "snm"
    config.mkdir(parents=True)
    (config / "config.json").write_text(json.dumps(
        {"profiles": {"dev": {"url": project.url, field: keys["secret"]}}}))
    (config / "config.json").chmod(0o600)
    result = snm_with(home, "--profile", "dev", "-c", "from walk_request select id")
    assert result.returncode == 2, result.stdout + result.stderr
    assert f"profile 'dev' in {config / 'config.json'}: \"{field}\" holds a server key" \
        in result.stderr
    assert result.stdout == "" and keys["secret"] not in result.stderr


@pytest.mark.parametrize("variable", ["SUPABASE_SECRET_KEY", "SUPABASE_SERVICE_ROLE_KEY"])
@pytest.mark.parametrize("kind", ["publishable", "anon JWT"])
def test_a_client_key_in_a_server_keys_variable_is_refused_before_anything_is_sent(
        project, keys, home, variable, kind):
    # A CI cleanup `as service delete ...` with the publishable key put in SUPABASE_SECRET_KEY by
    # mistake ran as anon, under row-level security: it saw and deleted nothing, exit 0 (the mirror
    # of a secret key in a client key's variable, refused above).
    key = keys["publishable"] if kind == "publishable" else project.anon_key
    for env in ({variable: key, "SUPABASE_PUBLISHABLE_KEY": keys["publishable"]},
                {variable: key}):
        result = snm_with(home, "-c", "as service from walk_request select id",
                          SUPABASE_URL=project.url, **env)
        assert result.returncode == 2, (env.keys(), result.stdout + result.stderr)
        assert f"${variable} holds a client key (role anon, which row-level security applies " \
            "to), not the project's server key" in result.stderr, result.stderr
        assert result.stdout == "" and key not in result.stderr
    # The server's key there, it is used: as service sees every walk request.
    right = snm_with(home, "-c", "as service from walk_request select id; expect rows >= 1",
                     SUPABASE_URL=project.url, SUPABASE_PUBLISHABLE_KEY=keys["publishable"],
                     **{variable: keys["secret"]})
    assert right.returncode == 0, right.stderr


@pytest.mark.parametrize("field", ["service_key", "secret_key", "service_role_key"])
def test_a_profiles_server_key_holding_a_client_key_is_refused(project, keys, home, tmp_path,
                                                                field):
    config = tmp_path / "config" / "snm"
    config.mkdir(parents=True)
    (config / "config.json").write_text(json.dumps({"profiles": {"dev": {
        "url": project.url, "publishable_key": keys["publishable"], field: keys["publishable"]}}}))
    (config / "config.json").chmod(0o600)
    result = snm_with(home, "--profile", "dev", "-c", "as service from walk_request select id")
    assert result.returncode == 2, result.stdout + result.stderr
    assert f"profile 'dev' in {config / 'config.json'}: \"{field}\" holds a client key" \
        in result.stderr, result.stderr
    assert result.stdout == "" and keys["publishable"] not in result.stderr


@pytest.mark.parametrize("target", ["url", "local"])
@pytest.mark.parametrize("kind", ["publishable", "anon"])
def test_a_client_key_given_as_the_service_key_is_refused(project, keys, home, kind, target):
    # `--service-key sb_publishable_...` was used as given: `as service` ran as anon, under
    # row-level security, saw none of the walk requests and exited 0 (the flag's mirror of a
    # client key in SUPABASE_SECRET_KEY, refused since b2b0152). A CI clean-up deleting nothing.
    key = keys["publishable"] if kind == "publishable" else project.anon_key
    # --local is refused before the machine's local project is looked for or started.
    named = (["--url", project.url, "--key", keys["publishable"]] if target == "url"
             else ["--local"])
    for spelling in (["--service-key", key], [f"--service-key={key}"]):
        result = snm_with(home, *named, *spelling, "-c", "as service from walk_request select id")
        assert result.returncode == 2, (spelling, result.stdout + result.stderr)
        assert "--service-key holds a client key (role anon, which row-level security applies " \
            "to), not the project's server key: pass the secret (or service_role) key" \
            in result.stderr, result.stderr
        assert result.stdout == "" and key not in result.stderr
    if target == "url":  # The server's key there, it is used: as service sees every request.
        right = snm_with(home, *named, "--service-key", keys["secret"], "-c",
                         "as service from walk_request select id; expect rows >= 1")
        assert right.returncode == 0, right.stdout + right.stderr


@pytest.mark.parametrize("claims, said", [
    ({"role": "authenticated", "sub": "u1"}, "role authenticated"),
    ({"role": "x\u001b]0;owned\u0007y"}, "role x\\u{1B}]0;owned\\u{7}y"),
    ({"sub": "u1"}, "a JWT whose role could not be read, taken as anon"),
    ({"role": 5}, "a JWT whose role could not be read, taken as anon"),
])
def test_a_service_key_refusal_names_the_role_the_jwt_holds(home, claims, said):
    # A signed-in user's token given as --service-key was refused as holding 'role anon': the
    # role it holds (authenticated), or that none could be read, is what to look at.
    key = unsigned_jwt(claims)
    result = snm_with(home, "--url", "http://127.0.0.1:9", "--key", "sb_publishable_x",
                      "--service-key", key, "-c", "as service from walk_request select id")
    assert result.returncode == 2, result.stdout + result.stderr
    assert f"--service-key holds a client key ({said}, which row-level security applies to), " \
        "not the project's server key" in result.stderr, result.stderr
    assert result.stdout == "" and key not in result.stderr and "\x1b" not in result.stderr


def test_a_refused_service_key_is_named_as_the_service_key(project, keys, home):
    # `as service` with a wrong SUPABASE_SECRET_KEY said 'the project refused the API key: check
    # --key or SUPABASE_PUBLISHABLE_KEY': a CI job checked the client key, which was right.
    wrong = "sb_secret_AAAAAAAAAAAAAAAAAAAAAA_BBBBBBBB"
    result = snm_with(home, "-c", "as service from walk_request select id",
                      SUPABASE_URL=project.url, SUPABASE_PUBLISHABLE_KEY=keys["publishable"],
                      SUPABASE_SECRET_KEY=wrong)
    assert result.returncode == 3, result.stdout + result.stderr
    assert "-c:1:1: error: the project refused the service key: as service from walk_request " \
        "select id" in result.stderr, result.stderr
    assert "advice: the project refused the service key: check --service-key, " \
        "SUPABASE_SERVICE_ROLE_KEY or SUPABASE_SECRET_KEY" in result.stderr, result.stderr
    assert wrong not in result.stderr
    # The client key refused is named as the client key's, with every variable it may come from.
    client = snm_with(home, "-c", "from walk_request select id", SUPABASE_URL=project.url,
                      SUPABASE_SECRET_KEY=wrong)
    assert client.returncode == 3, client.stderr
    assert "advice: the project refused the API key: check --key, or SUPABASE_PUBLISHABLE_KEY " \
        "(or the first of SUPABASE_ANON_KEY, SUPABASE_SECRET_KEY, SUPABASE_SERVICE_ROLE_KEY " \
        "set, or the profile's key)" in client.stderr, client.stderr


def test_keys_given_as_flags_are_hidden_from_other_accounts(project, keys, home):
    """A process's arguments are anyone's to read (`ps`, /proc/PID/cmdline), its environment
    only its own account's: `snm --service-key sb_secret_...` showed the service key, which
    bypasses row-level security, to every account on the machine for as long as snm ran. Once
    snm has read them, the values of --key and --service-key (either spelling) are x's, their
    lengths kept, every other argument as given; the keys still work."""
    given = [SNM, "--url", project.url, "--key", keys["publishable"],
             f"--service-key={keys['secret']}", "--format", "csv"]
    child = subprocess.Popen(given, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, env={**os.environ, **home})
    try:
        cmdline = f"/proc/{child.pid}/cmdline"
        shown = b"\0".join(part.encode() for part in given) + b"\0"
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and child.poll() is None:
            # Empty until the kernel has set the new program's arguments up (Popen may return
            # as soon as the exec has begun).
            shown = open(cmdline, "rb").read()
            if shown and keys["secret"].encode() not in shown:
                break
            time.sleep(0.05)
        hidden = given[:4] + ["x" * len(keys["publishable"]),
                              "--service-key=" + "x" * len(keys["secret"]), "--format", "csv"]
        assert shown.split(b"\0")[:-1] == [part.encode() for part in hidden], shown
        out, err = child.communicate(b"as service from walk_request select id limit 1\n", timeout=60)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    # Both keys went where they were given: the service key reads past row-level security.
    assert child.returncode == 0, err
    assert out.decode().splitlines()[0] == "id" and len(out.decode().splitlines()) == 2, out


def test_exactly_the_key_values_the_parser_read_are_hidden(project, keys, home):
    """HiddenArguments kept a list of secret options of its own and guessed where their values
    were: in `snm -c --key --service-key sb_secret_...` (a statement that is a comment, `--key`,
    then the service key) it took the statement for the option, blanked `--service-key` after it,
    and left the service key for every account to read while snm waited. The parser says where
    it read each secret value: exactly those are x's; a statement that reads `--key=...` stays."""
    given = [SNM, "--url", project.url, "-c", "--key", "--service-key", keys["secret"],
             "-c", "--key=a comment", f"--key={keys['publishable']}",
             "-c", "login email 'hidden-args@example.com'"]
    child = pexpect.spawn(given[0], given[1:], env={**os.environ, **home, "NO_COLOR": "1"},
                          timeout=30)
    try:
        child.expect_exact(b"password for hidden-args@example.com: ")
        # Another account reads the arguments, as `ps` shows them to it.
        shown = subprocess.run(["runuser", "-u", "nobody", "--", "cat", f"/proc/{child.pid}/cmdline"],
                               capture_output=True, timeout=30)
        assert shown.returncode == 0, shown.stderr
        child.send(b"\x03")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    hidden = given[:6] + ["x" * len(keys["secret"]), "-c", "--key=a comment",
                          "--key=" + "x" * len(keys["publishable"])] + given[10:]
    assert shown.stdout.split(b"\0")[:-1] == [part.encode() for part in hidden], shown.stdout
    assert keys["secret"].encode() not in shown.stdout


@pytest.mark.parametrize("field,mode", [("secret_key", 0o644), ("service_key", 0o604),
                                        ("anon_key", 0o640)])
def test_a_profile_file_others_may_read_is_refused_when_it_holds_a_server_key(
        project, keys, home, field, mode):
    """psql ignores a `.pgpass` others may read, ssh a private key: snm used a server key from a
    config.json every account could read, silently. It refuses the file (exit 2), says where the
    key is and how to close the file, never the key; 0600 runs. Another account (nobody) reads
    the file as it was, and not once closed. A file of client keys only may stay readable."""
    import tempfile
    folder = tempfile.mkdtemp(prefix="snm-profile-", dir="/tmp")   # every account may enter /tmp
    try:
        os.chmod(folder, 0o755)
        config = os.path.join(folder, "snm")
        os.mkdir(config, 0o755)
        path = os.path.join(config, "config.json")
        server = keys["secret"]
        with open(path, "w") as out:
            json.dump({"profiles": {
                "dev": {"url": project.url, "publishable_key": keys["publishable"],
                        field: server} if field != "anon_key" else
                       {"url": project.url, "publishable_key": keys["publishable"]},
                "ops": {"url": project.url, "anon_key": server} if field == "anon_key" else
                       {"url": project.url, "publishable_key": keys["publishable"]}}}, out)
        os.chmod(path, mode)
        env = {**home, "XDG_CONFIG_HOME": folder}
        if mode & 0o004:   # it is exposed: another account reads the key
            read = subprocess.run(["runuser", "-u", "nobody", "--", "cat", path],
                                  capture_output=True, text=True, timeout=30)
            assert read.returncode == 0 and server in read.stdout, read.stderr
        result = snm_with(env, "--profile", "dev", "--format", "csv", "-c", "echo 'ran'")
        assert result.returncode == 2, result.stdout + result.stderr
        assert result.stdout == "" and server not in result.stderr, result.stderr
        where = "profile 'ops' \"anon_key\"" if field == "anon_key" else f"profile 'dev' \"{field}\""
        assert (f"snm: refusing {path}: it holds a server key ({where}), which bypasses row-level "
                f"security, and other accounts may read it (mode {mode:o}). Make it yours alone: "
                f"chmod 600 {path}; ") in result.stderr, result.stderr
        os.chmod(path, 0o600)
        read = subprocess.run(["runuser", "-u", "nobody", "--", "cat", path], capture_output=True,
                              text=True, timeout=30)
        assert read.returncode != 0 and server not in read.stdout
        closed = snm_with(env, "--profile", "dev", "--format", "csv", "-c", "echo 'ran'")
        assert (closed.returncode, closed.stdout) == (0, "ran\n"), closed.stderr
        # Client keys only: nothing to keep from others.
        with open(path, "w") as out:
            json.dump({"profiles": {"dev": {"url": project.url,
                                            "publishable_key": keys["publishable"]}}}, out)
        os.chmod(path, 0o644)
        open_file = snm_with(env, "--profile", "dev", "--format", "csv", "-c", "echo 'ran'")
        assert (open_file.returncode, open_file.stdout) == (0, "ran\n"), open_file.stderr
    finally:
        subprocess.run(["rm", "-rf", folder], check=False)
