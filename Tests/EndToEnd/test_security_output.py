"""What another user's data and a hostile server can do to the shell's output (issue 13, items 9
and 10), seen by alice through a pipe and through a real terminal (a pty).

Item 9: a value nested as deep as Postgres stores prints whole in every format with exit 0 (bob's
300-deep array printed no table, a cut CSV or invalid JSON, said "deeper than 512 levels" and
exited 0; 14,000 levels is about what jsonb holds with Postgres' default stack); only an answer
deeper than snm takes (16,384 levels) fails the statement, with the true limit and exit 3, the
README's code for an answer snm cannot take (as one that is not JSON).

Item 10: control characters a server sends (carol's public bio, column names, error code, message,
details and hint, a body that is not JSON, an auth message, the signed-in e-mail) never reach a
terminal raw: they are shown as escapes there; json escapes C0 and C1 (U+009B) always; csv and
json to a pipe keep the data as it is.
"""
import csv
import io
import json
import os
import pty
import select
import subprocess
import time

import httpx
import pytest

from conftest import SNM, run_snm
from test_hostile_server import HostileServer, json_answer, session_body
from test_realtime_client import HostileRealtime, frame
from tmux_shell import TmuxShell

FORMATS = ["table", "expanded", "csv", "json", "ndjson"]
# Retitles the window, clears the screen, then a one-byte CSI (U+009B) that turns text red.
PAYLOAD = "hi\x1b]0;owned\x07\x1b[2J\x9b31mred"
RAW = [b"\x1b]0;", b"\x1b[2J", b"\x07", b"\xc2\x9b"]


def deep(depth):
    return "[" * depth + "]" * depth


@pytest.fixture(scope="module")
def world(start_extra_project, tmp_path_factory):
    project = start_extra_project("output-safety")
    tokens = {}
    for name in ("alice", "bob", "carol"):
        answer = httpx.post(f"{project.auth_url}/token?grant_type=password",
                            headers=project.headers(), timeout=30,
                            json={"email": f"{name}@example.com", "password": "password123"})
        assert answer.status_code == 200, answer.text
        tokens[name] = answer.json()
    folder = tmp_path_factory.mktemp("alice")
    home = {"XDG_STATE_HOME": str(folder / "state"), "XDG_CONFIG_HOME": str(folder / "config"),
            "XDG_CACHE_HOME": str(folder / "cache"), "HOME": str(folder), "NO_COLOR": "1",
            "SUPABASE_URL": project.url, "SUPABASE_ANON_KEY": project.anon_key}
    login = run_snm("-c", "login email 'alice@example.com' password 'password123'", env=home)
    assert login.returncode == 0, login.stderr
    return project, tokens, home


def store(world, who, body):
    """`who` updates their own profile over REST (PATCH /user_info?id=eq.<own id>)."""
    project, tokens, _ = world
    token = tokens[who]
    answer = httpx.patch(f"{project.rest_url}/user_info?id=eq.{token['user']['id']}",
                         headers={**project.headers(token=token["access_token"]),
                                  "Content-Type": "application/json"},
                         content=body.encode(), timeout=60)
    assert answer.status_code == 204, answer.text


def at_terminal(args, env, timeout=60):
    """Runs snm with standard output and error on a pty; returns (everything shown, exit code)."""
    full = dict(os.environ, TERM="xterm", PAGER="cat", COLUMNS="200", **env)
    pid, fd = pty.fork()
    if pid == 0:
        os.execve(SNM, [SNM, *args], full)
    shown = b""
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            if not select.select([fd], [], [], 1)[0]:
                continue
            try:
                chunk = os.read(fd, 65536)
            except OSError:  # the child closed the terminal
                break
            if not chunk:
                break
            shown += chunk
    finally:
        os.close(fd)
    _, status = os.waitpid(pid, 0)
    return shown, os.waitstatus_to_exitcode(status)


def assert_nothing_raw(shown):
    for sequence in RAW:
        assert sequence not in shown, (sequence, shown[:2000])


# ---- item 9: depth ---------------------------------------------------------------------------

