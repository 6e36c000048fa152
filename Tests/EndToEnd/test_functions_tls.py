"""`invoke` and `request` through a TLS front, as a hosted project is reached: Debian's nginx with
HTTP/2 by ALPN and a test CA (tls_front.py) before a local project serving Edge Functions. The
same statements as test_functions_statements.py, over https: answers by media type, sub-paths and
queries, a signed-in user's token reaching the function (which reads REST under RLS as them), a
streamed answer, the function's non-2xx answer (exit 1) and an untrusted certificate (exit 3,
nothing sent)."""
import json

import pytest

from conftest import WORKDIR, run_snm
from functions_helpers import start_from, write_folder
from tls_front import TLSFront


@pytest.fixture(scope="module")
def served(snm_bin, workdir, tmp_path_factory):
    root, migrations = write_folder(tmp_path_factory.mktemp("app"))
    handle = start_from(root, "functions-tls", None, "--migrations", str(migrations))
    yield handle
    handle.stop()


@pytest.fixture(scope="module")
def front(served):
    handle = TLSFront(WORKDIR / "functions-tls-front", upstream_port=served.port)
    yield handle
    handle.stop()


def snm(front, project, *statements, env=None, extra=()):
    args = ["--url", front.url("main"), "--key", project.anon_key, "--cacert", front.ca, *extra]
    for statement in statements:
        args += ["-c", statement]
    return run_snm(*args, env=env, timeout=90)


def function_lines(front):
    return [line for line in front.log("main") if "/functions/v1/" in line]


def test_invoke_goes_over_http2_and_tls_and_prints_the_answer(front, served):
    before = len(function_lines(front))
    result = snm(front, served, 'invoke hello {"name": "Over TLS"}', extra=("--format", "json"))
    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout)
    assert (answer["message"], answer["method"], answer["path"]) == ("Hello Over TLS", "POST",
                                                                     "/hello")
    assert answer["authorization"] is True
    sent = function_lines(front)[before:]
    assert len(sent) == 1, sent
    assert sent[0].startswith(f"{front.ports['main']} HTTP/2.0 TLSv1.3 "
                              '"POST /functions/v1/hello HTTP/2.0" 200 '), sent


def test_methods_sub_paths_queries_and_media_types_over_tls(front, served):
    result = snm(front, served,
                 "let got = invoke 'hello/reports/daily?day=3' get header x-region 'eu-west-1'",
                 "expect $got.method == 'GET'",
                 "expect $got.path == '/hello/reports/daily'",
                 "expect $got.query == '?day=3'",
                 "invoke text",
                 "invoke binary",
                 "invoke hello delete",
                 "expect $last.body.method == 'DELETE'",
                 "expect header content-type contains 'json'")
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith("plain words\n5 bytes of application/octet-stream\n")
    assert "GET /functions/v1/hello/reports/daily?day=3 HTTP/2.0" in "\n".join(front.log("main"))


def test_a_streamed_answer_arrives_whole_through_the_front(front, served):
    result = snm(front, served, "invoke stream get")
    assert result.returncode == 0, result.stderr
    assert result.stdout == "data: one\n\ndata: two\n\n"


def test_a_signed_in_users_token_reaches_the_function_and_rls(front, served, home, tmp_path):
    """`notes` reads REST with the caller's token: the user reads their own note, the signed-out
    caller none (RLS decides, behind the function, behind the front)."""
    email = "fn-tls@example.com"
    signup = snm(front, served, f"signup email '{email}' password 'a-long-password-1'", env=home)
    assert signup.returncode == 0, signup.stderr
    owner = served.sql(f"select id from auth.users where email = '{email}'")
    served.sql(f"insert into public.note (owner, body) values ('{owner}', 'over tls')")
    mine = snm(front, served, "invoke notes get", env=home, extra=("--format", "json"))
    assert mine.returncode == 0, mine.stderr
    assert [row["body"] for row in json.loads(mine.stdout)] == ["over tls"]
    nobody = snm(front, served, "invoke notes get", "expect status 200", "expect rows 0",
                 env=home | {"XDG_STATE_HOME": str(tmp_path / "nobody")})
    assert nobody.returncode == 0, nobody.stdout + nobody.stderr


def test_the_functions_error_comes_through_the_front_with_its_status_and_body(front, served):
    thrown = snm(front, served, "invoke hello '{oops'")
    assert thrown.returncode == 1, thrown.stderr
    assert "snm: the edge function 'hello' answered 500: " \
        '{"code":"WORKER_ERROR","message":"Function exited due to an error (please check logs)"}' \
        in thrown.stderr
    missing = snm(front, served, "invoke nope")
    assert missing.returncode == 1
    assert "answered 404: Function not found" in missing.stderr


def test_an_untrusted_certificate_is_refused_and_nothing_is_invoked(front, served, home):
    before = len(function_lines(front))
    result = run_snm("--url", front.url("untrusted"), "--key", served.anon_key, "-c",
                     "invoke hello", env=home, timeout=60)
    assert result.returncode == 3, result.stderr
    assert "failed to send the request to the edge function 'hello'" in result.stderr
    assert "not trusted" in result.stderr, result.stderr
    assert [line for line in front.log("untrusted") if "/functions/v1/" in line] == []
    assert len(function_lines(front)) == before
