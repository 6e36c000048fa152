"""The Realtime statements over wss://: a project behind a TLS front (Debian's nginx passing the
WebSocket upgrade on, certificates from a test CA; tls_front.py) is reached over TLS with the same
CA options as https requests (--cacert, SSL_CERT_FILE); a certificate not trusted or not for the
host is refused with exit 3 saying which, and nothing falls back to ws://."""
import pytest

from conftest import WORKDIR, run_snm
from tls_front import TLSFront

ROUND_TRIP = """
listen channel room1
broadcast room1 cursor {"x": 1}
expect event room1 cursor within 10s
echo $event.payload.x
"""


@pytest.fixture(scope="module")
def rt_project(start_extra_project):
    return start_extra_project("realtime-tls")


# The statements a script uses, each once: a table's change written on the next line, a broadcast,
# a presence join; run as written over ws:// and over wss:// through the front.
SCRIPT = """
listen tls_todos
from tls_todos insert {"title": "walk"}
expect event tls_todos insert within 10s
echo $event.record.title
listen channel lobby
expect event lobby sync within 10s
broadcast lobby cursor {"x": 2}
expect event lobby cursor within 10s
echo $event.payload.x
track lobby {"status": "online"}
expect event lobby join within 10s
echo $event.joins
"""


@pytest.fixture(scope="module")
def todos(rt_project):
    """tls_todos (no RLS, anon may write) in supabase_realtime."""
    rt_project.sql("""
        create table public.tls_todos (id bigint generated always as identity primary key,
          title text);
        grant all on public.tls_todos to anon, authenticated;
        alter publication supabase_realtime add table public.tls_todos;
        """)
    return rt_project


def script_output_is_right(stdout):
    lines = stdout.splitlines()
    return (lines[:3] == ["inserted (HTTP 201)", "walk", "2"] and len(lines) == 4
            and '"status":"online"' in lines[3].replace(" ", ""))


@pytest.fixture(scope="module")
def front(rt_project):
    handle = TLSFront(WORKDIR / "realtime-tls-front", upstream_port=rt_project.port)
    yield handle
    handle.stop()


def snm_script(front, project, home, text, *flags, name="main", env=None):
    return run_snm("--url", front.url(name), "--key", project.anon_key, *flags, "-c", text,
                   env={**home, **(env or {})}, timeout=60)


def upgrades(front, name="main"):
    return [line for line in front.log(name) if "/realtime/v1/websocket" in line]


def test_a_broadcast_comes_back_over_wss_with_cacert(front, rt_project, home):
    result = snm_script(front, rt_project, home, ROUND_TRIP, "--cacert", front.ca)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "1\n"
    # The socket went through the TLS front (HTTP/1.1 upgrade, 101), not around it.
    assert any('HTTP/1.1 TLSv1.3 "GET /realtime/v1/websocket' in line and '" 101 ' in line
               for line in upgrades(front)), front.log("main")


def test_ssl_cert_file_is_honoured_as_for_https(front, rt_project, home):
    result = snm_script(front, rt_project, home, ROUND_TRIP, env={"SSL_CERT_FILE": front.ca})
    assert result.returncode == 0, result.stderr
    assert result.stdout == "1\n"


def test_a_certificate_of_another_ca_is_refused_with_exit_3(front, rt_project, home, tmp_path):
    """--cacert names a CA that did not sign the server's certificate (the self-signed one)."""
    other_ca = tmp_path / "other-ca.pem"
    other_ca.write_text((front.directory / "self.pem").read_text())
    before = len(upgrades(front))
    result = snm_script(front, rt_project, home, "listen channel room2", "--cacert", str(other_ca))
    assert result.returncode == 3, result.stderr
    assert "listen: realtime: cannot connect: the server's TLS certificate is not trusted" \
        in result.stderr
    assert "give --cacert FILE or set SSL_CERT_FILE" in result.stderr
    assert len(upgrades(front)) == before  # no upgrade was sent, over TLS or not


def test_a_certificate_for_another_host_is_refused_with_exit_3(front, rt_project, home):
    result = snm_script(front, rt_project, home, "listen channel room3", "--cacert", front.ca,
                        name="wrong_host")
    assert result.returncode == 3, result.stderr
    assert "the server's TLS certificate is not for this host" in result.stderr
    assert upgrades(front, "wrong_host") == []


def test_an_unreadable_cacert_is_refused_with_exit_3(front, rt_project, home, tmp_path):
    missing = tmp_path / "missing.pem"
    result = snm_script(front, rt_project, home, "listen channel room4", "--cacert", str(missing))
    assert result.returncode == 3, result.stderr
    assert "cannot connect: the CA certificates given (--cacert, SSL_CERT_FILE) cannot be read" \
        in result.stderr


def test_a_script_of_changes_broadcast_and_presence_runs_the_same_over_wss(front, todos, home):
    """The script passes over ws:// to the project, and as written over wss:// through the TLS
    front with --cacert: its insert goes over https, its socket over wss, through nginx."""
    plain = run_snm("--url", todos.url, "--key", todos.anon_key, "-c", SCRIPT, env=home,
                    timeout=60)
    assert plain.returncode == 0, plain.stderr
    assert script_output_is_right(plain.stdout), plain.stdout
    before = len(upgrades(front))
    secure = snm_script(front, todos, home, SCRIPT, "--cacert", front.ca)
    assert secure.returncode == 0, secure.stderr
    assert script_output_is_right(secure.stdout), secure.stdout
    assert len(upgrades(front)) == before + 1, front.log("main")
    assert any('"POST /rest/v1/tls_todos' in line for line in front.log("main"))


def test_the_script_over_wss_to_an_untrusted_certificate_stops_with_exit_3(front, todos, home):
    """The `untrusted` server (a self-signed certificate) with --cacert of the test CA: the first
    statement cannot connect, and nothing after it runs."""
    before = len(upgrades(front, "untrusted"))
    result = snm_script(front, todos, home, SCRIPT, "--cacert", front.ca, name="untrusted")
    assert result.returncode == 3, result.stderr
    assert "listen: realtime: cannot connect: the server's TLS certificate is not trusted" \
        in result.stderr
    assert result.stdout == ""
    assert upgrades(front, "untrusted") == [] and before == 0
