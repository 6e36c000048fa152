"""`snm explain`: the real binary prints the request of each spec example, offline.

The expected requests are Tests/SNMQueryTests/Fixtures/spec-examples.json, the same table the Swift
unit tests use (the query table of docs/language.md, checked against it below). JSON is compared with number text and key
order kept, so a match here is a byte-for-byte match of the values.
"""
import json
import os
import pathlib
import re
import subprocess

import pytest

from conftest import run_snm

ROOT = pathlib.Path(__file__).resolve().parents[2]
EXAMPLES = json.loads(
    (ROOT / "Tests/SNMQueryTests/Fixtures/spec-examples.json").read_text(encoding="utf-8"))
DEFAULT_URL = "http://127.0.0.1:54321"
# No project configured: explain must fall back to the local default and never need a server.
OFFLINE = {"SUPABASE_URL": "", "SUPABASE_ANON_KEY": "secret-anon-key-value"}


def exact(text):
    """Parses JSON keeping key order (lists of pairs) and the exact text of every number."""
    return json.loads(
        text, object_pairs_hook=lambda pairs: ("object", pairs),
        parse_float=lambda s: ("number", s), parse_int=lambda s: ("number", s))


def exact_value(value):
    """A plain JSON value from the spec table, in the same shape as `exact`."""
    return exact(json.dumps(value, ensure_ascii=False))


@pytest.mark.parametrize("example", EXAMPLES, ids=[e["statement"] for e in EXAMPLES])
def test_explain_json_matches_spec(snm_bin, example):
    result = run_snm("explain", "--json", example["statement"], env=OFFLINE)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == 1
    got = dict(exact(lines[0])[1])
    assert [key for key, _ in exact(lines[0])[1]] == [
        "method", "path", "query", "url", "headers", "body", "swift"]
    assert got["method"] == example["method"]
    assert got["path"] == example["path"]
    assert got["query"] == [list(pair) for pair in example["query"]]
    assert got["headers"] == exact_value(example["headers"])
    # Number text is compared exactly: `127.0` must stay `127.0`.
    assert got["body"] == exact_value(example["body"])
    assert got["url"].startswith(DEFAULT_URL + example["path"])


def test_explain_json_several_statements_one_line_each(snm_bin):
    result = run_snm(
        "explain", "--json", "from a select *; from b delete where id eq 1", env=OFFLINE)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert [json.loads(line)["method"] for line in lines] == ["GET", "DELETE"]


def test_explain_url_from_flag_and_environment(snm_bin):
    by_flag = run_snm("explain", "--json", "--url", "https://abc.supabase.co/",
                      "from t select *", env=OFFLINE)
    assert json.loads(by_flag.stdout)["url"] == "https://abc.supabase.co/rest/v1/t?select=%2A"
    by_env = run_snm("explain", "--json", "from t select *",
                     env={"SUPABASE_URL": "http://127.0.0.1:9"})
    assert json.loads(by_env.stdout)["url"] == "http://127.0.0.1:9/rest/v1/t?select=%2A"


def test_explain_curl_never_shows_the_key(snm_bin):
    result = run_snm(
        "explain", "--curl", "from user_info update {\"name\": \"Lee\"} where id eq 1",
        env=OFFLINE)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert out.startswith("curl -X PATCH 'http://127.0.0.1:54321/rest/v1/user_info?id=eq.1'")
    assert '-H "apikey: $SUPABASE_ANON_KEY"' in out
    assert '-H "Authorization: Bearer $TOKEN"' in out
    assert "-H 'Prefer: return=minimal,count=exact'" in out
    assert "-d '{\"name\":\"Lee\"}'" in out
    assert "secret-anon-key-value" not in out + result.stderr


