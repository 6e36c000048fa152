"""Attacks on the Auth gateway (issue 13, item 6), each answered as GoTrue answers it: password
guessing and sign-up floods hit GoTrue's per-IP token buckets (429 over_request_rate_limit),
passwords are bcrypt hashes of cost 10, a password longer than bcrypt's 72 bytes is refused (not
cut), concurrent sign-ups with one e-mail are 422 user_already_exists, and a NUL character in any
credential is a 400, never Postgres' words in a 500."""
import concurrent.futures
import json
import subprocess
import threading
import uuid

import httpx
import pytest

DATED = {"X-Supabase-Api-Version": "2024-01-01"}


def new_email():
    return f"auth-{uuid.uuid4().hex[:10]}@example.com"


def psql(project, sql):
    """One query as the cluster's superuser (`db_url` of `snm local status`)."""
    result = subprocess.run(["psql", project.status["db_url"], "-XAtc", sql],
                            capture_output=True, text=True, timeout=30, check=True)
    return result.stdout.strip()


@pytest.fixture(scope="module")
def limited(start_extra_project):
    """A project with GoTrue's buckets (30 at once; its buckets are this module's alone) refilling
    at one request per 5 minutes instead of GoTrue's one per 2 s (sign-ins) or 10 s (sign-ups): a
    bcrypt check takes a loaded machine long enough that the default refill admitted a 31st or
    32nd guess mid-test. The default refill rates are checked with a clock of the test's own
    (Tests/SNMLocalTests/AuthRateLimiterTests.swift)."""
    return start_extra_project("auth-limits", "--auth-rate-limit", "token_refresh=1",
                               "--auth-rate-limit", "sign_in_sign_ups=1", auth_rate_limits=True)


@pytest.fixture(scope="module")
def unlimited(start_extra_project):
    """Limits switched off (`--auth-rate-limit NAME=0`), for tests that sign up many users."""
    return start_extra_project(
        "auth-unlimited", "--auth-rate-limit", "token_refresh=0",
        "--auth-rate-limit", "sign_in_sign_ups=0", "--auth-rate-limit", "anonymous_users=0",
        auth_rate_limits=True)


def post(project, path, body, headers=None):
    return httpx.post(f"{project.auth_url}{path}", headers={**project.headers(), **(headers or {})},
                      json=body, timeout=30)


def test_password_guessing_is_rate_limited(limited):
    # GoTrue's /token bucket per IP: 30 at once, then the refill (one per 5 minutes here).
    with httpx.Client(timeout=30) as client:
        statuses = []
        for attempt in range(60):
            response = client.post(f"{limited.auth_url}/token?grant_type=password",
                                   headers=limited.headers(),
                                   json={"email": "alice@example.com", "password": f"guess-{attempt}"})
            statuses.append(response.status_code)
            if response.status_code == 429:
                assert response.json() == {"code": 429, "error_code": "over_request_rate_limit",
                                           "msg": "Request rate limit reached"}
                assert response.headers["x-sb-error-code"] == "over_request_rate_limit"
                # Seconds until the bucket holds a token again (one per 300 s here).
                assert 1 <= int(response.headers["Retry-After"]) <= 300, response.headers
        print(f"60 wrong passwords: {statuses.count(400)} tried, {statuses.count(429)} refused")
        assert statuses == [400] * 30 + [429] * 30, "the first 30 fit the bucket, no more"
        right = client.post(f"{limited.auth_url}/token?grant_type=password",
                            headers={**limited.headers(), **DATED},
                            json={"email": "alice@example.com", "password": "password123"})
        assert right.status_code == 429, "the right password after 60 guesses must wait too"
        assert right.json() == {"code": "over_request_rate_limit",
                                "message": "Request rate limit reached"}
        # Refreshing a token shares the bucket (GoTrue's RATE_LIMIT_TOKEN_REFRESH).
        refresh = client.post(f"{limited.auth_url}/token?grant_type=refresh_token",
                              headers=limited.headers(), json={"refresh_token": "a" * 24})
        assert refresh.status_code == 429
        # REST is not Auth: the same client still reads.
        rest = client.get(f"{limited.rest_url}/dog_profile?select=id", headers=limited.headers())
        assert rest.status_code == 200


