"""The project's names (its OpenAPI document at GET /rest/v1/, for Tab, `tables`, `describe`) load
on their first need at the prompt, not before it (issue 41: start-up to the first prompt): a
session left at once never asks for them, the document is fetched once however many things need
it, a schema endpoint that is slow holds up no statement, and Tab waits for the names rather than
offer none. snm talks to the project through a proxy here that records each request and can hold
the document's."""
import http.client
import http.server
import threading
import urllib.parse

import pytest

from conftest import SNM
from tmux_shell import TmuxShell

SCHEMA = "/rest/v1/"
HOP_BY_HOP = {"connection", "keep-alive", "transfer-encoding", "te", "trailer", "upgrade",
              "proxy-authorization", "proxy-authenticate", "content-length"}


class RecordingProxy:
    """Forwards every request to `target` (the project's URL) and records `METHOD path` in order;
    while `hold` is clear a GET of the document waits before it is forwarded."""

    def __init__(self, target):
        self.target = urllib.parse.urlsplit(target)
        self.requests = []
        self.hold = threading.Event()
        self.hold.set()
        self.held = threading.Event()
        proxy = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def forward(self):
                path = self.path
                proxy.requests.append(f"{self.command} {urllib.parse.urlsplit(path).path}")
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else None
                if self.command == "GET" and urllib.parse.urlsplit(path).path == SCHEMA:
                    proxy.held.set()
                    proxy.hold.wait(60)
                upstream = http.client.HTTPConnection(
                    proxy.target.hostname, proxy.target.port, timeout=60)
                headers = {k: v for k, v in self.headers.items() if k.lower() not in HOP_BY_HOP}
                upstream.request(self.command, path, body=body, headers=headers)
                answer = upstream.getresponse()
                data = answer.read()
                self.send_response(answer.status, answer.reason)
                for key, value in answer.getheaders():
                    if key.lower() not in HOP_BY_HOP:
                        self.send_header(key, value)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                if self.command != "HEAD":
                    self.wfile.write(data)
                upstream.close()

            do_GET = do_POST = do_PATCH = do_DELETE = do_PUT = do_HEAD = forward

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def schema_fetches(self):
        return self.requests.count(f"GET {SCHEMA}")

    def close(self):
        self.hold.set()
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def proxy(project):
    handle = RecordingProxy(project.url)
    yield handle
    handle.close()


@pytest.fixture
def shell_env(proxy, project, tmp_path):
    return {
        "SUPABASE_URL": proxy.url, "SUPABASE_ANON_KEY": project.anon_key, "NO_COLOR": "1",
        "XDG_STATE_HOME": str(tmp_path / "state"), "XDG_CACHE_HOME": str(tmp_path / "cache"),
        "XDG_CONFIG_HOME": str(tmp_path / "config"), "PAGER": "cat",
    }


def test_a_session_left_at_once_never_asks_for_the_projects_names(proxy, shell_env):
    with TmuxShell([SNM], env=shell_env) as shell:
        shell.wait_for_prompt()
        shell.press("C-d")
        shell.wait_for_text("[snm exited 0]")
    # Before, the document was fetched, and the buckets listed, while the prompt was drawn.
    assert proxy.requests == [], proxy.requests


def test_a_slow_schema_endpoint_holds_up_no_statement_and_tab_waits_for_the_names(
        proxy, shell_env):
    proxy.hold.clear()
    with TmuxShell([SNM], env=shell_env) as shell:
        shell.wait_for_prompt()
        # The first key starts the load, which the proxy holds: the statement runs meanwhile.
        screen = shell.run("from dog_profile select id, name order by id limit 1")
        assert "Bori" in screen and "(1 row)" in screen, screen
        assert proxy.held.wait(15), proxy.requests
        # Tab wants the tables: it waits for the document (none yet) instead of offering only
        # dog_profile, the one table seen in results.
        shell.type("from user_i")
        shell.press("Tab")
        proxy.hold.set()
        shell.wait_for(lambda s: s.splitlines()[-1].endswith("> from user_info"))
        shell.press("C-c")
        shell.wait_for_prompt(3)
        shell.type("from user_info select ")
        shell.press("Tab")
        shell.wait_for(lambda s: "created_at" in s)
        shell.press("C-c")
        shell.wait_for_prompt(4)
        screen = shell.run("tables")
        assert "dog_profile" in screen, screen
        shell.run("describe user_info")
    # Tab twice, `tables` and `describe`: one fetch.
    assert proxy.schema_fetches() == 1, proxy.requests


def test_a_key_typed_while_tab_waits_for_the_names_ends_the_wait(proxy, shell_env):
    proxy.hold.clear()
    with TmuxShell([SNM], env=shell_env) as shell:
        shell.wait_for_prompt()
        shell.type("from user_i")
        shell.press("Tab")
        assert proxy.held.wait(15), proxy.requests
        # The document is still held: the key typed ends Tab's wait and goes on the line.
        shell.type("n")
        shell.wait_for(lambda s: s.splitlines()[-1].endswith("> from user_in"))
        shell.press("C-c")
        shell.wait_for_prompt(2)


def test_an_empty_read_of_every_column_waits_for_the_names_to_print_its_header(proxy, shell_env):
    proxy.hold.clear()
    with TmuxShell([SNM], env=shell_env) as shell:
        shell.wait_for_prompt()
        # No row: `*`'s columns come from the document, which the first key asked for.
        shell.type("from user_info select * where id eq '00000000-0000-0000-0000-000000000000'")
        shell.press("Enter")
        assert proxy.held.wait(15), proxy.requests
        proxy.hold.set()
        screen = shell.wait_for_prompt(2)
        assert "(0 rows)" in screen, screen
        header = screen.splitlines()[-4]
        assert "created_at" in header and "name" in header, screen