def test_explain_readable_block_has_the_swift_chain(snm_bin):
    result = run_snm(
        "explain", "from user_info select id, name where age >= 3 order by name limit 2",
        env=OFFLINE)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "GET /rest/v1/user_info"
    assert "query    select = id,name" in lines
    assert "         age = gte.3" in lines
    assert ("url      http://127.0.0.1:54321/rest/v1/user_info"
            "?select=id%2Cname&age=gte.3&order=name&limit=2") in lines
    assert "swift    try await remoteDBManager.fetchData()" in lines
    assert '           .setTable("user_info")' in lines
    assert "           .request()" in lines


def test_explain_parse_error_exits_2_with_caret(snm_bin):
    result = run_snm("explain", "--json", "from user_info selec *", env=OFFLINE)
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.splitlines() == [
        "<command line>:1:16: error: expected an action (select, insert, upsert, put, update or delete)"
        " after the table 'user_info', found 'selec'",
        "from user_info selec *",
        "               ^~~~~",
        "help: did you mean 'select'?",
    ]


def test_explain_reports_every_error(snm_bin):
    result = run_snm(
        "explain", "from t select * where a eq null\nfrom t delete\nfrom t select * limit -1",
        env=OFFLINE)
    assert result.returncode == 2
    locations = [line.split(": error")[0] for line in result.stderr.splitlines()
                 if ": error:" in line]
    assert locations == ["<command line>:1:25", "<command line>:2:8", "<command line>:3:23"]


def test_explain_variables_from_var_and_undefined_ones(snm_bin):
    ok = run_snm("explain", "--json", "--var", "dog={\"id\": 7}",
                 "from dog select * where id eq $dog.id", env=OFFLINE)
    assert ok.returncode == 0, ok.stderr
    assert json.loads(ok.stdout)["query"] == [["select", "*"], ["id", "eq.7"]]
    missing = run_snm("explain", "from dog select * where id eq $cat.id", env=OFFLINE)
    assert missing.returncode == 2
    assert "<command line>:1:31: error: undefined variable '$cat.id'" in missing.stderr


def test_explain_refuses_statements_that_send_no_request(snm_bin):
    result = run_snm("explain", "login", env=OFFLINE)
    assert result.returncode == 2
    assert "sends no request" in result.stderr


def test_explain_usage(snm_bin):
    result = run_snm("explain", env=OFFLINE)
    assert result.returncode == 2
    assert "usage: snm explain" in result.stderr
    both = run_snm("explain", "--json", "--curl", "from t select *", env=OFFLINE)
    assert both.returncode == 2