@pytest.mark.parametrize("fmt", FORMATS)
def test_bobs_300_deep_array_prints_whole_for_alice(world, fmt):
    store(world, "bob", json.dumps({"data": json.loads(deep(300)), "is_public": True}))
    shown = run_snm("--format", fmt, "-c", "from user_info select name, data order by name",
                    env=world[2])
    assert shown.returncode == 0, shown.stderr
    assert shown.stderr == ""
    if fmt in ("json", "ndjson"):
        rows = json.loads(shown.stdout) if fmt == "json" else \
            [json.loads(line) for line in shown.stdout.splitlines()]
        assert [row["data"] for row in rows if row["name"] == "김민수"] == [json.loads(deep(300))]
        assert len(rows) == 3
    elif fmt == "csv":
        rows = list(csv.reader(io.StringIO(shown.stdout)))
        assert rows[0] == ["name", "data"] and len(rows) == 4
        assert [row[1] for row in rows if row[0] == "김민수"] == [deep(300)]
    else:
        assert deep(300) in shown.stdout
        assert ("(3 rows)" in shown.stdout) == (fmt == "table")


@pytest.mark.parametrize("fmt", ["table", "expanded", "csv", "ndjson"])
def test_as_deep_as_postgres_stores_prints_whole(world, fmt):
    # 14,000 levels: about what jsonb takes with Postgres' default max_stack_depth (2 MB). (The
    # indented json format of it is ~400 MB of indentation, so it is tried at 300 levels above.)
    store(world, "bob", '{"data": ' + deep(14_000) + ', "is_public": true}')
    shown = run_snm("--format", fmt, "-c", "from user_info select name, data order by name",
                    env=world[2], timeout=120)
    assert shown.returncode == 0, shown.stderr
    assert deep(14_000) in shown.stdout


def select_nested(levels, fmt, home):
    """`from user_info select name, data` against a server whose answer's `data` value nests
    `levels` arrays (two more around it: the array of rows and the row)."""
    body = ('[{"name":"x","data":' + deep(levels) + '}]').encode()
    server = HostileServer(lambda head: json_answer(body))
    try:
        return run_snm("--url", server.url, "--key", "the-anon-key", "--format", fmt, "-c",
                       "from user_info select name, data", env=home)
    finally:
        server.stop()


@pytest.mark.parametrize("fmt", FORMATS)
def test_an_answer_deeper_than_snm_takes_fails_the_statement(home, fmt):
    shown = select_nested(16_383, fmt, home)  # 16,385 levels with the array and the row
    assert shown.returncode == 3, shown.stderr
    assert shown.stdout == ""
    assert "nests arrays and objects more than 16384 levels deep" in shown.stderr, shown.stderr


def test_an_answer_too_deep_exits_as_one_that_is_not_json(home):
    server = HostileServer(lambda head: json_answer(b'[{"name": x}]'))
    try:
        not_json = run_snm("--url", server.url, "--key", "the-anon-key", "-c",
                           "from user_info select name", env=home)
    finally:
        server.stop()
    too_deep = select_nested(16_383, "table", home)
    assert "the body is not JSON" in not_json.stderr, not_json.stderr
    assert (not_json.returncode, too_deep.returncode) == (3, 3), too_deep.stderr


@pytest.mark.parametrize("fmt", ["expanded", "csv", "ndjson"])
def test_an_answer_at_the_limit_prints(home, fmt):
    shown = select_nested(16_382, fmt, home)
    assert shown.returncode == 0, shown.stderr
    assert deep(16_382) in shown.stdout


# ---- item 10: control characters ---------------------------------------------------------------

@pytest.fixture(scope="module")
def carols_bio(world):
    store(world, "carol", json.dumps({"bio": PAYLOAD, "is_public": True}))
    return world


CAROL = "from user_info select name, bio where name eq 'Carol'"


@pytest.mark.parametrize("fmt", FORMATS)
def test_carols_bio_reaches_alices_terminal_escaped(carols_bio, fmt):
    shown, code = at_terminal(["--format", fmt, "-c", CAROL], carols_bio[2])
    assert code == 0, shown
    assert_nothing_raw(shown)
    if fmt in ("json", "ndjson"):
        assert b"\\u001b]0;owned\\u0007\\u001b[2J\\u009b31mred" in shown, shown
    else:
        assert b"hi\\u{1B}]0;owned\\u{7}\\u{1B}[2J\\u{9B}31mred" in shown, shown


