"""The hosted path: the built snm over https, through a real TLS stack and HTTP/2 (Debian's nginx in
front of a local project, certificates from a test CA made by openssl at test time; tls_front.py).

What a user of a hosted project meets: every kind of statement, sign-in and refresh, `snm test`, a
100,000-row result, Ctrl-C while an answer streams; a private CA given with --cacert or
SSL_CERT_FILE; an untrusted or wrong-host certificate refused with exit 3 and a clear message; a
redirect to another host that must not receive the key or the token; a server that speaks HTTP/2
only.
"""
import hashlib
import json
import os
import re
import signal
import ssl
import subprocess
import time

import pytest

from conftest import ROOT, SNM, WORKDIR, run_snm, start_project
from tls_front import TLSFront
from test_security_request_cost import active_calls
from test_shell_prompt import wait_until

BIG_ROWS = 100_000


@pytest.fixture(scope="module")
def tls_project(snm_bin):
    """A project of its own, with a 100,000-row table anon may read whole, and the test issuer's
    GitHub (`--github`) for the browser sign-in."""
    project = start_project("tls", "--github")
    project.sql(f"""
      create table public.big_rows (id int primary key, name text, traits jsonb);
      insert into public.big_rows
        select g, case when g % 10 = 0 then '두부 ' || g || ' 🐕' else 'dog ' || g end,
               jsonb_build_object('n', g, 'tricks', jsonb_build_array('sit', 'paw'))
        from generate_series(1, {BIG_ROWS}) g;
      grant select on public.big_rows to anon, authenticated;
      alter role authenticator set pgrst.db_max_rows = '1000000';
      notify pgrst, 'reload schema';""")
    yield project
    project.stop()


@pytest.fixture(scope="module")
def front(tls_project):
    handle = TLSFront(WORKDIR / "tls-front", upstream_port=tls_project.port)
    yield handle
    handle.stop()


def snm(front, project, home, *args, url=None, cacert=True, env=None, timeout=120):
    flags = ["--url", url or front.url("main"), "--key", project.anon_key]
    if cacert:
        flags += ["--cacert", front.ca]
    subcommand = [args[0]] if args and args[0] == "test" else []
    return run_snm(*subcommand, *flags, *args[len(subcommand):], env={**home, **(env or {})},
                   timeout=timeout)