def documented_queries():
    """The query table of docs/language.md: (statement, method cell, decoded query cell) per row."""
    text = (ROOT / "docs/language.md").read_text(encoding="utf-8")
    section = text.split("## 2. Queries", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in section.splitlines():
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
        if len(cells) == 3 and cells[0].startswith("`"):
            rows.append([c.replace("\\|", "|") for c in cells])
    return rows


def test_the_language_doc_shows_every_checked_example_as_sent(snm_bin):
    """docs/language.md is the users' reference: each row must be a statement snm sends exactly as
    the row says, and the table must hold every example the suite checks (none added or lost)."""
    rows = documented_queries()
    assert [row[0].strip("`") for row in rows] == [e["statement"] for e in EXAMPLES]
    for (statement, method, query), example in zip(rows, EXAMPLES):
        result = run_snm("explain", "--json", statement.strip("`"), env=OFFLINE)
        assert result.returncode == 0, (statement, result.stderr)
        got = json.loads(result.stdout)
        assert method.split()[0] == got["method"], statement
        for header in re.findall(r"`([A-Za-z-]+): ([^`]+)`", method):
            assert got["headers"].get(header[0]) == header[1], (statement, header, got["headers"])
        if got["path"].startswith("/rest/v1/rpc/"):
            assert f"`{got['path']}`" in method, statement
        decoded = "&".join(f"{k}={v}" for k, v in got["query"])
        assert query == (f"`{decoded}`" if decoded else "(none)"), statement


# ---- what the statement holds is shown, never applied (Trojan Source) -----------------------
# A right-to-left override, an isolate and a zero-width space in a key and a value, and a quote:
# raw, a terminal would show the body reordered and the hidden space not at all.
HIDDEN = "\u202e\u2066\u2069\u200b"
HIDDEN_BODY = {"a\u2066": "x\u202ey\u2069z\u200b", "q": "it's"}
HIDDEN_STATEMENT = "from t insert " + json.dumps(HIDDEN_BODY, ensure_ascii=False)
# `explain` at the prompt (`snm -c`) of a project named but never reached: `--local` here started
# the machine's default local project (port 54321) and left it running after the run.
AT_PROMPT = {"SUPABASE_URL": "", "SUPABASE_ANON_KEY": ""}
PROMPT = ["--url", "http://127.0.0.1:9", "--key", "k", "-c"]


def assert_no_hidden(text):
    assert not any(character in text for character in HIDDEN), repr(text)


def test_explain_text_shows_invisible_characters_as_escapes(snm_bin):
    for args in (["explain", HIDDEN_STATEMENT], [*PROMPT, "explain " + HIDDEN_STATEMENT]):
        result = run_snm(*args, env=AT_PROMPT if "-c" in args else OFFLINE)
        assert result.returncode == 0, result.stderr
        assert_no_hidden(result.stdout)
        assert r'body     {"a\u{2066}":"x\u{202E}y\u{2069}z\u{200B}","q":"it' in result.stdout


def test_explain_json_writes_invisible_characters_as_json_escapes(snm_bin):
    for args in (["explain", "--json", HIDDEN_STATEMENT],
                 [*PROMPT, "explain json " + HIDDEN_STATEMENT]):
        result = run_snm(*args, env=AT_PROMPT if "-c" in args else OFFLINE)
        assert result.returncode == 0, result.stderr
        assert_no_hidden(result.stdout)
        assert r'"body":{"a\u2066":"x\u202ey\u2069z\u200b","q":"it' in result.stdout
        # The same JSON value: a parser reads the characters back.
        assert json.loads(result.stdout)["body"] == HIDDEN_BODY


@pytest.mark.parametrize("locale", ["C", "C.UTF-8"])
def test_explain_curl_quotes_invisible_characters_so_bash_reads_the_same_bytes(snm_bin, locale):
    sent = json.dumps(HIDDEN_BODY, ensure_ascii=False, separators=(",", ":")).encode()
    for args in (["explain", "--curl", HIDDEN_STATEMENT],
                 [*PROMPT, "explain curl " + HIDDEN_STATEMENT]):
        result = run_snm(*args, env=AT_PROMPT if "-c" in args else OFFLINE)
        assert result.returncode == 0, result.stderr
        assert_no_hidden(result.stdout)
        data = [line for line in result.stdout.splitlines() if line.startswith("  -d ")]
        assert len(data) == 1, result.stdout
        word = data[0][len("  -d "):]
        assert word.startswith("$'"), word
        pasted = subprocess.run(
            ["bash", "-c", "printf %s " + word], capture_output=True, check=True,
            env=dict(os.environ, LC_ALL=locale))
        assert pasted.stdout == sent
        # A word without such a character is quoted as before.
        assert "  -H 'Content-Type: application/json'" in result.stdout


def test_the_unquoted_name_help_typed_as_shown_names_the_same_thing(snm_bin):
    result = run_snm("explain", "from t\u202eab select *", env=OFFLINE)
    assert result.returncode == 2
    helps = [line for line in result.stderr.splitlines() if line.startswith("help: write ")]
    assert helps == [r'help: write "t\u202Eab"'], result.stderr
    typed = run_snm("explain", "--json", "from " + helps[0][len("help: write "):] + " select *",
                    env=OFFLINE)
    assert typed.returncode == 0, typed.stderr
    assert json.loads(typed.stdout)["path"] == "/rest/v1/t%E2%80%AEab"
