"""A CI job in its own shoes (field lane): scripts run the way a CI service runs them, with the
project's keys in variables its secrets fill, against a project behind an https front (nginx's
TLS and HTTP/2 in front of the local project, tls_front.py), as a hosted project is.

A secret a CI service hands over is missing (the variable empty), holds the other kind of key,
or was saved with its newline: each must end non-zero saying what to fix, or be a real pass;
none may run the job as another role and pass."""
import os
import subprocess

import pytest

from conftest import SNM, WORKDIR
from tls_front import TLSFront

QUERY = "from dog_profile select id order by id limit 1"


@pytest.fixture(scope="module")
def front(project):
    handle = TLSFront(WORKDIR / "ci-shoes-front", upstream_port=project.port)
    yield handle
    handle.stop()


def ci_run(tmp_path, front, variables, *args, url="main"):
    """snm under CI=true with only `variables` naming the project (SUPABASE_URL the front's
    unless given), the front's CA trusted through SSL_CERT_FILE."""
    environment = {name: value for name, value in os.environ.items()
                   if not name.startswith("SUPABASE_")}
    env = {**environment, "CI": "true", "NO_COLOR": "1", "SSL_CERT_FILE": front.ca,
           "XDG_STATE_HOME": str(tmp_path / "state"), "XDG_CONFIG_HOME": str(tmp_path / "config"),
           "XDG_CACHE_HOME": str(tmp_path / "cache"), "SUPABASE_URL": front.url(url),
           **variables}
    return subprocess.run([SNM, *args], capture_output=True, text=True, env=env, timeout=120)


def test_a_key_saved_with_its_newline_goes_as_the_key_over_https(project, front, tmp_path):
    """A secret saved with its trailing newline (`echo KEY > secret`) went into the `apikey`
    line as it was: over HTTP/2, nghttp2 reset the stream and snm said `malformed answer ...:
    the answer is not valid HTTP/2 (the stream was reset: PROTOCOL_ERROR)`, blaming the server,
    where over http:// the same key worked (its encoder makes a line break a space, as the
    server then trims it). Both transports write a field the one way now."""
    for url in ("main", "h1"):
        result = ci_run(tmp_path, front,
                        {"SUPABASE_PUBLISHABLE_KEY": project.status["publishable_key"] + "\n"},
                        "-c", QUERY, url=url)
        assert result.returncode == 0, (url, result.stderr)
        assert result.stdout.splitlines()[-1] == "(1 row)", (url, result.stdout)


def test_a_key_holding_a_line_break_adds_no_header_over_https(project, front, tmp_path):
    """Over HTTP/1.1 (libcurl takes header lines as text), a key holding CR LF and a field wrote
    that field into the request: `Authorization: Bearer ...` of the key's choosing reached the
    server. The line break is a space now, as over http://, and the server refuses the key."""
    forged = "Bearer forged.by.the.key"
    key = project.status["publishable_key"] + "\r\nAuthorization: " + forged
    before = len(front.log("h1"))
    result = ci_run(tmp_path, front, {"SUPABASE_PUBLISHABLE_KEY": key}, "-c", QUERY, url="h1")
    lines = front.log("h1")[before:]
    assert len(lines) == 1, lines
    # The key's text stays in the apikey field (a space for the line break); no Authorization.
    assert f' Authorization: {forged}" "-"' in lines[0], lines[0]
    assert f'"{forged}"' not in lines[0], lines[0]
    assert result.returncode == 3, result.stderr
    assert "the project refused the API key" in result.stderr, result.stderr


def test_a_client_key_variable_left_empty_is_not_passed_over_for_the_server_key(project, front,
                                                                               tmp_path):
    """A CI service fills a variable whose secret is missing with nothing: with
    SUPABASE_PUBLISHABLE_KEY (or SUPABASE_ANON_KEY) empty and the secret key set, the key came
    from SUPABASE_SECRET_KEY and the job ran as service_role, past row-level security, and passed
    (exit 0): a script proving what anon may do passed whatever the policies said. Refused, exit
    2, naming the empty variable, before anything is sent; unset, the secret key is used as the
    README says (the first key variable set)."""
    secret = project.status["secret_key"]
    script = tmp_path / "anon.snm"
    script.write_text("expect $session.role == 'anon'\n" + QUERY + "\n")
    before = len(front.log("main"))
    for empty in ("SUPABASE_PUBLISHABLE_KEY", "SUPABASE_ANON_KEY"):
        for server in ("SUPABASE_SECRET_KEY", "SUPABASE_SERVICE_ROLE_KEY"):
            value = secret if server == "SUPABASE_SECRET_KEY" else project.service_role_key
            for args in (["-c", QUERY], [str(script)], ["test", str(script)]):
                result = ci_run(tmp_path, front, {empty: "", server: value}, *args)
                assert result.returncode == 2, (empty, server, args, result.stdout, result.stderr)
                assert (f"${empty} is set but empty (a CI secret that is missing?), so the key "
                        f"would come from ${server} and run as service_role") in result.stderr, \
                    (empty, server, args, result.stderr)
                assert secret not in result.stdout + result.stderr
    assert front.log("main")[before:] == []  # nothing was sent
    # The other client variable set: it is the key, the empty one is no matter.
    both = ci_run(tmp_path, front, {"SUPABASE_PUBLISHABLE_KEY": "",
                                    "SUPABASE_ANON_KEY": project.anon_key,
                                    "SUPABASE_SECRET_KEY": secret}, str(script))
    assert both.returncode == 0, both.stderr
    # Unset: the secret key is the key, as documented, and the target line says so.
    unset = ci_run(tmp_path, front, {"SUPABASE_SECRET_KEY": secret}, "test", str(script))
    assert unset.returncode == 1 and "(secret key, from SUPABASE_URL)" in unset.stdout, unset.stdout
