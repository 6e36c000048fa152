"""`snm local inbox` and the Auth switches of `snm local start` (issue 21): the mails a project
would have sent, as a table (no server control character reaches the terminal) or JSON; the
switches are kept across restarts as the other settings are."""
import json

import httpx

from auth_helpers import new_email
from conftest import run_snm


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
    assert "?]0;owned??[2J" in hostile.stdout
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
