"""`snm local inbox` and the Auth switches of `snm local start` (issue 21): the mails a project
would have sent, as a table (no server control character reaches the terminal) or JSON; the
switches are kept across restarts as the other settings are."""
import json
import os
import subprocess

import httpx

from auth_helpers import new_email
from conftest import SNM, run_snm
from test_security_output import at_terminal


def settings_of(project):
    return httpx.get(project.auth_url + "/settings", headers=project.headers()).json()


def test_inbox_table_and_json(confirming):
    project = confirming
    email = new_email("inbox")
    answer = httpx.post(project.auth_url + "/signup", headers=project.headers(),
                        json={"email": email, "password": "walk-the-dog"})
    assert answer.status_code == 200 and "access_token" not in answer.json()
    table = run_snm("local", "inbox", email.upper(), "--dir", project.data_dir)
    assert table.returncode == 0, table.stderr
    lines = table.stdout.splitlines()
    assert lines[0].split() == ["sent", "at", "to", "kind", "otp", "subject"]
    assert email in lines[2] and "signup" in lines[2] and "Confirm Your Email" in lines[2]
    as_json = run_snm("local", "inbox", email, "--json", "--dir", project.data_dir)
    mails = json.loads(as_json.stdout)
    assert [mail["kind"] for mail in mails] == ["signup"] and mails[0]["otp"] in lines[2]
    # A hostile message (the table shows what a server stored) prints no control character.
    project.sql("insert into snm_local.inbox (recipient, kind, subject, body) values "
                "('evil@example.com', 'signup', E'\\x1b]0;owned\\x07\\x1b[2J', 'x')")
    hostile = run_snm("local", "inbox", "evil@example.com", "--dir", project.data_dir)
    assert "\x1b" not in hostile.stdout and "\x07" not in hostile.stdout
    assert "\\u{1B}]0;owned\\u{7}\\u{1B}[2J" in hostile.stdout
    empty = run_snm("local", "inbox", "nobody@example.com", "--dir", project.data_dir)
    assert empty.returncode == 0 and "no mail" in empty.stdout
    everyone = json.loads(run_snm("local", "inbox", "--json", "--dir", project.data_dir).stdout)
    assert {mail["to"] for mail in everyone} >= {email, "evil@example.com"}
    project.sql("delete from snm_local.inbox where recipient = 'evil@example.com'")


def test_inbox_without_a_running_project(tmp_path):
    missing = run_snm("local", "inbox", "--dir", str(tmp_path / "none"))
    assert missing.returncode != 0 and "snm local start" in missing.stderr


def test_auth_switches_are_kept_across_restarts(start_extra_project):
    project = start_extra_project("auth-switches", "--confirm-email", "--no-anonymous",
                                  "--no-signup")
    first = settings_of(project)
    assert (first["mailer_autoconfirm"], first["external"]["anonymous_users"],
            first["disable_signup"]) == (False, False, True)
    refused = httpx.post(project.auth_url + "/signup", headers=project.headers(),
                         json={"email": new_email(), "password": "walk-the-dog"})
    assert refused.status_code == 422 and refused.json()["error_code"] == "signup_disabled"
    assert run_snm("local", "stop", "--dir", project.data_dir).returncode == 0
    restarted = run_snm("local", "start", "--dir", project.data_dir, "--json")
    assert restarted.returncode == 0, restarted.stderr
    again = settings_of(project)
    assert again == first
    flipped = run_snm("local", "stop", "--dir", project.data_dir)
    assert flipped.returncode == 0
    changed = run_snm("local", "start", "--dir", project.data_dir, "--signup", "--anonymous",
                      "--no-confirm-email", "--json")
    assert changed.returncode == 0, changed.stderr
    now = settings_of(project)
    assert (now["mailer_autoconfirm"], now["external"]["anonymous_users"],
            now["disable_signup"]) == (True, True, False)
    anonymous = httpx.post(project.auth_url + "/signup", headers=project.headers(), json={})
    assert anonymous.status_code == 200 and anonymous.json()["user"]["is_anonymous"] is True


# A mail's text is another person's: a signed-up user's name, the redirect URL a sign-up named.
# At a terminal no hidden character of it arrives raw (the table as text escapes, --json as JSON's
# own escapes: the same JSON value); to a pipe --json keeps its bytes (data).
HIDDEN = "Kim\u202egpj.exe\U000E0072\U000E006D"
HIDDEN_RAW = ["\u202e".encode(), "\U000E0072".encode(), b"\x1b"]
HIDDEN_TEXT = "Kim\\u{202E}gpj.exe\\u{E0072}\\u{E006D}"
HIDDEN_JSON = "Kim\\u202egpj.exe\\udb40\\udc72\\udb40\\udc6d"


def shown_without_raw(shown):
    text = shown.replace(b"\r\n", b"\n")
    for raw in HIDDEN_RAW:
        assert raw not in text, (raw, text)
    return text.decode()


def test_inbox_shows_a_mails_hidden_characters_escaped_at_a_terminal(confirming, home):
    project = confirming
    subject, body = "Welcome " + HIDDEN, "Hi " + HIDDEN + "\x1b]0;owned\x07 https://x.test/#a"
    project.sql("insert into snm_local.inbox (recipient, kind, subject, body) values "
                f"('hidden@example.com', 'signup', '{subject}', '{body}')")
    try:
        args = ["local", "inbox", "hidden@example.com", "--dir", project.data_dir]
        table, code = at_terminal(args, home)
        assert code == 0, table
        assert "Welcome " + HIDDEN_TEXT in shown_without_raw(table), table
        as_json, code = at_terminal([*args, "--json"], home)
        assert code == 0, as_json
        text = shown_without_raw(as_json)
        assert HIDDEN_JSON in text, text
        mails = json.loads(text)
        assert (mails[0]["subject"], mails[0]["text"]) == (subject, body)
        piped = subprocess.run([SNM, *args, "--json"], capture_output=True, timeout=60,
                               env={**os.environ, **home})
        assert piped.returncode == 0 and HIDDEN.encode() in piped.stdout, piped
        assert json.loads(piped.stdout)[0]["text"] == body
    finally:
        project.sql("delete from snm_local.inbox where recipient = 'hidden@example.com'")


def test_status_shows_a_folders_hidden_characters_escaped_at_a_terminal(tmp_path, home):
    folder = str(tmp_path / ("data" + HIDDEN))
    args = ["local", "status", "--dir", folder]
    text, code = at_terminal(args, home)
    assert code == 3, text
    assert "no project in " + folder.replace(HIDDEN, HIDDEN_TEXT) in shown_without_raw(text), text
    as_json, code = at_terminal([*args, "--json"], home)
    assert code == 3, as_json
    shown = shown_without_raw(as_json)
    assert HIDDEN_JSON in shown and json.loads(shown)["data_dir"] == folder, shown
    piped = subprocess.run([SNM, *args, "--json"], capture_output=True, timeout=60,
                           env={**os.environ, **home})
    assert piped.returncode == 3 and json.loads(piped.stdout)["data_dir"] == folder, piped
    assert HIDDEN.encode() in piped.stdout