def wait_for_rows(front, project, home):
    """The schema reload after the seed is asynchronous: wait until the whole table reads."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        done = snm(front, project, home, "--format", "csv", "-c",
                   "from big_rows select id order by id desc limit 1 offset 99999")
        if done.returncode == 0 and done.stdout.splitlines()[1:] == ["1"]:
            return
        time.sleep(0.5)
    raise AssertionError("big_rows is not readable whole")


def test_snm_test_runs_the_smoke_scripts_through_the_front(front, tls_project, home):
    """Sign-in of every kind, inserts, updates, deletes, selects with embeds, rpc, RLS: the smoke
    scripts, two at a time, over HTTP/2 and TLS 1.3."""
    before = len(front.log("main"))
    result = snm(front, tls_project, home, "test", "--service-key", tls_project.service_role_key,
                 "--jobs", "2", str(ROOT / "scripts" / "smoke"))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "10 passed, 0 failed" in result.stdout
    lines = front.log("main")[before:]
    assert len(lines) > 50
    assert all(" HTTP/2.0 TLSv1.3 " in line for line in lines), lines[:3]
    assert any('"POST /auth/v1/token?grant_type=password' in line for line in lines)
    assert any('"PATCH /rest/v1/' in line for line in lines)
    assert any('"DELETE /rest/v1/' in line for line in lines)


def test_a_script_of_every_kind_of_statement(front, tls_project, home):
    result = snm(front, tls_project, home, "--format", "json", "-c", """
      login email 'alice@example.com' password 'password123'
      let me = from user_info select id, name where id eq $session.user_id single
      expect $me.name == 'Alice'
      from dog_profile select name, walker:user_info(name) where owner eq $session.user_id order by name
      expect rows >= 1
      let dog = from dog_profile insert {"owner": $me.id, "name": "TLS 🐕"} returning id, name single
      from dog_profile update {"name": "TLS dog"} where id eq $dog.id returning name
      expect rows 1
      from dog_profile upsert {"id": $dog.id, "owner": $me.id, "name": "TLS upsert"} on conflict id
      rpc sum {"numbers": [1, 2, 3]}
      rpc get nearby_dogs {"lat": 37.5, "lng": 126.9} limit 1
      from dog_profile delete where id eq $dog.id returning id
      expect rows 1
      logout
    """)
    assert result.returncode == 0, result.stderr
    assert '"TLS dog"' in result.stdout and "6" in result.stdout


def test_the_private_ca_may_come_from_ssl_cert_file(front, tls_project, home):
    result = snm(front, tls_project, home, "-c", "from dog_profile select name limit 1",
                 cacert=False, env={"SSL_CERT_FILE": front.ca})
    assert result.returncode == 0, result.stderr
    assert "(1 row)" in result.stdout


def test_an_untrusted_certificate_is_refused_clearly(front, tls_project, home):
    # The front's certificate, from a CA the system does not know.
    unknown = snm(front, tls_project, home, "-c", "from dog_profile select name", cacert=False)
    assert unknown.returncode == 3
    assert f"could not reach {front.url('main')}/rest/v1/dog_profile" in unknown.stderr
    assert "the server's TLS certificate is not trusted" in unknown.stderr
    assert "--cacert FILE or set SSL_CERT_FILE" in unknown.stderr
    # A self-signed certificate, with the test CA trusted.
    self_signed = snm(front, tls_project, home, "-c", "from dog_profile select name",
                      url=front.url("untrusted"))
    assert self_signed.returncode == 3
    assert "the server's TLS certificate is not trusted (SSL certificate problem: " \
           "self-signed certificate)" in self_signed.stderr
    assert tls_project.anon_key not in unknown.stderr + self_signed.stderr


def test_a_certificate_for_another_host_is_refused(front, tls_project, home):
    result = snm(front, tls_project, home, "-c", "login email 'alice@example.com' password 'x'",
                 url=front.url("wrong_host"))
    assert result.returncode == 3
    assert "the server's TLS certificate is not for this host" in result.stderr
    assert "'127.0.0.1'" in result.stderr
    # Only this run's requests count: the port range is shared, and another run's probe of a
    # port it found busy leaves an access-log line without our key.
    sent = [line for line in front.log("wrong_host") if tls_project.anon_key in line]
    assert not sent, "nothing was sent over it"


def test_a_ca_file_that_cannot_be_read_is_named(front, tls_project, home, tmp_path):
    result = run_snm("--url", front.url("main"), "--key", tls_project.anon_key, "--cacert",
                     str(tmp_path / "missing.pem"), "-c", "from dog_profile select name",
                     env=home)
    assert result.returncode == 3
    assert "the CA certificates given (--cacert, SSL_CERT_FILE) cannot be read" in result.stderr


@pytest.mark.parametrize("status", [301, 302, 307, 308])
def test_a_redirect_to_another_host_never_carries_the_key_or_the_token(front, tls_project, home,
                                                                       status):
    before = len(front.log("elsewhere"))
    result = snm(front, tls_project, home, "-c", "from dog_profile select name limit 1",
                 url=front.url("redirect") + f"/r{status}")
    # The other host, asked without a key, refuses: the redirect was followed, the key kept back.
    assert result.returncode != 0
    sent = [line for line in front.log("redirect") if f"/r{status}/rest/v1/dog_profile" in line]
    assert sent and f'"{tls_project.anon_key}" "Bearer {tls_project.anon_key}"' in sent[-1]
    landed = front.log("elsewhere")[before:]
    assert len(landed) == 1 and '"GET /rest/v1/dog_profile?' in landed[0], landed
    assert landed[0].endswith('"-" "-"'), landed[0]
    assert tls_project.anon_key not in result.stdout + result.stderr


def test_a_server_that_speaks_http2_only_works(front, tls_project, home):
    before = len(front.log("h2_only"))
    http1 = subprocess.run(["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "--http1.1",
                            "--cacert", front.ca, front.url("h2_only") + "/rest/v1/"],
                           capture_output=True, text=True, timeout=30)
    assert http1.stdout == "505", "the h2-only front must refuse HTTP/1.1"
    result = snm(front, tls_project, home, "-c",
                 "login email 'bob@example.com' password 'password123'; "
                 "from dog_profile select name where owner eq $session.user_id",
                 url=front.url("h2_only"))
    assert result.returncode == 0, result.stderr
    assert "rows)" in result.stdout or "(1 row)" in result.stdout
    lines = front.log("h2_only")[before:]
    assert " HTTP/1.1 " in lines[0] and " 505 " in lines[0]
    assert len(lines) >= 3 and all(" HTTP/2.0 " in line for line in lines[1:]), lines


def test_a_100000_row_result_is_the_same_over_tls_as_over_plain_http(front, tls_project, home):
    wait_for_rows(front, tls_project, home)
    statement = "from big_rows select * order by id"
    secure = snm(front, tls_project, home, "--format", "csv", "-c", statement)
    assert secure.returncode == 0, secure.stderr
    assert secure.stdout.count("\n") == BIG_ROWS + 1
    plain = run_snm("--url", tls_project.url, "--key", tls_project.anon_key, "--format", "csv",
                    "-c", statement, env=home, timeout=120)
    assert plain.returncode == 0, plain.stderr
    assert hashlib.sha256(secure.stdout.encode()).digest() == \
        hashlib.sha256(plain.stdout.encode()).digest()


def test_a_100000_row_result_over_http1_chunked_and_gzipped(front, tls_project, home):
    """A front without HTTP/2 answers over HTTP/1.1, chunked and gzipped: snm's decoder reads
    the chunk framing while curl undoes the gzip, and the rows are those read over plain http."""
    wait_for_rows(front, tls_project, home)
    head = subprocess.run(["curl", "-sS", "--http1.1", "-D", "-", "-o", "/dev/null",
                           "-H", "Accept-Encoding: gzip", "-H", f"apikey: {tls_project.anon_key}",
                           "--cacert", front.ca, front.url("h1") + "/rest/v1/big_rows?limit=3"],
                          capture_output=True, text=True, timeout=30)
    assert "transfer-encoding: chunked" in head.stdout.lower(), head.stdout
    assert "content-encoding: gzip" in head.stdout.lower(), head.stdout
    before = len(front.log("h1"))
    statement = "from big_rows select * order by id"
    secure = snm(front, tls_project, home, "--format", "csv", "-c", statement, url=front.url("h1"))
    assert secure.returncode == 0, secure.stderr
    plain = run_snm("--url", tls_project.url, "--key", tls_project.anon_key, "--format", "csv",
                    "-c", statement, env=home, timeout=120)
    assert plain.returncode == 0, plain.stderr
    assert secure.stdout == plain.stdout
    lines = front.log("h1")[before:]
    assert len(lines) == 1 and " HTTP/1.1 " in lines[0] and " 200 " in lines[0], lines


def test_ctrl_c_while_the_answer_streams(front, tls_project, home):
    """The slow front sends the 100,000 rows at 256 KiB/s (about two minutes): SIGINT a few
    seconds in stops snm at once, with 130, and no row printed."""
    wait_for_rows(front, tls_project, home)
    shell = subprocess.Popen(
        [SNM, "--url", front.url("slow"), "--key", tls_project.anon_key, "--cacert", front.ca,
         "--format", "csv", "-c", "from big_rows select *"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, **home})
    time.sleep(3)
    assert shell.poll() is None, "the answer should still be streaming"
    sent = time.monotonic()
    shell.send_signal(signal.SIGINT)
    out, err = shell.communicate(timeout=90)
    assert shell.returncode == 130, err
    assert time.monotonic() - sent < 45, "the signal waited for the two-minute answer"
    assert out == ""
    assert "interrupted" in err


def test_sigint_closes_the_connection_so_the_query_stops_in_postgres(front, tls_project, home):
    """Over HTTP/2 and TLS, cancelling the stream makes nginx drop its upstream connection, and
    the gateway cancels the query."""
    shell = subprocess.Popen(
        [SNM, "--url", front.url("main"), "--key", tls_project.anon_key, "--cacert", front.ca,
         "-c", 'rpc sleep_for {"seconds": 20}'],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env={**os.environ, **home})
    wait_until(lambda: active_calls(tls_project, "sleep_for") == 1, "the query never became active",
               timeout=10)
    shell.send_signal(signal.SIGINT)
    # Well before anon's 3 s statement_timeout would end it anyway.
    wait_until(lambda: active_calls(tls_project, "sleep_for") == 0, "the query is still active",
               timeout=2.0)
    _, err = shell.communicate(timeout=10)
    assert shell.returncode == 130, err


def test_sign_in_and_refresh_through_the_front(front, tls_project, home, tmp_path):
    login = snm(front, tls_project, home, "-c", "login email 'carol@example.com' password 'password123'")
    assert login.returncode == 0, login.stderr
    [path] = list((tmp_path / "state").rglob("session-*.json"))
    stored = json.loads(path.read_text())
    # 10 s left: inside the 30 s margin, so the next use refreshes.
    stored["session"]["expires_at"] = int(time.time()) + 10
    stored["session"]["obtained_at"] = time.time() - 3000
    path.write_text(json.dumps(stored))
    before = len(front.log("main"))
    check = snm(front, tls_project, home, "-c", "session check")
    assert check.returncode == 0, check.stderr
    assert re.fullmatch(r"signed in as carol@example\.com \(authenticated\) with email, aal1, "
                        r"\d+m \d+s left"
                        r"( \(refreshed\))?\n", check.stdout), check.stdout
    assert any('"POST /auth/v1/token?grant_type=refresh_token' in line
               for line in front.log("main")[before:])
    after = json.loads(path.read_text())["session"]
    assert after["refresh_token"] != stored["session"]["refresh_token"]
    query = snm(front, tls_project, home, "-c", "from user_info select name where name eq 'Carol'")
    assert query.returncode == 0 and "Carol" in query.stdout


def test_a_file_uploads_and_downloads_whole_over_http2_and_tls(front, tls_project, home, tmp_path):
    """Storage's bytes through the front both ways: libcurl reads the upload from disk and writes
    the download to disk, over HTTP/2."""
    from storage_helpers import service
    bucket = "tls-" + os.urandom(4).hex()
    service(tls_project).create_bucket(bucket)
    try:
        original = tmp_path / "big.bin"
        original.write_bytes(os.urandom(12 << 20))
        copy = tmp_path / "copy.bin"
        before = len(front.log("main"))
        result = run_snm("--url", front.url("main"), "--key", tls_project.service_role_key,
                         "--cacert", front.ca, "-c",
                         f"storage upload '{original}' to {bucket}/big.bin\n"
                         f"storage download {bucket}/big.bin to '{copy}'\n"
                         f"let info = storage info {bucket}/big.bin\n"
                         f"expect $info.size == {12 << 20}", env=home, timeout=120)
        assert result.returncode == 0, result.stderr
        assert hashlib.sha256(copy.read_bytes()).digest() == hashlib.sha256(original.read_bytes()).digest()
        lines = front.log("main")[before:]
        assert any(f'"POST /storage/v1/object/{bucket}/big.bin HTTP/2.0" 200' in line for line in lines), lines
        assert any(f'"GET /storage/v1/object/{bucket}/big.bin HTTP/2.0" 200' in line for line in lines), lines
    finally:
        service(tls_project).empty_bucket(bucket)
        service(tls_project).delete_bucket(bucket)


def test_a_refused_key_and_a_timeout_are_named_over_the_front(front, tls_project, home):
    """Over HTTP/2 and TLS (libcurl, not the plain transport) the same causes are named as over
    http (test_error_causes.py), with exit code 3."""
    wrong = "sb_publishable_wrongwrongwrongwrongwr_abcdefgh"
    refused = run_snm("--url", front.url("main"), "--key", wrong, "--cacert", front.ca,
                      "-c", "from dog_profile select id", env=home)
    assert refused.returncode == 3, refused.stderr
    assert "-c:1:1: error: the project refused the API key: from dog_profile select id" \
        in refused.stderr
    assert "could not reach" not in refused.stderr and wrong not in refused.stderr
    login = run_snm("--url", front.url("main"), "--key", wrong, "--cacert", front.ca, "-c",
                    "login email 'alice@example.com' password 'password123'", env=home)
    assert login.returncode == 3, login.stderr
    assert "-c:1:1: error: the project refused the API key: login" in login.stderr
    slow = snm(front, tls_project, home, "--timeout", "1", "-c", 'rpc sleep_for {"seconds": 2.5}')
    assert slow.returncode == 3, slow.stderr
    assert '-c:1:1: error: timed out after 1 s: rpc sleep_for {"seconds": 2.5}' in slow.stderr
    assert "could not reach" not in slow.stderr


def test_as_service_with_a_secret_key_through_the_front(front, tls_project, home, tmp_path):
    """The hosted path of issue 21: an `sb_secret_` service key over TLS and HTTP/2, for a
    statement under RLS, in a run whose output and JUnit report never hold the key."""
    secret = tls_project.status["secret_key"]
    assert secret.startswith("sb_secret_")
    script = tmp_path / "cleanup.snm"
    script.write_text(
        "login email 'carol@example.com' password 'password123'\n"
        "let mine = from user_info select id\n"
        "let every = as service from user_info select id\n"
        "expect $every contains $mine[0]\n"
        "let n = as service from user_info select id count exact\n"
        "expect rows >= 3\n"
        "let users = admin users where email ilike 'carol@%' limit 50\n"
        "expect rows 1\n"
        "let carol = admin user $users[0].id\n"
        "expect $carol.email == 'carol@example.com'\n")
    report = tmp_path / "report.xml"
    before = len(front.log("main"))
    done = snm(front, tls_project, home, "test", "--service-key", secret, "--report",
               f"junit={report}", str(script))
    assert done.returncode == 0, done.stdout + done.stderr
    lines = [line for line in front.log("main")[before:] if "/rest/v1/user_info" in line]
    # nginx logs the apikey and Authorization it got: the secret key went as apikey alone (never
    # a bearer, as a new key must not), over HTTP/2; the user's requests went with their token.
    service = [line for line in lines if f'"{secret}" "-"' in line]
    assert len(service) == 2 and all(" HTTP/2.0 " in line for line in service), lines
    admin = [line for line in front.log("main")[before:] if "/auth/v1/admin/users" in line]
    assert len(admin) == 2 and all(f'"{secret}" "-"' in line for line in admin), admin
    assert any('"Bearer ey' in line for line in lines), lines
    for text in (done.stdout, done.stderr, report.read_text()):
        assert secret not in text


def browse_github(browser, url, email):
    """A browser (trusting the test CA) signing in at the test issuer's GitHub page: follows
    `url` to the page, signs in as `email`, follows the project's callback; the Location that
    points back at the app or snm's loopback port (not followed)."""
    page = browser.get(url, follow_redirects=True)
    assert page.status_code == 200 and "/idp/authorize" in str(page.url), page.text
    answer = browser.get(page.url.copy_merge_params({"login": email}))
    assert answer.status_code == 302, answer.text
    back = browser.get(answer.headers["location"])
    assert back.status_code == 302, back.text
    return back.headers["location"]


