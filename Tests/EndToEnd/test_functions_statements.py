"""snm's `invoke` and `request` statements against a local project serving Edge Functions: the
request they send, answers by media type, `$last` and `expect`, `let`, explain (request, curl,
supabase-swift), and the three failures told apart as functions-js tells them apart: the
function's non-2xx answer (FunctionsHttpError, exit 1), no answer at all (FunctionsFetchError,
exit 3), the relay's error (FunctionsRelayError, exit 4); and a path that would leave the project
(exit 2, nothing sent)."""
import http.server
import json
import threading

import pytest

from conftest import run_snm
from functions_helpers import start_from, write_folder


@pytest.fixture(scope="module")
def served(snm_bin, workdir, tmp_path_factory):
    root, migrations = write_folder(tmp_path_factory.mktemp("app"))
    handle = start_from(root, "functions-statements", None, "--migrations", str(migrations))
    yield handle
    handle.stop()


def snm(project, *statements, env=None, extra=()):
    args = ["--url", project.url, "--key", project.anon_key, *extra]
    for statement in statements:
        args += ["-c", statement]
    return run_snm(*args, env=env)


def test_invoke_posts_json_as_the_signed_out_caller_and_prints_the_answer(served):
    result = snm(served, 'invoke hello {"name": "Bori"}', extra=("--format", "json"))
    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout)
    assert answer["message"] == "Hello Bori"
    assert (answer["method"], answer["path"], answer["contentType"]) == ("POST", "/hello", "application/json")
    assert answer["authorization"] is True


def test_methods_sub_paths_headers_and_bodies(served, tmp_path):
    upload = tmp_path / "r.csv"
    upload.write_text("a,b\n1,2\n")
    result = snm(
        served,
        "let got = invoke hello/reports/daily get header x-region 'eu-west-1'",
        "expect $got.method == 'GET'",
        "expect $got.path == '/hello/reports/daily'",
        f"let put = invoke hello/item put file '{upload}'",
        "expect $put.body contains 'a,b'",
        "expect $put.contentType == 'application/octet-stream'",
        "let text = invoke 'hello?x=1' 'plain words'",
        "expect $text.query == '?x=1'",
        "expect $text.contentType == 'text/plain'",
        "invoke hello delete",
        "expect status 200",
        "expect header content-type contains 'json'",
        "expect $last.body.method == 'DELETE'")
    assert result.returncode == 0, result.stdout + result.stderr


def test_text_and_binary_answers_print_by_media_type(served):
    text = snm(served, "invoke text")
    assert (text.returncode, text.stdout) == (0, "plain words\n")
    binary = snm(served, "invoke binary")
    assert (binary.returncode, binary.stdout) == (0, "5 bytes of application/octet-stream\n")
    bound = snm(served, "let b = invoke binary", "expect $b.size == 5", "echo $b.type")
    assert bound.stdout.strip() == "application/octet-stream", bound.stderr


def test_an_answer_goes_to_a_file_byte_for_byte_with_gt(served, tmp_path):
    """`> 'file'` writes the body as it came (relative to the script's folder) and prints nothing
    of it; `let` binds it all the same; a failed call writes nothing."""
    script = tmp_path / "save.snm"
    script.write_text("invoke binary > 'out.bin'\n"
                      "request post '/functions/v1/hello' body {\"name\": \"File\"} > 'hello.json'\n"
                      "let got = invoke text > 'words.txt'\n"
                      "echo $got\n")
    result = run_snm("--url", served.url, "--key", served.anon_key, str(script), cwd="/")
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "out.bin").read_bytes() == bytes([0, 1, 2, 254, 255])
    assert json.loads((tmp_path / "hello.json").read_text())["message"] == "Hello File"
    assert (tmp_path / "words.txt").read_text() == "plain words"
    assert result.stdout == "plain words\n"  # only the echo: the answers went to their files
    failed = snm(served, f"invoke nope > '{tmp_path}/nope.bin'")
    assert failed.returncode == 1
    assert not (tmp_path / "nope.bin").exists()
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".part")] == []


def test_a_signed_in_user_calls_as_themselves(served, home):
    email = "fn-user@example.com"
    result = snm(served, f"signup email '{email}' password 'a-long-password-1'", "invoke hello",
                 "expect $last.body.authorization == true", env=home)
    assert result.returncode == 0, result.stderr


def test_a_non_2xx_answer_is_a_failed_statement_with_its_status_and_body(served):
    thrown = snm(served, "invoke hello '{oops'")
    assert thrown.returncode == 1
    assert "snm: the edge function 'hello' answered 500: " \
        '{"code":"WORKER_ERROR","message":"Function exited due to an error (please check logs)"}' \
        in thrown.stderr
    missing = snm(served, "invoke nope")
    assert missing.returncode == 1
    assert "snm: the edge function 'nope' answered 404: Function not found" in missing.stderr
    checked = snm(served, "set on_error continue", "invoke broken", "expect error 'BOOT_ERROR'",
                  "expect status 503", "echo 'checked'")
    assert checked.returncode == 0 and checked.stdout.strip() == "checked"  # the error was expected
    assert "expectation failed" not in checked.stderr, checked.stderr  # both expects held
    broken = snm(served, "invoke broken")
    assert broken.returncode == 1
    assert 'answered 503: {"code":"BOOT_ERROR"' in broken.stderr