def test_sign_up_floods_are_rate_limited(limited):
    # Anonymous sign-ins: 30 an hour per IP (burst 30); e-mail sign-ups: a bucket of 30.
    anonymous = [post(limited, "/signup", {}).status_code for _ in range(31)]
    assert anonymous[:30] == [200] * 30 and anonymous[30] == 429, anonymous
    emails = [post(limited, "/signup", {"email": new_email(), "password": "password123"})
              for _ in range(31)]
    assert [r.status_code for r in emails[:30]] == [200] * 30
    assert emails[30].status_code == 429
    assert emails[30].json()["error_code"] == "over_request_rate_limit"


def test_limits_are_configurable(unlimited):
    statuses = {post(unlimited, "/token?grant_type=password",
                     {"email": "bob@example.com", "password": "wrong-one"}).status_code
                for _ in range(40)}
    assert statuses == {400}


def test_passwords_are_bcrypt_cost_10(unlimited):
    email = new_email()
    assert post(unlimited, "/signup", {"email": email, "password": "password123"}).status_code == 200
    stored = psql(unlimited, f"select encrypted_password from auth.users where email = '{email}'")
    assert stored.startswith("$2a$10$"), stored[:7]
    seeded = psql(unlimited, "select encrypted_password from auth.users "
                             "where email = 'alice@example.com'")
    assert seeded.startswith("$2a$10$"), seeded[:7]


def test_passwords_longer_than_72_bytes_are_refused(unlimited):
    # bcrypt reads 72 bytes: a longer password would be cut, and its 73rd byte on never checked.
    email = new_email()
    long = "한" * 24 + "x"  # 73 bytes in 25 characters
    refused = post(unlimited, "/signup", {"email": email, "password": long})
    assert refused.status_code == 400, refused.text
    assert refused.json()["error_code"] == "validation_failed"
    assert refused.json()["msg"] == "Password cannot be longer than 72 characters"
    fits = "한" * 24  # 72 bytes
    assert post(unlimited, "/signup", {"email": email, "password": fits}).status_code == 200
    cut = post(unlimited, "/token?grant_type=password", {"email": email, "password": fits + "zz"})
    assert cut.status_code == 400 and cut.json()["error_code"] == "invalid_credentials", cut.text
    right = post(unlimited, "/token?grant_type=password", {"email": email, "password": fits})
    assert right.status_code == 200


def test_concurrent_sign_ups_with_one_email(unlimited):
    # Before the fix, 7 of 50 such duplicates were 500 (the unique index, not the check, caught them).
    for _round in range(5):
        email = new_email()
        start = threading.Barrier(6)

        def sign_up(_):
            start.wait()
            return post(unlimited, "/signup", {"email": email, "password": "password123"})

        with concurrent.futures.ThreadPoolExecutor(6) as pool:
            answers = list(pool.map(sign_up, range(6)))
        statuses = sorted(a.status_code for a in answers)
        assert statuses == [200, 422, 422, 422, 422, 422], [a.text for a in answers]
        for answer in answers:
            if answer.status_code == 422:
                assert answer.json()["error_code"] == "user_already_exists"
        assert psql(unlimited, f"select count(*) from auth.users where email = '{email}'") == "1"


@pytest.mark.parametrize("path, body, code", [
    ("/signup", {"email": "nul@example.com", "password": "pass\u0000word1"}, "validation_failed"),
    ("/signup", {"email": "nul\u0000@example.com", "password": "password123"}, "validation_failed"),
    ("/signup", {"data": {"nick": "a\u0000b"}}, "validation_failed"),
    ("/token?grant_type=password", {"email": "alice@example.com", "password": "pass\u0000word123"},
     "invalid_credentials"),
    ("/token?grant_type=password", {"email": "alice\u0000@example.com", "password": "password123"},
     "invalid_credentials"),
    ("/token?grant_type=refresh_token", {"refresh_token": "abcdefabcdef\u0000abcdefabcdef"},
     "validation_failed"),
], ids=["signup-password", "signup-email", "signup-metadata", "password", "email", "refresh"])
def test_a_nul_character_is_a_client_error(unlimited, path, body, code):
    answer = post(unlimited, path, body)
    assert answer.status_code == 400, answer.text
    assert answer.json()["error_code"] == code, answer.text
    assert "Database error" not in answer.text and "0x00" not in answer.text