def test_login_provider_github_through_the_front(front, tls_project, home):
    """`login provider github` against the project reached over https with --cacert: snm prints
    the front's /authorize address, and after the browser's sign-in trades the code and its
    verifier at the front's /token?grant_type=pkce."""
    import httpx
    email = f"github-front-{os.getpid()}-{time.time_ns()}@example.com"
    process = subprocess.Popen(
        [SNM, "--url", front.url("main"), "--key", tls_project.anon_key, "--cacert", front.ca,
         "-c", "login provider github\nsession check"],
        env={**os.environ, **home}, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    printed = []
    while not printed or not printed[-1].startswith("  http"):
        line = process.stderr.readline()
        assert line, "".join(printed)
        printed.append(line)
    url = printed[-1].strip()
    assert url.startswith(front.url("main") + "/auth/v1/authorize?provider=github&"), url
    before = len(front.log("main"))
    with httpx.Client(verify=ssl.create_default_context(cafile=front.ca)) as browser:
        location = browse_github(browser, url, email)
    assert re.match(r"http://127\.0\.0\.1:\d+/callback\?code=", location), location
    assert httpx.get(location).status_code == 200
    out, err = process.communicate(timeout=60)
    assert process.returncode == 0, "".join(printed) + err
    assert f"signed in as {email} with github" in out
    assert f"signed in as {email} (authenticated) with github, aal1, " in out
    exchanged = [line for line in front.log("main")[before:]
                 if '"POST /auth/v1/token?grant_type=pkce' in line]
    assert len(exchanged) == 1, front.log("main")[before:]


def test_a_pkce_sign_in_through_the_front_with_the_official_client(front, tls_project):
    """supabase-auth's PKCE flow (sign_in_with_oauth, exchange_code_for_session) over https
    through the front, the client trusting the test CA."""
    import httpx
    from supabase_auth import SyncGoTrueClient
    email = f"pkce-front-{os.getpid()}-{time.time_ns()}@example.com"
    app = "http://127.0.0.1:3999/app"
    with httpx.Client(verify=ssl.create_default_context(cafile=front.ca)) as http:
        client = SyncGoTrueClient(
            url=front.url("main") + "/auth/v1", headers=tls_project.headers(),
            auto_refresh_token=False, persist_session=False, flow_type="pkce", http_client=http)
        url = client.sign_in_with_oauth({"provider": "github", "options": {"redirect_to": app}}).url
        assert url.startswith(front.url("main") + "/auth/v1/authorize?"), url
        before = len(front.log("main"))
        location = browse_github(http, url, email)
        assert location.startswith(app + "?code="), location
        code = location.split("code=", 1)[1].split("&")[0]
        session = client.exchange_code_for_session({"auth_code": code}).session
    assert session.user.email == email and session.user.app_metadata["provider"] == "github"
    assert any('"POST /auth/v1/token?grant_type=pkce' in line
               for line in front.log("main")[before:])