def test_no_answer_at_all_is_a_network_failure(served):
    result = run_snm("--url", "http://127.0.0.1:9", "--key", served.anon_key, "-c", "invoke hello")
    assert result.returncode == 3
    assert "failed to send the request to the edge function 'hello'" in result.stderr


class RelayFailing:
    """Hosted's edge gateway when it cannot reach a function: any request answered 502 with
    `x-relay-error: true` and a body of its own (functions-js throws FunctionsRelayError)."""

    def __init__(self):
        class Handler(http.server.BaseHTTPRequestHandler):
            def answer(self):
                length = int(self.headers.get("Content-Length") or 0)
                self.rfile.read(length)
                body = b'{"message":"upstream unreachable"}'
                self.send_response(502)
                self.send_header("Content-Type", "application/json")
                self.send_header("x-relay-error", "true")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            do_GET = do_POST = do_PUT = do_DELETE = answer

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture(scope="module")
def relay():
    handle = RelayFailing()
    yield handle
    handle.stop()


def test_a_relay_error_is_its_own_message_and_exit_code(served, relay):
    result = run_snm("--url", relay.url, "--key", served.anon_key, "-c", "invoke hello")
    assert result.returncode == 4, result.stderr
    assert "snm: relay error invoking the edge function 'hello' (502): " \
        '{"message":"upstream unreachable"}' in result.stderr
    assert "answered" not in result.stderr and "failed to send" not in result.stderr
    checked = run_snm("--url", relay.url, "--key", served.anon_key, "-c", "set on_error continue",
                      "-c", "invoke hello", "-c", "expect error 'relay_error'", "-c",
                      "expect status 502", "-c", "echo 'checked'")
    assert (checked.returncode, checked.stdout.strip()) == (0, "checked"), checked.stderr


def test_the_three_failures_have_three_exit_codes(served, relay):
    """The function's 500 (1), the relay's 502 (4), nobody listening (3): one statement each."""
    codes = [snm(served, "invoke hello '{oops'").returncode,
             run_snm("--url", relay.url, "--key", served.anon_key, "-c", "invoke hello").returncode,
             run_snm("--url", "http://127.0.0.1:9", "--key", served.anon_key, "-c",
                     "invoke hello").returncode]
    assert codes == [1, 4, 3]


def test_request_sends_any_path_under_the_project_with_its_keys(served):
    result = snm(served, "request get '/rest/v1/note?select=id'", "expect status 200",
                 "request get '/auth/v1/settings'", "expect $last.body.external.email == true",
                 "request post '/functions/v1/hello' body {\"name\": \"Raw\"}",
                 "expect $last.body.message == 'Hello Raw'")
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize("path", ["http://example.com/x", "//example.com/x", "rest/v1/x"])
def test_request_never_leaves_the_project(served, path):
    result = snm(served, f"request get '{path}'")
    assert result.returncode == 2
    assert "'request' takes a path under the project's URL starting with '/'" in result.stderr
    assert "^" in result.stderr


def test_a_path_from_a_variable_is_checked_before_anything_is_sent(served):
    result = snm(served, "request get $target", extra=("--var", "target=http://example.com/x"))
    assert result.returncode == 2
    assert "'request' takes a path under the project's URL" in result.stderr


def test_explain_shows_the_request_curl_and_the_supabase_swift_call(served):
    text = snm(served, "explain invoke hello put {\"a\": 1} header x-region 'eu-west-1'")
    assert text.returncode == 0, text.stderr
    lines = text.stdout.splitlines()
    assert lines[0] == "PUT /functions/v1/hello"
    assert f"url      {served.url}/functions/v1/hello" in lines
    assert any(line.startswith("swift    try await supabase.functions.invoke(\"hello\", options: "
                               "FunctionInvokeOptions(method: .put") for line in lines)
    curl = snm(served, "explain curl invoke hello")
    assert curl.stdout.startswith(f"curl -X POST '{served.url}/functions/v1/hello'")
    assert '$SUPABASE_ANON_KEY' in curl.stdout and served.anon_key not in curl.stdout
    raw = snm(served, "explain json request get '/rest/v1/note?select=id'")
    assert json.loads(raw.stdout)["url"] == served.url + "/rest/v1/note?select=id"


def test_check_reports_bad_statements_with_a_caret(tmp_path):
    script = tmp_path / "bad.snm"
    script.write_text("invoke 9lives\nrequest get 'https://evil.example/x'\nrequest fetch '/x'\n")
    result = run_snm("check", str(script))
    assert result.returncode == 2
    assert "bad.snm:1:8: error: '9lives' is no function name" in result.stderr
    assert "bad.snm:2:13: error: 'request' takes a path under the project's URL" in result.stderr
    assert "bad.snm:3:9: error: expected a method" in result.stderr