def test_echo_of_carols_bio_at_a_terminal_is_escaped_and_to_a_pipe_is_kept(carols_bio):
    statements = ("let carol = from user_info select bio where name eq 'Carol' single; "
                  "echo 'bio: $carol.bio'")
    shown, code = at_terminal(["-c", statements], carols_bio[2])
    assert code == 0, shown
    assert_nothing_raw(shown)
    assert b"bio: hi\\u{1B}]0;owned\\u{7}" in shown
    piped = run_snm("-c", statements, env=carols_bio[2])
    assert piped.returncode == 0 and piped.stdout == f"bio: {PAYLOAD}\n", piped


def test_csv_and_json_to_a_pipe_keep_the_data_and_json_never_holds_raw_controls(carols_bio):
    as_csv = run_snm("--format", "csv", "-c", CAROL, env=carols_bio[2])
    assert as_csv.returncode == 0, as_csv.stderr
    assert list(csv.reader(io.StringIO(as_csv.stdout))) == [["name", "bio"], ["Carol", PAYLOAD]]
    for fmt in ("json", "ndjson"):
        as_json = run_snm("--format", fmt, "-c", CAROL, env=carols_bio[2])
        assert as_json.returncode == 0, as_json.stderr
        assert not any(ord(c) < 0x20 and c != "\n" or 0x7F < ord(c) < 0xA0 for c in as_json.stdout)
        rows = json.loads(as_json.stdout) if fmt == "json" else [json.loads(as_json.stdout)]
        assert rows == [{"name": "Carol", "bio": PAYLOAD}]


def hostile(answer):
    return HostileServer(lambda head: answer)


def at_terminal_and_piped(answer, args, home):
    """What snm `args` shows at a pty and writes to a pipe, a server answering `answer` to each
    request (or `answer(request_head)`)."""
    server = HostileServer(answer) if callable(answer) else hostile(answer)
    args = ["--url", server.url, "--key", "k", *args]
    try:
        shown, code = at_terminal(args, home)
        piped = subprocess.run([SNM, *args], capture_output=True, env={**os.environ, **home},
                               timeout=60)
    finally:
        server.stop()
    assert code == 0, shown
    assert piped.returncode == 0, piped.stderr
    return shown, piped.stdout


@pytest.mark.parametrize("fmt", ["table", "expanded", "csv"])
def test_column_names_from_a_server_are_escaped_at_a_terminal(home, fmt):
    server = hostile(json_answer(json.dumps([{"na" + PAYLOAD + "me": 1}]).encode()))
    try:
        shown, code = at_terminal(["--url", server.url, "--key", "k", "--format", fmt, "-c",
                                   "from t select *"], home)
    finally:
        server.stop()
    assert code == 0, shown
    assert_nothing_raw(shown)
    assert b"nahi\\u{1B}]0;owned" in shown


@pytest.mark.parametrize("answer", [
    json_answer(json.dumps({"code": "P0001" + PAYLOAD, "message": "m" + PAYLOAD,
                            "details": "d" + PAYLOAD, "hint": "h" + PAYLOAD}).encode(),
                status="400 Bad Request"),
    (f"HTTP/1.1 500 Internal Server Error\r\nContent-Type: text/plain\r\n"
     f"Content-Length: {len(('boom' + PAYLOAD).encode())}\r\n\r\nboom{PAYLOAD}").encode(),
], ids=["error-fields", "non-json-body"])
def test_a_servers_error_is_shown_escaped(home, answer):
    server = hostile(answer)
    try:
        shown, code = at_terminal(["--url", server.url, "--key", "k", "-c", "from t select *"],
                                  home)
        piped = run_snm("--url", server.url, "--key", "k", "-c", "from t select *", env=home)
    finally:
        server.stop()
    assert code == 1, shown
    assert_nothing_raw(shown)
    assert b"hi\\u{1B}]0;owned" in shown
    assert piped.returncode == 1 and "\x1b" not in piped.stderr and "\x9b" not in piped.stderr


def test_auth_messages_and_the_signed_in_email_are_shown_escaped(home):
    refused = hostile(json_answer(json.dumps({"code": 400, "error_code": "invalid_credentials",
                                              "msg": "no" + PAYLOAD}).encode(),
                                  status="400 Bad Request"))
    try:
        shown, code = at_terminal(["--url", refused.url, "--key", "k", "-c",
                                   "login email 'a@b.c' password 'x'"], home)
    finally:
        refused.stop()
    assert code != 0, shown
    assert_nothing_raw(shown)
    assert b"nohi\\u{1B}]0;owned" in shown

    email = "kim" + PAYLOAD + "@example.com"
    user = {"id": "0c8e5f7a-6b9d-4f1e-9a3b-2d4c6e8f0a1b", "aud": "authenticated",
            "role": "authenticated", "email": email, "is_anonymous": False}
    accepted = hostile(json_answer(session_body(user=user)))
    try:
        shown, code = at_terminal(["--url", accepted.url, "--key", "k", "-c",
                                   "login email 'a@b.c' password 'x'; session show"], home)
    finally:
        accepted.stop()
    assert code == 0, shown
    assert_nothing_raw(shown)
    assert shown.count(b"kimhi\\u{1B}]0;owned") == 2, shown  # "signed in as", session show


# A text file's bidirectional override (Trojan Source) or byte-order mark is an invisible format
# character: a download printed at the table formats, or as csv at a terminal, shows it as an escape
# as a table's cells do; csv to a pipe is the file's data and keeps its bytes. Tabs and line ends stay.
DOWNLOAD = "\ufeffid\tname\r\nwoof \u202egnp.exe\u2066\n"


def downloaded_text(body, home, *, terminal_formats, piped_formats):
    """`storage download notes/a.txt` of a server answering `body` as text/plain: what each of
    `terminal_formats` shows at a terminal (output, exit code) and what each of `piped_formats`
    writes to a pipe (exit code, stdout)."""
    server = hostile(f"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n"
                     f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
    args = ["--url", server.url, "--key", "k", "-c", "storage download notes/a.txt"]
    try:
        shown = {fmt: at_terminal(["--format", fmt, *args], home) for fmt in terminal_formats}
        piped = {}
        for fmt in piped_formats:
            run = subprocess.run([SNM, "--format", fmt, *args], capture_output=True,
                                 env={**os.environ, **home}, timeout=60)
            piped[fmt] = (run.returncode, run.stdout)
        return shown, piped
    finally:
        server.stop()


def test_a_downloaded_texts_invisible_characters_are_shown_escaped(home):
    body = DOWNLOAD.encode()
    escaped = "\\u{FEFF}id\tname\r\nwoof \\u{202E}gnp.exe\\u{2066}\n"
    shown, piped = downloaded_text(body, home, terminal_formats=("table", "expanded", "csv"),
                                   piped_formats=("table", "expanded", "csv"))
    for fmt, (output, code) in shown.items():
        assert code == 0, output
        assert b"\xe2\x80\xae" not in output and b"\xef\xbb\xbf" not in output, (fmt, output)
        assert escaped.replace("\n", "\r\n").encode() in output, output
    for fmt in ("table", "expanded"):
        assert piped[fmt] == (0, escaped.encode()), fmt  # its CRLF kept, as at a terminal
    assert piped["csv"] == (0, body)


# A CR not before a LF takes the cursor back to the line's start at a terminal: what follows is
# printed over what came before, so "pay Kim 10 EUR<CR>pay Lee 99" read "pay Lee 99 EUR". A
# downloaded text keeps its CRLF line ends and shows a lone CR as `\r`, as a table's cells do.
LONE_CR = "pay Kim 10 EUR\rpay Lee 99\r\n\rnext\n"


def test_a_downloaded_texts_lone_carriage_return_is_shown_escaped(home):
    body = LONE_CR.encode()
    shown, piped = downloaded_text(body, home, terminal_formats=("table", "expanded", "csv"),
                                   piped_formats=("table", "csv"))
    for fmt, (output, code) in shown.items():
        assert code == 0, output
        assert b"\rpay" not in output and b"\rnext" not in output, (fmt, output)
        assert b"pay Kim 10 EUR\\rpay Lee 99\r\r\n\\rnext\r\n" in output, (fmt, output)
    assert piped["table"] == (0, b"pay Kim 10 EUR\\rpay Lee 99\r\n\\rnext\n"), piped
    assert piped["csv"] == (0, body), piped


def test_a_plans_text_is_shown_escaped_at_a_terminal_and_kept_to_a_pipe(home):
    plan = "Seq Scan on t" + PAYLOAD + " \u202ex\n  Filter: (id = 1)\n"
    body = plan.encode()
    server = hostile(f"HTTP/1.1 200 OK\r\nContent-Type: application/vnd.pgrst.plan+text\r\n"
                     f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
    try:
        shown, code = at_terminal(["--url", server.url, "--key", "k", "-c",
                                   "from t select * plan"], home)
        piped = run_snm("--url", server.url, "--key", "k", "-c", "from t select * plan", env=home)
    finally:
        server.stop()
    assert code == 0, shown
    assert_nothing_raw(shown)
    assert b"\xe2\x80\xae" not in shown
    assert b"Seq Scan on thi\\u{1B}]0;owned" in shown and b"\\u{202E}x\r\n  Filter" in shown, shown
    assert (piped.returncode, piped.stdout) == (0, plan)


# Tag characters (U+E0000...U+E007F) are invisible: "ok" followed by tags spelling "rm -rf" reads
# "ok" at a terminal while the bytes say more (ASCII smuggling). They are shown as escapes as the
# invisible characters below U+FFFF are, but a subdivision flag's (U+1F3F4, tags "gbsct", U+E007F)
# stays the flag it is; a variation selector of the supplement after an ideograph stays too.
def tags(text):
    return "".join(chr(0xE0000 + ord(c)) for c in text)


SCOTLAND = "\U0001F3F4" + tags("gbsct") + "\U000E007F"
SMUGGLED = ("ok" + tags("rm -rf") + " " + SCOTLAND + " \u845b\U000E0100 \U000E0001en"
            + "\U0001D173b" + " \U0001F3F4" + tags("gbsctxy1") + "\U000E007F")
SMUGGLED_SHOWN = ("ok\\u{E0072}\\u{E006D}\\u{E0020}\\u{E002D}\\u{E0072}\\u{E0066} " + SCOTLAND
                  + " \u845b\U000E0100 \\u{E0001}en\\u{1D173}b \U0001F3F4"
                  + "".join(f"\\u{{E00{ord(c):02X}}}" for c in "gbsctxy1") + "\\u{E007F}")


@pytest.mark.parametrize("fmt", ["table", "expanded", "csv"])
def test_tag_characters_in_a_cell_are_shown_escaped_but_a_flag_stays(home, fmt):
    body = json.dumps([{"note": SMUGGLED}], ensure_ascii=False).encode()
    shown, piped = at_terminal_and_piped(json_answer(body),
                                         ["--format", fmt, "-c", "from t select *"], home)
    assert SMUGGLED_SHOWN.encode() in shown, shown
    assert "\U000E0072".encode() not in shown
    if fmt == "csv":  # data to a pipe: its bytes kept
        assert list(csv.reader(io.StringIO(piped.decode()))) == [["note"], [SMUGGLED]]


def test_a_downloaded_texts_tag_characters_are_shown_escaped(home):
    body = (SMUGGLED + "\n").encode()
    shown, piped = downloaded_text(body, home, terminal_formats=("table", "csv"),
                                   piped_formats=("table", "csv"))
    for fmt, (output, code) in shown.items():
        assert code == 0, output
        assert (SMUGGLED_SHOWN + "\r\n").encode() in output, (fmt, output)
    assert piped["table"] == (0, (SMUGGLED_SHOWN + "\n").encode()), piped
    assert piped["csv"] == (0, body), piped


# json and ndjson at a terminal write what a table shows escaped as JSON's own escapes: U+202E as
# \u202e, a tag character past U+FFFF as its surrogate pair (\udb40\udc72); the same JSON value,
# and a flag and an emoji's selector stay. To a pipe the server's characters are kept as they came
# (jq reads them).
HIDDEN = "x\u202ey" + tags("rm") + " " + SCOTLAND + " \u2764\ufe0f \u845b\U000E0100"
HIDDEN_JSON = ("x\\u202ey\\udb40\\udc72\\udb40\\udc6d " + SCOTLAND
               + " \u2764\ufe0f \u845b\U000E0100")
HIDDEN_RAW = [c.encode() for c in ("\u202e", "\U000E0072")]


def json_shown(shown, fmt):
    """The values a pty showed as `fmt`, with its text: no hidden character raw in it."""
    text = shown.replace(b"\r\n", b"\n")
    for raw in HIDDEN_RAW:
        assert raw not in text, (raw, text)
    text = text.decode()
    return (json.loads(text) if fmt == "json"
            else [json.loads(line) for line in text.splitlines() if line]), text


def piped_json(stdout, fmt):
    """The values a pipe got as `fmt`: the hidden characters kept as they came."""
    assert HIDDEN.encode() in stdout, stdout
    text = stdout.decode()
    return json.loads(text) if fmt == "json" else [json.loads(line) for line in text.splitlines()]


@pytest.mark.parametrize("statement", ["from t select *", "from t select * order by n all"])
@pytest.mark.parametrize("fmt", ["json", "ndjson"])
def test_json_at_a_terminal_escapes_hidden_characters_and_a_pipe_keeps_them(home, fmt, statement):
    rows = [{"note": HIDDEN, "n": 1}]
    body = json.dumps(rows, ensure_ascii=False).encode()

    def answer(head):  # `all`'s second page (offset=1) is empty
        return json_answer(b"[]" if "offset=" in head.split("\r\n")[0] else body)

    shown, piped = at_terminal_and_piped(answer, ["--format", fmt, "-c", statement], home)
    values, text = json_shown(shown, fmt)
    assert HIDDEN_JSON in text and values == rows, text
    assert piped_json(piped, fmt) == rows


def test_json_at_the_prompt_escapes_hidden_characters(home):
    body = json.dumps([{"note": HIDDEN}], ensure_ascii=False).encode()
    server = hostile(json_answer(body))
    try:
        with TmuxShell([SNM, "--url", server.url, "--key", "k", "--format", "ndjson"],
                       env={**home, "PAGER": "cat"}) as shell:
            shell.wait_for_prompt()
            screen = shell.run("from t select *")
    finally:
        server.stop()
    # (tmux's screen keeps a flag's first tags only: the line is compared up to it.)
    assert '{"note":"x\\u202ey\\udb40\\udc72\\udb40\\udc6d \U0001F3F4' in screen, screen
    assert "\u202e" not in screen and "\U000E0072" not in screen


def test_echo_of_a_json_value_at_a_terminal_is_json_and_of_a_string_is_text(home):
    rows = [{"note": HIDDEN, "n": 1}]
    body = json.dumps(rows, ensure_ascii=False).encode()
    statements = "let rows = from t select *; echo $rows; echo $rows[0].note; echo 'a ${rows[0].note}'"
    shown, piped = at_terminal_and_piped(json_answer(body), ["-c", statements], home)
    lines = shown.replace(b"\r\n", b"\n").splitlines()
    for raw in HIDDEN_RAW:
        assert raw not in b"\n".join(lines), (raw, lines)
    as_text = HIDDEN_JSON.replace("\\u202e", "\\u{202E}").replace(
        "\\udb40\\udc72\\udb40\\udc6d", "\\u{E0072}\\u{E006D}")
    assert [line.decode() for line in lines[-3:]] == [
        json.dumps(rows, ensure_ascii=False, separators=(",", ":")).replace(HIDDEN, HIDDEN_JSON),
        as_text, "a " + as_text], lines
    assert json.loads(lines[-3]) == rows
    assert piped.decode().splitlines() == [json.dumps(rows, ensure_ascii=False,
                                                      separators=(",", ":")), HIDDEN, "a " + HIDDEN]


def test_the_prompt_shows_a_servers_name_for_the_user_escaped(home):
    user = {"id": "0c8e5f7a-6b9d-4f1e-9a3b-2d4c6e8f0a1b", "aud": "authenticated",
            "role": "authenticated", "email": "kim\x1b[7mx\u202ey@example.com",
            "is_anonymous": False}
    # The server answers one request a connection and closes it, so it says so: without
    # `Connection: close` the login's POST could go on the connection the schema's GET (on the
    # first key typed) had used, closed a moment later, and a write is never sent again (exit 3,
    # "the write may have been applied": one CI run met it under load).
    body = session_body(user=user)
    closing = json_answer(body).replace(b"\r\n\r\n", b"\r\nConnection: close\r\n\r\n", 1)
    server = hostile(closing)
    try:
        with TmuxShell([SNM, "--url", server.url, "--key", "k"], env=home) as shell:
            shell.wait_for_prompt()
            shell.type("login email 'a@b.c' password 'x'")
            shell.press("Enter")
            screen = shell.wait_for(lambda s: "signed in as" in s and s.rstrip().endswith(">"))
    finally:
        server.stop()
    assert "snm kim\\u{1B}[7mx\\u{202E}y@" in screen, screen
    assert "\u202e" not in screen


def test_an_error_quoting_what_was_typed_is_shown_escaped(home, tmp_path):
    shown, code = at_terminal(["--format", "x\u202ey\x1b[2J", "-c", "x"], home)
    assert code == 2 and b"unknown format 'x\\u{202E}y\\u{1B}[2J'" in shown, shown
    shown, code = at_terminal(["local", "inbox", "--dir", str(tmp_path / "x\u202ey")], home)
    assert code == 3 and b"no project in " + str(tmp_path).encode() + b"/x\\u{202E}y" in shown, shown


def test_auth_and_session_answers_as_json_escape_at_a_terminal_and_keep_to_a_pipe(home):
    email = "kim" + HIDDEN + "@example.com"
    user = {"id": "0c8e5f7a-6b9d-4f1e-9a3b-2d4c6e8f0a1b", "aud": "authenticated",
            "role": "authenticated", "email": email, "is_anonymous": False}
    statements = "login email 'a@b.c' password 'x'; session show"
    for fmt in ("json", "ndjson"):
        shown, piped = at_terminal_and_piped(json_answer(session_body(user=user)),
                                             ["--format", fmt, "-c", statements], home)
        text = shown.replace(b"\r\n", b"\n")
        for raw in HIDDEN_RAW:
            assert raw not in text, (raw, text)
        # login's line is text (escaped as text everywhere); session show's is JSON.
        assert b"signed in as kimx\\u{202E}y" in text, text
        assert text.decode().count(HIDDEN_JSON) == 1, text
        assert json.loads(text.splitlines()[-1])["email"] == email
        assert piped.count(HIDDEN.encode()) == 1, piped
        assert json.loads(piped.decode().splitlines()[-1])["email"] == email


def test_a_storage_listing_as_json_escapes_at_a_terminal_and_keeps_to_a_pipe(home):
    buckets = [{"id": "b", "name": HIDDEN, "public": False}]
    body = json.dumps(buckets, ensure_ascii=False).encode()
    shown, piped = at_terminal_and_piped(json_answer(body),
                                         ["--format", "json", "-c", "storage buckets"], home)
    values, text = json_shown(shown, "json")
    assert HIDDEN_JSON in text and values[0]["name"] == HIDDEN, text
    assert piped_json(piped, "json")[0]["name"] == HIDDEN


def test_listen_json_escapes_at_a_terminal_and_writes_valid_json_to_a_pipe(home):
    def broadcast(join):
        yield frame(0x1, json.dumps([join[0], join[1], join[2], "phx_reply",
                                     {"status": "ok", "response": {}}]).encode())
        yield frame(0x1, json.dumps([None, None, join[2], "broadcast",
                                     {"type": "broadcast", "event": "ping",
                                      "payload": {"note": HIDDEN}}], ensure_ascii=False).encode())

    outputs = {}
    for where in ("terminal", "pipe"):
        server = HostileRealtime(broadcast)
        args = ["listen", "--url", server.url, "--key", "k", "channel", "room1", "--json",
                "--count", "1"]
        try:
            if where == "terminal":
                shown, code = at_terminal(args, home)
            else:
                run = subprocess.run([SNM, *args], capture_output=True,
                                     env={**os.environ, **home}, timeout=60)
                shown, code = run.stdout, run.returncode
        finally:
            server.stop()
        assert code == 0, shown
        outputs[where] = shown
    line = [line for line in outputs["terminal"].replace(b"\r\n", b"\n").split(b"\n")
            if line.startswith(b"{")][0]
    for raw in HIDDEN_RAW:
        assert raw not in line, (raw, line)
    assert json.loads(line)["payload"]["note"] == HIDDEN and HIDDEN_JSON.encode() in line, line
    assert HIDDEN.encode() in outputs["pipe"], outputs["pipe"]
    assert json.loads(outputs["pipe"])["payload"]["note"] == HIDDEN


# Variation selectors, one rule for every format: a selector stays right after a base it can
# modify (an emoji, a keycap's digit or #, an ideograph for the supplement's); a run of them (each
# one a hidden byte: "rm" as U+E0162 U+E015D after "ok"), a second after an emoji, one after a
# joiner is escaped, at a terminal; a pipe keeps them as they came.
SELECTORS = ("ok\U000E0162\U000E015D \U0001F600\ufe0f\ufe0f a\u200d\ufe0f \u2764\ufe0f "
             "#\ufe0f\u20e3 \u845b\U000E0100")
SELECTORS_KEPT = " \u2764\ufe0f #\ufe0f\u20e3 \u845b\U000E0100"
SELECTORS_SHOWN = {
    "text": ("ok\\u{E0162}\\u{E015D} \U0001F600\ufe0f\\u{FE0F} a\u200d\\u{FE0F}"
             + SELECTORS_KEPT),
    "json": ("ok\\udb40\\udd62\\udb40\\udd5d \U0001F600\ufe0f\\ufe0f a\u200d\\ufe0f"
             + SELECTORS_KEPT),
}


def note_at_terminal_and_piped(note, fmt, home, shown, raws):
    """A server's row {"note": note} as `fmt`: at a pty `shown["text"]` (`shown["json"]` for json
    and ndjson, the same JSON value) and none of `raws`; to a pipe csv, json and ndjson keep its
    bytes."""
    body = json.dumps([{"note": note}], ensure_ascii=False).encode()
    terminal, piped = at_terminal_and_piped(json_answer(body),
                                            ["--format", fmt, "-c", "from t select *"], home)
    text = terminal.replace(b"\r\n", b"\n").decode()
    assert shown["json" if fmt in ("json", "ndjson") else "text"] in text, text
    for raw in raws:
        assert raw not in text, (raw, text)
    if fmt in ("json", "ndjson"):
        assert json.loads(text) == ([{"note": note}] if fmt == "json" else {"note": note})
    if fmt in ("csv", "json", "ndjson"):
        assert note.encode() in piped, piped


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_run_of_variation_selectors_is_escaped_at_a_terminal_and_kept_to_a_pipe(home, fmt):
    note_at_terminal_and_piped(SELECTORS, fmt, home, SELECTORS_SHOWN,
                               ("\U000E0162", "\U000E015D", "\ufe0f\ufe0f", "\u200d\ufe0f"))


# The rest of Unicode's Default_Ignorable_Code_Point: the combining grapheme joiner, the Hangul
# fillers (a blank-looking name: U+3164 passes for a space), the Khmer inherent vowels, the
# unassigned U+FFF0..U+FFF8, and Mongolian's free variation selectors (one after a Mongolian
# letter picks its form and stays; a second, or one after an ASCII letter, is escaped).
IGNORABLE = ("a\u034fb c\u115fd e\u1160f g\u17b4h i\u17b5j k\u3164l m\uffa0n o\ufff0p "
             "\u1820\u180b\u180b q\u180fr")
IGNORABLE_SHOWN = {
    "text": ("a\\u{34F}b c\\u{115F}d e\\u{1160}f g\\u{17B4}h i\\u{17B5}j k\\u{3164}l "
             "m\\u{FFA0}n o\\u{FFF0}p \u1820\u180b\\u{180B} q\\u{180F}r"),
    "json": ("a\\u034fb c\\u115fd e\\u1160f g\\u17b4h i\\u17b5j k\\u3164l "
             "m\\uffa0n o\\ufff0p \u1820\u180b\\u180b q\\u180fr"),
}


@pytest.mark.parametrize("fmt", FORMATS)
def test_every_default_ignorable_is_escaped_at_a_terminal_and_kept_to_a_pipe(home, fmt):
    note_at_terminal_and_piped(IGNORABLE, fmt, home, IGNORABLE_SHOWN,
                               [*"\u034f\u115f\u1160\u17b4\u17b5\u3164\uffa0\ufff0\u180f",
                                "\u180b\u180b"])
